//! Golden JSON files: a message's serialisation must equal its file under `tests/golden/`. Run
//! with `DJAMBI_BLESS=1` to rewrite the files after a deliberate change, then review the diff
//! and update docs/PROTOCOL.md.

use std::path::PathBuf;

use serde_json::Value;

/// The folder of the golden files.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `value` with `tests/golden/{name}.json` (or writes it when blessing); a difference
/// is added to `failures`.
pub fn check(name: &str, value: Value, failures: &mut Vec<String>) {
    let path = golden_dir().join(format!("{name}.json"));
    if std::env::var("DJAMBI_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        failures.push(format!("{name}: missing {}", path.display()));
        return;
    };
    let golden: Value = serde_json::from_str(&text).unwrap();
    if golden != value {
        failures.push(format!(
            "{name}: serialisation differs from its golden file\n  golden: {golden}\n  actual: {value}"
        ));
    }
}
