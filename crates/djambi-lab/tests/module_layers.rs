//! The lab's layers.
//!
//! - Its modules import each other without a cycle (the engine's `tests/layers/mod.rs` reads
//!   the graph: `crate::…`, `super::…`, `self::…` and child paths, outside comments and
//!   `#[cfg(test)]` items).
//! - An experiment is one file of `src/experiments/`, plugged into `hard` through the engine's
//!   one extension point (`impl IterationHook`), registered in one place (`experiments/mod.rs`,
//!   under its file's name with `-` for `_`), named by no other module and naming no other
//!   module of the lab: deleting the file and its registration drops it.
//! - Nothing that ships depends on the lab: not the engine, the server or the command line.

#[path = "../../djambi-engine/tests/layers/mod.rs"]
mod layers;

use std::fs;
use std::path::PathBuf;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_parser_reads_paths_as_meant() {
    layers::self_check();
}

#[test]
fn modules_import_each_other_without_a_cycle() {
    let modules = layers::read(&manifest_dir().join("src"));
    assert!(modules["arena"].deps.contains("agent"), "the graph is read");
    if let Some(cycle) = layers::cycle(&modules) {
        panic!("a cycle of imports: {}", cycle.join(" -> "));
    }
    let root = layers::through_root(&modules);
    assert!(
        root.is_empty(),
        "name the module, not the crate root: {root:?}"
    );
}

/// The experiments' files, by stem (`hard_stop`).
fn experiment_files() -> Vec<String> {
    let dir = manifest_dir().join("src").join("experiments");
    let mut stems = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        assert!(
            path.is_file(),
            "{}: an experiment is one file, not a folder",
            path.display()
        );
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if stem != "mod" {
            stems.push(stem);
        }
    }
    stems.sort();
    stems
}

#[test]
fn each_experiment_is_one_file_plugged_into_the_hook_and_registered_once() {
    let modules = layers::read(&manifest_dir().join("src"));
    let stems = experiment_files();
    assert!(!stems.is_empty(), "the check sees the experiments");
    let registry = &modules["experiments"].code;
    let mut problems = Vec::new();
    for stem in &stems {
        let name = format!("experiments::{stem}");
        let module = &modules[&name];
        if !module.code.contains("impl IterationHook for") {
            problems.push(format!("{stem}: no `impl IterationHook for`"));
        }
        // Only the engine's and the core's items: no other module of the lab.
        if !module.deps.is_empty() {
            problems.push(format!("{stem} names lab modules: {:?}", module.deps));
        }
        let registered = registry.matches(&format!("mod {stem};")).count();
        let hooked = registry.matches(&format!("{stem}::hook")).count();
        if (registered, hooked) != (1, 1) {
            problems.push(format!(
                "{stem}: declared {registered} times, its hook registered {hooked} times"
            ));
        }
        for (other, m) in &modules {
            if other != "experiments" && other != &name && m.deps.contains(&name) {
                problems.push(format!("{other} names {name}: only the registry may"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The registry holds exactly these files, under their names.
    let mut names: Vec<String> = djambi_lab::experiments::ALL
        .iter()
        .map(|e| e.name.replace('-', "_"))
        .collect();
    names.sort();
    assert_eq!(names, stems);
}

fn manifest(krate: &str) -> String {
    fs::read_to_string(manifest_dir().join("..").join(krate).join("Cargo.toml")).unwrap()
}

#[test]
fn nothing_that_ships_depends_on_the_lab() {
    for krate in [
        "djambi-core",
        "djambi-engine",
        "djambi-server",
        "djambi-cli",
    ] {
        // A dependency on it, of any kind: `djambi-lab = …`, `djambi-lab.workspace = true`,
        // `[dependencies.djambi-lab]`, `[dev-dependencies.djambi-lab]`.
        let depends = manifest(krate).lines().any(|line| {
            let line = line.trim_start();
            line.starts_with("djambi-lab") || line.contains("dependencies.djambi-lab")
        });
        assert!(!depends, "{krate} depends on djambi-lab");
    }
    let lab = manifest("djambi-lab");
    assert!(lab.contains("publish = false"));
    assert!(!lab.contains("djambi-server") && !lab.contains("djambi-cli"));
}
