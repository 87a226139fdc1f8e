//! The docs name only what exists: every path in `README.md`, `BENCHMARKS.md` and `docs/` (in
//! backticks, in links, and in the commands and maps of their code blocks) is a file or folder
//! of the repository, and docs/SERVER.md's map of the server names every folder and file at the
//! top of `src/`. A renamed or deleted file fails here before a reader follows a dead path.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The docs to check: the README, the benchmarks and every Markdown file under `docs/`.
fn docs() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("BENCHMARKS.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What a path of the docs is looked up against, after the doc's own folder: the root, and the
/// folders the docs name paths from (a crate's `src/`, the client's `web/js/`, …).
fn bases() -> Vec<PathBuf> {
    let r = root();
    let mut out = vec![r.clone(), r.join("docs"), r.join("web"), r.join("web/js")];
    for entry in fs::read_dir(r.join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        out.push(krate.join("src"));
        out.push(krate.clone());
    }
    out.push(r.join("tests/browser"));
    out.push(r.join("migrations"));
    out
}

/// File endings that make a word a path even without a folder in it.
const ENDINGS: &[&str] = &[
    ".rs",
    ".js",
    ".mjs",
    ".md",
    ".sql",
    ".sh",
    ".json",
    ".css",
    ".html",
    ".toml",
    ".yml",
    ".py",
    ".webmanifest",
    ".svg",
];

/// Folders a path may start with inside a code block (commands name build outputs under
/// `target/` and files of the machine, which are not checked).
const ROOTS: &[&str] = &[
    "crates/",
    "docs/",
    "web/",
    "tests/",
    "migrations/",
    "scripts/",
    "data/",
    "src/",
    "deploy/",
    "bench/",
    "fuzz/",
];

/// Folders the docs name that runs make (git-ignored): not in a checkout.
const MADE_BY_RUNS: &[&str] = &["fuzz/work", "artifacts/", "node_modules"];

/// `word` as a path to check, if it is one: only path characters, a known ending or a folder in
/// it, no placeholder; an anchor or a `:line` is left out.
fn as_path(word: &str, in_code: bool) -> Option<String> {
    let word = word.trim_matches(|c: char| "\"'(),;`".contains(c));
    let word = word.split('#').next().unwrap_or("");
    let word = match word.rsplit_once(':') {
        Some((path, line)) if line.chars().all(|c| c.is_ascii_digit()) => path,
        _ => word,
    };
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c));
    if word.is_empty() || !plain || word.starts_with('/') || word.starts_with('-') {
        return None;
    }
    let ends = ENDINGS.iter().any(|e| word.ends_with(e)) || word.ends_with('/');
    let named = if in_code {
        ROOTS.iter().any(|r| word.starts_with(r)) && (ends || word.contains('/'))
    } else {
        ends && (word.contains('/') || ENDINGS.iter().any(|e| word.ends_with(e)))
    };
    let made = MADE_BY_RUNS.iter().any(|m| word.starts_with(m));
    (named && !made && !word.starts_with("target/") && !word.contains("..."))
        .then(|| word.trim_end_matches('/').to_string())
}

/// The paths a doc names: backticked words, link targets, and rooted paths in code blocks.
fn paths_of(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            out.extend(line.split_whitespace().filter_map(|w| as_path(w, true)));
            continue;
        }
        for (i, quoted) in line.split('`').enumerate() {
            if i % 2 == 1 && !quoted.contains(' ') {
                out.extend(as_path(quoted, false));
            }
        }
        for (i, _) in line.match_indices("](") {
            let target = &line[i + 2..];
            let target = target.split(')').next().unwrap_or("");
            if !target.contains("://") && !target.starts_with("mailto:") {
                out.extend(as_path(target, false));
            }
        }
    }
    out
}

/// Whether a path named in `doc` exists: beside the doc, or under one of the bases (a file name
/// alone: anywhere in the repository's tracked folders).
fn exists(doc: &Path, path: &str, bases: &[PathBuf], names: &BTreeSet<String>) -> bool {
    let here = doc.parent().unwrap();
    if here.join(path).exists() || bases.iter().any(|b| b.join(path).exists()) {
        return true;
    }
    !path.contains('/') && names.contains(path)
}

/// Every file name under the repository's source folders (for docs that name a file alone).
fn file_names() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut dirs: Vec<PathBuf> = [
        "crates",
        "web",
        "docs",
        "tests",
        "scripts",
        "migrations",
        "fuzz",
    ]
    .iter()
    .map(|d| root().join(d))
    .collect();
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "node_modules" || name == "target" {
                continue;
            }
            if path.is_dir() {
                dirs.push(path);
            }
            out.insert(name);
        }
    }
    out
}

#[test]
fn every_path_the_docs_name_exists() {
    let bases = bases();
    let names = file_names();
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in docs() {
        let text = fs::read_to_string(&doc).unwrap();
        for path in paths_of(&text) {
            checked += 1;
            if !exists(&doc, &path, &bases, &names) {
                let shown = doc
                    .strip_prefix(root())
                    .unwrap_or(&doc)
                    .display()
                    .to_string();
                missing.push(format!("{shown}: {path}"));
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} paths found: is the reader broken?"
    );
    assert!(
        missing.is_empty(),
        "paths named in the docs that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_server_map_names_every_part_of_src() {
    let text = fs::read_to_string(root().join("docs/SERVER.md")).unwrap();
    let map = text
        .split("### The files")
        .nth(1)
        .expect("docs/SERVER.md has a map of the files");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut unnamed = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let shown = if path.is_dir() {
            format!("src/{name}/")
        } else {
            format!("src/{name}")
        };
        if !map.contains(&format!("{shown} ")) {
            unnamed.push(shown);
        }
    }
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "docs/SERVER.md's map leaves out {unnamed:?}"
    );
}

#[test]
fn the_reader_sees_the_paths_it_should() {
    let text = "See `src/table/event.rs` and [the rules](RULES.md#r9), not `cargo test`.\n\
                ```\ncargo run -p x -- crates/a/b.rs target/release/x --flag\n```\n\
                `GET /api/games/{id}` `web/js/{page}.js` `docs/lab/`";
    let found: Vec<String> = paths_of(text).into_iter().collect();
    assert_eq!(
        found,
        [
            "RULES.md",
            "crates/a/b.rs",
            "docs/lab",
            "src/table/event.rs"
        ]
    );
}

/// Every variable the server reads (`env = "…"` in `src/config/`) is in `.env.example`, the
/// self-hoster's list (scripts/compose-check.sh checks the same, and the defaults, late in CI).
#[test]
fn the_env_example_names_every_variable_the_server_reads() {
    let config = root().join("crates/djambi-server/src/config");
    let mut read = BTreeSet::new();
    for entry in fs::read_dir(&config).unwrap() {
        let text = fs::read_to_string(entry.unwrap().path()).unwrap();
        for part in text.split("env = \"").skip(1) {
            read.insert(part.split('"').next().unwrap().to_string());
        }
    }
    let example = fs::read_to_string(root().join(".env.example")).unwrap();
    let documented: BTreeSet<&str> = example
        .lines()
        .filter_map(|line| line.trim_start_matches('#').split_once('='))
        .map(|(name, _)| name.trim())
        .collect();
    let missing: Vec<&String> = read
        .iter()
        .filter(|v| !documented.contains(v.as_str()))
        .collect();
    assert!(
        read.len() > 10,
        "read {} variables from src/config/",
        read.len()
    );
    assert!(missing.is_empty(), ".env.example leaves out {missing:?}");
}
