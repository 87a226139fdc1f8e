//! Replays the committed fuzz corpora of the core's targets (`fuzz/corpus/{dpn,record,turn_text}`
//! at the repository root) through the very checks the fuzz targets run
//! (`djambi_core::fuzzing`), on the stable toolchain: every input a campaign found interesting,
//! and every past finding, stays checked by `cargo test`. The server's targets replay in
//! djambi-server's `tests/fuzz_corpus.rs`; docs/FUZZING.md runs the campaigns.

use std::path::PathBuf;

/// Runs `check` on every file of `fuzz/corpus/<target>/` (which must hold some), naming the
/// file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&bytes));
        assert!(outcome.is_ok(), "{}", path.display());
    }
}

#[test]
fn dpn_corpus_replays() {
    replay("dpn", djambi_core::fuzzing::dpn);
}

#[test]
fn record_corpus_replays() {
    replay("record", djambi_core::fuzzing::record);
}

#[test]
fn turn_text_corpus_replays() {
    replay("turn_text", djambi_core::fuzzing::turn_text);
}
