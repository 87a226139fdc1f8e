//! The engine's layers: what it holds and how its modules depend on each other.
//!
//! - Its modules, submodules in folders included, import each other without a cycle: module
//!   `a` may name `b` (through `crate::…`, `super::…`, `self::…` or a child's name, outside
//!   comments and `#[cfg(test)]` items) only if `b` does not name `a`, directly or through
//!   others (`tests/layers/mod.rs` reads the graph).
//! - It holds the levels, the analysis and the puzzles and nothing of the lab: no arena, no
//!   opponent of the arena's, no experiment (their files, their types, their toggles), the
//!   `Searcher` at most 12 fields, no `Engine::set_*` but `set_seed`.
//! - The lab depends on it, never the other way round, and neither the server nor the command
//!   line depends on the lab.

mod layers;

use std::fs;
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src() -> PathBuf {
    manifest_dir().join("src")
}

#[test]
fn the_parser_reads_paths_as_meant() {
    layers::self_check();
}

#[test]
fn modules_import_each_other_without_a_cycle() {
    let modules = layers::read(&src());
    assert!(modules.len() > 30, "{} modules read", modules.len());
    // The graph is not empty: the check would pass on nothing.
    assert!(
        modules["search::paranoid"]
            .deps
            .contains("search::searcher")
    );
    assert!(modules["puzzle::verify"].deps.contains("search::rank"));
    if let Some(cycle) = layers::cycle(&modules) {
        panic!("a cycle of imports: {}", cycle.join(" -> "));
    }
    let root = layers::through_root(&modules);
    assert!(
        root.is_empty(),
        "name the module that defines what is used, not the crate root: {root:?}"
    );
}

/// The files of the lab that once lived in the engine, by name: none may come back.
const LAB_FILES: &[&str] = &[
    "arena.rs",
    "maxn.rs",
    "mcts.rs",
    "referee.rs",
    "beyond.rs",
    "fifth.rs",
    "wide.rs",
    "mcts_beyond.rs",
    "brs.rs",
    "experiments",
];

/// The lab's identifiers and the experiments' toggles, none of which may appear in the
/// engine's source, comments included.
const LAB_WORDS: &[&str] = &[
    "BestReply",
    "Style::",
    "Reductions",
    "paranoid_kills",
    "old_placements",
    "brs_beyond",
    "wide_beyond",
    "mcts_beyond",
    "stop_at_fourth",
    "opponent_keep",
    "verify_margin",
    "VERIFIED_FROM",
    "VERIFY_MARGIN",
    "Width::",
    "Weights::FITTED",
    "maxn2",
    "referee2",
    "MaxnScratch",
    "Mcts",
    "arena::",
    "djambi_lab",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.push(path.clone());
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_of_the_lab_is_left_in_the_engine() {
    let mut all = Vec::new();
    files(&src(), &mut all);
    files(&manifest_dir().join("examples"), &mut all);
    let mut found = Vec::new();
    for path in &all {
        let name = path.file_name().unwrap().to_string_lossy();
        if LAB_FILES.contains(&name.as_ref()) {
            found.push(format!("{}: a file of the lab", path.display()));
        }
        // The puzzles' verifier is the engine's; the search's `verify.rs` was the lab's.
        if name == "verify.rs" && path.parent().is_some_and(|p| p.ends_with("search")) {
            found.push(format!("{}: the lab's check", path.display()));
        }
        if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(path).unwrap();
            for word in LAB_WORDS {
                if text.contains(word) {
                    found.push(format!("{}: {word}", path.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the lab in the engine:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_searcher_has_at_most_12_fields() {
    let modules = layers::read(&src());
    let holders: Vec<_> = modules
        .values()
        .filter_map(|m| layers::struct_fields(&m.code, "Searcher"))
        .collect();
    assert_eq!(holders.len(), 1, "one `struct Searcher`");
    let fields = &holders[0];
    assert!(fields.len() >= 5, "the parse found the fields: {fields:?}");
    assert!(fields.len() <= 12, "{} fields: {fields:?}", fields.len());
}

#[test]
fn the_engine_has_no_experiment_toggles() {
    let code = layers::code_of(&fs::read_to_string(src().join("engine.rs")).unwrap());
    let setters: Vec<&str> = code
        .match_indices("fn set_")
        .map(|(at, _)| {
            let rest = &code[at + 3..];
            &rest[..rest.find('(').unwrap()]
        })
        .collect();
    assert_eq!(setters, ["set_seed"]);
}

fn manifest(krate: &str) -> String {
    fs::read_to_string(manifest_dir().join("..").join(krate).join("Cargo.toml")).unwrap()
}

/// Whether a manifest names `name` as a dependency of any kind.
fn depends_on(manifest: &str, name: &str) -> bool {
    manifest.lines().any(|line| {
        let line = line.trim_start();
        !line.starts_with('#')
            && (line.starts_with(&format!("{name} "))
                || line.starts_with(&format!("{name}."))
                || line.starts_with(&format!("{name}="))
                || line.contains(&format!("[dependencies.{name}]"))
                || line.contains(&format!("dependencies.{name}]")))
    })
}

#[test]
fn the_lab_is_a_dependency_of_nothing_that_ships() {
    assert!(
        depends_on(&manifest("djambi-lab"), "djambi-engine"),
        "the check sees dependencies"
    );
    for krate in [
        "djambi-engine",
        "djambi-server",
        "djambi-cli",
        "djambi-core",
    ] {
        assert!(
            !depends_on(&manifest(krate), "djambi-lab"),
            "{krate} depends on the lab"
        );
    }
    let workspace =
        fs::read_to_string(manifest_dir().join("..").join("..").join("Cargo.toml")).unwrap();
    let defaults = workspace
        .lines()
        .find(|l| l.starts_with("default-members"))
        .expect("the workspace's default members");
    assert!(
        !defaults.contains("djambi-lab"),
        "the lab is built only when asked for: {defaults}"
    );
}
