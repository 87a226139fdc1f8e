//! The module graph of a crate's `src/`, read from its source text, for the layering tests
//! (`tests/module_layers.rs` here and in `crates/djambi-lab`, which includes this file by path;
//! `source.rs` reads the source text).
//!
//! A module is a file: `src/a.rs` and `src/a/mod.rs` are `a`, `src/a/b.rs` is `a::b`; `lib.rs`
//! is the crate root, which only declares and re-exports. Module `m` depends on module `n` when
//! its code, outside comments, strings and `#[cfg(test)]` items, names a path that resolves to
//! `n`: `crate::…`, `super::…`, `self::…`, or a path starting with one of `m`'s own submodules
//! (a `mod.rs` that uses its children, `use paranoid::INF`). A path resolves to the longest
//! prefix of it that is a module, so `crate::search::Searcher` is a dependency on `search`
//! (where `search/mod.rs` defines or re-exports it) and `crate::search::paranoid::INF` one on
//! `search::paranoid`. `mod` declarations are not dependencies.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

mod source;

pub use source::{code_of, paths};

/// The crate root's name in the graph.
pub const ROOT: &str = "crate";

/// One module: its file and the modules it depends on.
#[derive(Debug)]
pub struct Module {
    /// The file, relative to `src/`.
    pub file: PathBuf,
    /// Its code: comments and string contents blanked, `#[cfg(test)]` items removed.
    pub code: String,
    /// The modules it depends on (never itself).
    pub deps: BTreeSet<String>,
}

/// Every module of `src`, by name (`search::paranoid`; [`ROOT`] for `lib.rs`).
pub fn read(src: &Path) -> BTreeMap<String, Module> {
    let mut files = Vec::new();
    collect(src, src, &mut files);
    let mut modules: BTreeMap<String, Module> = files
        .into_iter()
        .map(|file| {
            let source = fs::read_to_string(src.join(&file)).unwrap();
            let name = module_name(&file);
            let code = code_of(&source);
            (
                name,
                Module {
                    file,
                    code,
                    deps: BTreeSet::new(),
                },
            )
        })
        .collect();
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let exports: Reexports = modules
        .iter()
        .map(|(name, m)| (name.clone(), reexports(name, &m.code, &names)))
        .collect();
    for (name, module) in modules.iter_mut() {
        module.deps = dependencies_through(name, &module.code, &names, &exports);
    }
    modules
}

/// What each module re-exports: a name it makes public with `pub use` (or `pub(crate) use`)
/// and the path it comes from, resolved (`table` re-exports `EventKind` from
/// `table::event::EventKind`).
pub type Reexports = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// The names `module` re-exports and where each comes from (absolute paths, `crate` left out).
fn reexports(module: &str, code: &str, names: &BTreeSet<String>) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut rest = code;
    while let Some(at) = rest.find("pub") {
        let after = &rest[at + 3..];
        let before_ok = rest[..at]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = after.trim_start();
        let after = if after.starts_with('(') {
            after
                .find(')')
                .map_or(after, |k| after[k + 1..].trim_start())
        } else {
            after
        };
        if before_ok && after.starts_with("use ") {
            let end = after.find(';').unwrap_or(after.len());
            for path in paths(&after[4..end]) {
                if let Some(abs) = absolute(module, &path, names) {
                    let name = path.last().unwrap().clone();
                    if name != "self" && name != "*" {
                        out.insert(name, abs);
                    }
                }
            }
        }
        rest = &rest[at + 3..];
    }
    out
}

/// `path` as written in `module`, made absolute (`crate` left out), or `None` when it does not
/// start in this crate (`std::…`, a dependency).
fn absolute(module: &str, path: &[String], names: &BTreeSet<String>) -> Option<Vec<String>> {
    let here: Vec<String> = if module == ROOT {
        Vec::new()
    } else {
        module.split("::").map(String::from).collect()
    };
    let mut rest = path;
    let mut abs: Vec<String>;
    match rest[0].as_str() {
        "crate" => {
            abs = Vec::new();
            rest = &rest[1..];
        }
        "self" => {
            abs = here.clone();
            rest = &rest[1..];
        }
        "super" => {
            abs = here.clone();
            while rest.first().is_some_and(|s| s == "super") {
                abs.pop();
                rest = &rest[1..];
            }
        }
        first => {
            let mut child = here.clone();
            child.push(first.to_string());
            if !names.contains(&child.join("::")) {
                return None;
            }
            abs = here;
        }
    }
    abs.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(abs)
}

fn collect(src: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(src).unwrap().to_path_buf());
        }
    }
}

/// `a/b.rs` → `a::b`, `a/mod.rs` → `a`, `lib.rs` → [`ROOT`].
pub fn module_name(file: &Path) -> String {
    let mut parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && !(parts.is_empty() && (stem == "lib" || stem == "main")) {
        parts.push(stem.to_string());
    }
    if parts.is_empty() {
        ROOT.to_string()
    } else {
        parts.join("::")
    }
}

/// The modules `module` depends on, from its code; `names` are the crate's modules. A path
/// resolves to the longest prefix of it that is a module.
pub fn dependencies(module: &str, code: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    dependencies_through(module, code, names, &Reexports::new())
}

/// [`dependencies`], where a path through a module's re-export (`crate::table::EventKind`,
/// which `table/mod.rs` re-exports from `table::event`) is a dependency on the module that
/// defines the name, not on the one that re-exports it.
pub fn dependencies_through(
    module: &str,
    code: &str,
    names: &BTreeSet<String>,
    exports: &Reexports,
) -> BTreeSet<String> {
    let is_module = |segs: &[String]| segs.is_empty() || names.contains(&segs.join("::"));
    let mut deps = BTreeSet::new();
    for path in paths(code) {
        let Some(mut abs) = absolute(module, &path, names) else {
            continue;
        };
        // Through re-exports (a few hops at most), then the longest prefix that is a module.
        for _ in 0..8 {
            let mut prefix = abs.clone();
            while !is_module(&prefix) {
                prefix.pop();
            }
            let key = if prefix.is_empty() {
                ROOT.to_string()
            } else {
                prefix.join("::")
            };
            let via = abs
                .get(prefix.len())
                .and_then(|name| exports.get(&key).and_then(|e| e.get(name)));
            match via {
                Some(origin) if key != module => {
                    let mut next = origin.clone();
                    next.extend(abs[prefix.len() + 1..].iter().cloned());
                    abs = next;
                }
                _ => {
                    abs = prefix;
                    break;
                }
            }
        }
        while !is_module(&abs) {
            abs.pop();
        }
        let dep = if abs.is_empty() {
            ROOT.to_string()
        } else {
            abs.join("::")
        };
        if dep != module {
            deps.insert(dep);
        }
    }
    deps
}

/// A cycle among the modules, if there is one: its modules in order, the first repeated at the
/// end (`a -> b -> a`).
pub fn cycle(modules: &BTreeMap<String, Module>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        at: &str,
        modules: &BTreeMap<String, Module>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(at.to_string(), Mark::Open);
        stack.push(at.to_string());
        for dep in modules.get(at).map(|m| &m.deps).into_iter().flatten() {
            match marks.get(dep.as_str()).copied().unwrap_or(Mark::Done) {
                Mark::Open => {
                    let from = stack.iter().position(|m| m == dep).unwrap();
                    let mut found = stack[from..].to_vec();
                    found.push(dep.clone());
                    return Some(found);
                }
                Mark::New => {
                    if let Some(found) = visit(dep, modules, marks, stack) {
                        return Some(found);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(at.to_string(), Mark::Done);
        None
    }
    let mut marks: BTreeMap<String, Mark> =
        modules.keys().map(|k| (k.clone(), Mark::New)).collect();
    for name in modules.keys() {
        if marks[name] == Mark::New
            && let Some(found) = visit(name, modules, &mut marks, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

/// The graph without the edges from a module to one of its ancestors (`store::sql` naming
/// `store`, a child naming the crate root): a folder's `mod.rs` is its part's front, whose
/// children may use what it defines. What is left are the edges between parts and between
/// sibling files, where a cycle means two files that should be one, or a shared piece that
/// belongs in a module of its own.
pub fn without_upward(modules: &BTreeMap<String, Module>) -> BTreeMap<String, Module> {
    let ancestor = |module: &str, dep: &str| dep == ROOT || module.starts_with(&format!("{dep}::"));
    modules
        .iter()
        .map(|(name, m)| {
            let deps = m
                .deps
                .iter()
                .filter(|d| !ancestor(name, d))
                .cloned()
                .collect();
            (
                name.clone(),
                Module {
                    file: m.file.clone(),
                    code: m.code.clone(),
                    deps,
                },
            )
        })
        .collect()
}

/// The edges of the graph that name the crate root (`crate::Engine` rather than
/// `crate::engine::Engine`): a module must name the module that defines what it uses.
pub fn through_root(modules: &BTreeMap<String, Module>) -> Vec<String> {
    modules
        .iter()
        .filter(|(name, m)| name.as_str() != ROOT && m.deps.contains(ROOT))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The field names of `struct name { … }` in `code`, if the struct is there.
pub fn struct_fields(code: &str, name: &str) -> Option<Vec<String>> {
    let at = code.find(&format!("struct {name} "))?;
    let body_start = at + code[at..].find('{')? + 1;
    let mut depth = 1usize;
    let mut end = body_start;
    for (k, c) in code[body_start..].char_indices() {
        match c {
            '{' | '(' | '<' | '[' => depth += 1,
            '}' | ')' | '>' | ']' => {
                depth -= 1;
                if depth == 0 {
                    end = body_start + k;
                    break;
                }
            }
            ',' if depth == 1 => {}
            _ => {}
        }
    }
    let body = &code[body_start..end];
    // Fields are `name: Type` at the struct's own level, separated by commas.
    let mut fields = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in body.chars() {
        match c {
            '{' | '(' | '<' | '[' => depth += 1,
            '}' | ')' | '>' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                fields.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    fields.push(current);
    Some(
        fields
            .iter()
            .filter_map(|f| {
                let (head, _) = f.split_once(':')?;
                let name = head.split_whitespace().last()?;
                Some(name.to_string())
            })
            .filter(|n| !n.is_empty())
            .collect(),
    )
}

/// Checks of the parser itself, run by each layering test.
pub fn self_check() {
    let names: BTreeSet<String> = ["a", "a::b", "a::c", "d"]
        .into_iter()
        .map(String::from)
        .collect();
    let code = code_of(
        "use crate::d::X;\n// crate::a::c in a comment\nuse self::c::{Y, self};\nuse b::Z;\n\
         fn f() { let s = \"crate::a::c\"; crate::d::g(); std::b::h(); }\n\
         #[cfg(test)]\nmod tests { use crate::a::c; }\n",
    );
    let deps = dependencies("a", &code, &names);
    assert_eq!(
        deps.iter().map(String::as_str).collect::<Vec<_>>(),
        ["a::b", "a::c", "d"],
        "{code}"
    );
    let deps = dependencies("a::b", &code_of("use super::{c::Y, Z};"), &names);
    assert_eq!(
        deps.iter().map(String::as_str).collect::<Vec<_>>(),
        ["a", "a::c"]
    );
    // A path through a re-export is a dependency on the module that defines the name.
    let exports: Reexports = [(
        "a".to_string(),
        reexports(
            "a",
            &code_of("pub use b::X;\npub(crate) use c::{Y as Z};"),
            &names,
        ),
    )]
    .into_iter()
    .collect();
    let deps = dependencies_through(
        "a::c",
        &code_of("use crate::a::X; fn f() {}"),
        &names,
        &exports,
    );
    assert_eq!(
        deps.iter().map(String::as_str).collect::<Vec<_>>(),
        ["a::b"]
    );
    let deps = dependencies_through("a::b", &code_of("use super::W;"), &names, &exports);
    assert_eq!(deps.iter().map(String::as_str).collect::<Vec<_>>(), ["a"]);
    let code =
        code_of("pub struct S {\n    a: u8,\n    pub(crate) b: Vec<(u8, u8)>,\n    c: [u8; 4],\n}");
    assert_eq!(struct_fields(&code, "S").unwrap(), ["a", "b", "c"]);
    assert_eq!(
        code_of("let c = '{'; let l: &'a str;"),
        "let c = ' '; let l: &'a str;"
    );
}
