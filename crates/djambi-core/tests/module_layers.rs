//! The crate's modules depend on each other one way only: each module may name (through
//! `crate::module` paths) only modules that come before it in [`LAYERS`], the order documented in
//! `src/lib.rs`. This keeps board.rs, position.rs and notation.rs from importing each other again.

use std::fs;
use std::path::Path;

/// The modules of `src/`, each allowed to depend only on those before it.
const LAYERS: &[&str] = &[
    "square", "piece", "rules", "turn", "board", "position", "notation", "movegen", "illegal",
    "effect", "play", "perft", "game", "record", "fuzzing",
];

/// The modules a source file names through `crate::<module>` paths, outside comments and
/// outside its `#[cfg(test)]` module (which clippy keeps at the end of the file).
fn crate_paths(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let line = line.split("//").next().unwrap_or("");
        for (i, _) in line.match_indices("crate::") {
            let rest = &line[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '{')
                .collect();
            found.push(name);
        }
    }
    found
}

#[test]
fn modules_depend_only_on_earlier_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules: Vec<String> = fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|m| m != "lib")
        .collect();
    modules.sort();
    let mut listed: Vec<String> = LAYERS.iter().map(|m| m.to_string()).collect();
    listed.sort();
    assert_eq!(
        modules, listed,
        "every module of src/ has its place in LAYERS"
    );

    let mut wrong = Vec::new();
    for (rank, module) in LAYERS.iter().enumerate() {
        let source = fs::read_to_string(src.join(format!("{module}.rs"))).unwrap();
        for dep in crate_paths(&source) {
            match LAYERS.iter().position(|m| *m == dep) {
                Some(d) if d < rank => {}
                Some(_) => wrong.push(format!("{module} -> {dep} (not an earlier layer)")),
                None => wrong.push(format!(
                    "{module} -> crate::{dep} (name the module: `crate::<module>::…`)"
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layer order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_imports_and_inline_paths() {
    let source = "use crate::board::Board;\n// crate::notation in a comment\nfn f() { crate::square::x(); }\n#[cfg(test)]\nmod tests { use crate::play; }\n";
    assert_eq!(crate_paths(source), ["board", "square"]);
}
