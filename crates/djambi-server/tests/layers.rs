//! The server's parts depend on each other one way only (docs/SERVER.md, "Architecture"):
//! - `table/`, the pure domain of a live game, names no async runtime, web, database or broker
//!   crate, and none of the server's edges (`store`, `protocol`, `http`, `ws`, `error`,
//!   `cluster`) nor the `game` that drives it;
//! - `AppError`, the HTTP error, appears in neither `table/` nor `game/`: domain errors become
//!   HTTP errors at the edge only;
//! - `store/` is rows and SQL over the table's types: it does not name `protocol`;
//! - nothing outside `cluster/` asks whether a game runs on another node;
//! - and every module names (through `crate::…` paths) only the modules its layer allows.
//!
//! An external check applies the same rules; this one fails first.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The module graph of a crate, read from its source (shared with the engine's and the lab's
/// layering tests).
#[path = "../../djambi-engine/tests/layers/mod.rs"]
mod module_graph;

/// Each top-level module of `src/` and the modules it may name. `lib.rs` and `main.rs` wire
/// everything together; `fuzzing` (behind its feature) drives every parser.
const ALLOWED: &[(&str, &[&str])] = &[
    ("clock", &[]),
    ("token", &[]),
    ("metrics", &[]),
    ("puzzles", &[]),
    ("table", &["clock", "token"]),
    ("protocol", &["clock", "token", "table"]),
    ("net", &["metrics"]),
    ("config", &["net", "store", "game", "analysis"]),
    ("store", &["clock", "token", "metrics", "table"]),
    (
        "game",
        &[
            "clock", "token", "metrics", "net", "table", "protocol", "store",
        ],
    ),
    (
        "analysis",
        &["clock", "net", "table", "protocol", "store", "game"],
    ),
    (
        "cluster",
        &[
            "clock", "token", "metrics", "net", "table", "protocol", "store", "game",
        ],
    ),
    (
        "push",
        &[
            "clock", "token", "metrics", "net", "config", "table", "store", "game",
        ],
    ),
    ("circle", &["clock", "token", "table", "protocol", "store"]),
    (
        "error",
        &["table", "protocol", "store", "game", "analysis", "circle"],
    ),
    (
        "http",
        &[
            "clock", "token", "metrics", "net", "config", "table", "protocol", "store", "game",
            "error", "puzzles", "analysis", "push", "circle",
        ],
    ),
    (
        "ws",
        &[
            "clock", "metrics", "net", "config", "table", "protocol", "game", "error",
        ],
    ),
    (
        "fuzzing",
        &[
            "clock", "token", "net", "table", "protocol", "store", "game", "http", "ws",
        ],
    ),
];

/// Crates a part may not use, by part.
const FORBIDDEN_CRATES: &[(&str, &[&str])] = &[
    (
        "table",
        &[
            "axum",
            "tokio",
            "tokio_util",
            "tokio_tungstenite",
            "sqlx",
            "async_nats",
            "hyper",
            "hyper_util",
            "tower",
            "tower_http",
            "governor",
            "postcard",
        ],
    ),
    (
        "protocol",
        &[
            "axum",
            "tokio",
            "tokio_util",
            "sqlx",
            "async_nats",
            "hyper",
            "tower",
            "tower_http",
        ],
    ),
    (
        "game",
        &[
            "axum",
            "sqlx",
            "async_nats",
            "hyper",
            "hyper_util",
            "tower",
            "tower_http",
            "postcard",
        ],
    ),
    (
        "store",
        &["axum", "async_nats", "hyper", "tower", "tower_http"],
    ),
    (
        "analysis",
        &["axum", "sqlx", "async_nats", "hyper", "tower", "tower_http"],
    ),
];

/// Words that ask whether a game runs on another node; only `cluster/` may know.
const REMOTE_WORDS: &[&str] = &[
    "is_remote",
    "is_local",
    ".remote()",
    "RemoteGame",
    "GameLink::Remote",
    "GameLink::Local",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir` (or the file `dir.rs`), with its depth below `src/<part>`.
fn files_of(part: &str) -> Vec<(PathBuf, usize)> {
    let dir = src().join(part);
    let mut out = Vec::new();
    if dir.is_dir() {
        walk(&dir, 0, &mut out);
    } else {
        out.push((src().join(format!("{part}.rs")), 0));
    }
    out
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, usize)>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, depth + 1, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let is_mod = path.file_name().is_some_and(|n| n == "mod.rs");
            out.push((path, if is_mod { depth } else { depth + 1 }));
        }
    }
}

/// The code of a file without its comments (doc comments included).
fn code(source: &str) -> String {
    source
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") {
                ""
            } else {
                line.split(" //").next().unwrap_or("")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a file names through `crate::<module>` paths (and `use crate::{…}`).
fn crate_paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            // `djambi_server::…` and the like are not this crate's paths.
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inside = group.split('}').next().unwrap_or("");
            for item in inside.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push(name);
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        found.push(name);
    }
    found
}

/// Whether a file names `krate` (as `krate::…` or `use krate`).
fn names_crate(code: &str, krate: &str) -> bool {
    code.match_indices(&format!("{krate}::")).any(|(i, _)| {
        let before = code[..i].chars().last();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    })
}

/// The longest run of `super::` in a file.
fn super_depth(code: &str) -> usize {
    let mut deepest = 0;
    for (i, _) in code.match_indices("super::") {
        let run = code.as_bytes()[i..]
            .chunks(7)
            .take_while(|c| *c == b"super::")
            .count();
        deepest = deepest.max(run);
    }
    deepest
}

/// Whether a file declares a module inline (`mod name {`).
fn has_inline_module(code: &str) -> bool {
    code.lines().any(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        line.starts_with("mod ") && line.trim_end().ends_with('{')
    })
}

fn rel(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn every_part_names_only_what_its_layer_allows() {
    let mut parts: Vec<String> = fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|m| m != "lib" && m != "main")
        .collect();
    parts.sort();
    parts.dedup();
    let mut listed: Vec<String> = ALLOWED.iter().map(|(m, _)| m.to_string()).collect();
    listed.sort();
    assert_eq!(parts, listed, "every part of src/ has its place in ALLOWED");

    let mut wrong = Vec::new();
    for (part, allowed) in ALLOWED {
        for (file, depth) in files_of(part) {
            let code = code(&fs::read_to_string(&file).unwrap());
            for dep in crate_paths(&code) {
                let root_item = dep.starts_with(|c: char| c.is_ascii_uppercase());
                let edge = matches!(*part, "http" | "ws" | "fuzzing");
                if dep == *part || allowed.contains(&dep.as_str()) || (root_item && edge) {
                    continue;
                }
                wrong.push(format!("{} names crate::{dep}", rel(&file)));
            }
            // `super::` may not climb out of the part (to the crate's root); an inline module
            // (`mod tests { … }`) is one level deeper.
            let inline = usize::from(has_inline_module(&code));
            if super_depth(&code) > depth + inline {
                wrong.push(format!("{} climbs out of {part}/ with super::", rel(&file)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_table_game_protocol_and_store_use_no_forbidden_crate() {
    let mut wrong = Vec::new();
    for (part, crates) in FORBIDDEN_CRATES {
        for (file, _) in files_of(part) {
            let code = code(&fs::read_to_string(&file).unwrap());
            for krate in *crates {
                if names_crate(&code, krate) {
                    wrong.push(format!("{} uses {krate}", rel(&file)));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "forbidden crates:\n{}", wrong.join("\n"));
}

#[test]
fn the_http_error_stays_at_the_edges() {
    let mut wrong = Vec::new();
    for part in ["table", "game"] {
        for (file, _) in files_of(part) {
            // Comments included: not even a mention.
            if fs::read_to_string(&file).unwrap().contains("AppError") {
                wrong.push(rel(&file));
            }
        }
    }
    assert!(wrong.is_empty(), "AppError in: {}", wrong.join(", "));
}

#[test]
fn only_the_cluster_knows_where_a_game_runs() {
    let mut wrong = Vec::new();
    for (part, _) in ALLOWED.iter().filter(|(p, _)| *p != "cluster") {
        for (file, _) in files_of(part) {
            let code = code(&fs::read_to_string(&file).unwrap());
            for word in REMOTE_WORDS {
                if code.contains(word) {
                    wrong.push(format!("{} says {word}", rel(&file)));
                }
            }
        }
    }
    let lib = code(&fs::read_to_string(src().join("lib.rs")).unwrap());
    for word in REMOTE_WORDS {
        if lib.contains(word) {
            wrong.push(format!("lib.rs says {word}"));
        }
    }
    assert!(wrong.is_empty(), "outside cluster/:\n{}", wrong.join("\n"));
}

#[test]
fn the_checks_see_what_they_look_for() {
    let code = code(
        "use crate::{game::Game, table};\n// crate::http in a comment\nfn f() { crate::store::x(); djambi_server::ws::y(); super::super::z(); }\n",
    );
    assert_eq!(crate_paths(&code), ["game", "table", "store"]);
    assert_eq!(super_depth(&code), 2);
    assert!(has_inline_module(
        "#[cfg(test)]\nmod tests {\n    use super::*;\n}"
    ));
    assert!(!has_inline_module("mod tests;"));
    assert!(names_crate("use axum::Router;", "axum"));
    assert!(!names_crate("use my_axum::Router;", "axum"));
}

/// No two modules import each other, directly or round a loop: not two sibling files, not two
/// parts. (A folder's `mod.rs` is its part's front: its own files may use what it defines, so
/// an edge from a file to its folder's `mod.rs` is not a loop.)
#[test]
fn modules_import_each_other_without_a_cycle() {
    module_graph::self_check();
    let modules = module_graph::without_upward(&module_graph::read(&src()));
    assert!(modules.contains_key("game::registry") && modules.contains_key("table::event"));
    if let Some(cycle) = module_graph::cycle(&modules) {
        panic!("a cycle of imports: {}", cycle.join(" -> "));
    }
}

/// The variants of `enum name` in the file at `path` (under `src/`).
fn variants(path: &str, name: &str) -> Vec<String> {
    let source = code(&fs::read_to_string(src().join(path)).unwrap());
    let start = source.find(&format!("pub enum {name} {{")).unwrap();
    let mut out = Vec::new();
    let mut depth = 0;
    for line in source[start..].lines().skip(1) {
        let trimmed = line.trim();
        if depth == 0 {
            if trimmed == "}" {
                break;
            }
            let ident: String = trimmed
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if ident.starts_with(|c: char| c.is_ascii_uppercase()) {
                out.push(ident);
            }
        }
        depth += trimmed.matches(['{', '(']).count();
        depth -= trimmed.matches(['}', ')']).count();
    }
    out
}

/// The files under `src/` (tests left out) whose code names `Enum::Variant`.
fn naming(enum_name: &str, variant: &str) -> BTreeSet<String> {
    let needle = format!("{enum_name}::{variant}");
    let mut out = BTreeSet::new();
    for (path, _) in files_of("") {
        let source = fs::read_to_string(&path).unwrap();
        let code = code(source.split("#[cfg(test)]").next().unwrap_or(""));
        let named = code.match_indices(&needle).any(|(i, _)| {
            let before = code[..i].chars().last();
            let after = code[i + needle.len()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if named {
            out.insert(rel(&path));
        }
    }
    out
}

/// docs/SERVER.md, "Adding an event": a kind of event is a variant of `table/event.rs` and its
/// arm in `table/state/apply.rs`, and the client narrates it (`web/js/board/narrate.js`). The
/// store's codec, the wire's view, the socket and the HTTP edges handle every kind through its
/// serde form and name none; outside `table/`, only the parts that make events from their own
/// timers and bots name the kinds they make.
#[test]
fn an_event_kind_is_the_domain_its_apply_and_its_narration() {
    const MAKERS: &[&str] = &[
        "game/actor/admin.rs",     // the creator cancels
        "game/actor/bots.rs",      // a bot's turn and draw offer
        "game/actor/calls.rs",     // an open game expires
        "game/actor/commit.rs",    // the clock paused for the server's downtime
        "game/registry/create.rs", // an imported record's turns and resignations
        "fuzzing.rs",              // the fuzz targets' fixed games
    ];
    let kinds = variants("table/event.rs", "EventKind");
    assert!(
        kinds.len() >= 18 && kinds.contains(&"TakenBack".to_string()),
        "{kinds:?}"
    );
    let narrate = fs::read_to_string(src().join("../../../web/js/board/narrate.js")).unwrap();
    let mut wrong = Vec::new();
    for kind in &kinds {
        for file in naming("EventKind", kind) {
            if !file.starts_with("table/") && !MAKERS.contains(&file.as_str()) {
                wrong.push(format!("{file} names EventKind::{kind}"));
            }
        }
        let tag = snake(kind);
        if !narrate.contains(&format!("'{tag}'")) {
            wrong.push(format!("web/js/board/narrate.js does not narrate `{tag}`"));
        }
    }
    let apply = fs::read_to_string(src().join("table/state/apply.rs")).unwrap();
    for kind in &kinds {
        if !apply.contains(&format!("{kind} {{")) && !apply.contains(&format!("{kind} =>")) {
            wrong.push(format!("table/state/apply.rs has no arm for {kind}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// docs/SERVER.md, "Adding a command": an action on a game is a variant of `table/decide.rs`'s
/// `Action` (what `decide` makes of it), the client's message (`protocol/client.rs`) and the
/// socket's translation of one into the other (`ws/inbound.rs`); it crosses between nodes
/// inside `Call::Act` as it is. Outside `table/`, only the socket and the bots (who act as a
/// seat does) name an action — but for the three that make no event of this game: chat and
/// whispers (the actor keeps them apart from the log) and a rematch (a new game).
#[test]
fn a_command_is_the_domain_the_message_and_the_socket() {
    const ALSO: &[&str] = &["ws/inbound.rs", "game/actor/bots.rs", "fuzzing.rs"];
    const NO_EVENT: &[(&str, &[&str])] = &[
        ("Chat", &["game/actor/calls.rs"]),
        ("Whisper", &["game/actor/calls.rs"]),
        ("Rematch", &["game/actor/calls.rs", "ws/socket.rs"]),
    ];
    let actions = variants("table/decide.rs", "Action");
    assert!(actions.contains(&"Takeback".to_string()), "{actions:?}");
    let mut wrong = Vec::new();
    for action in &actions {
        let files = naming("Action", action);
        if !files.contains("ws/inbound.rs") {
            wrong.push(format!("ws/inbound.rs never makes Action::{action}"));
        }
        let special = NO_EVENT
            .iter()
            .find(|(a, _)| a == action)
            .map_or(&[][..], |(_, files)| *files);
        for file in files {
            let allowed = ALSO.contains(&file.as_str()) || special.contains(&file.as_str());
            if !file.starts_with("table/") && !allowed {
                wrong.push(format!("{file} names Action::{action}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `TakenBack` → `taken_back`: a variant's serde tag.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
