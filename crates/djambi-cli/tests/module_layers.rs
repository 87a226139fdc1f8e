//! The command's modules import each other without a cycle (the exit statuses live in their own
//! module, `exit.rs`, so the subcommands that return them need not name `commands.rs`, which
//! calls them).

use std::path::Path;

/// The module graph of a crate, read from its source (shared with the engine's, the lab's and
/// the server's layering tests).
#[path = "../../djambi-engine/tests/layers/mod.rs"]
mod module_graph;

#[test]
fn modules_import_each_other_without_a_cycle() {
    module_graph::self_check();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = module_graph::without_upward(&module_graph::read(&src));
    assert!(modules.contains_key("exit") && modules.contains_key("commands"));
    assert!(modules["analyse"].deps.contains("exit"));
    if let Some(cycle) = module_graph::cycle(&modules) {
        panic!("a cycle of imports: {}", cycle.join(" -> "));
    }
}
