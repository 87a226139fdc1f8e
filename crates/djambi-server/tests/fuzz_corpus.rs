//! Replays the committed fuzz corpora of the server's targets
//! (`fuzz/corpus/{client_frame,http_bodies}` at the repository root) through the very checks the
//! fuzz targets run (`djambi_server::fuzzing`), on the stable toolchain: every input a campaign
//! found interesting, and every past finding, stays checked by `cargo test`. The core's targets
//! replay in djambi-core's `tests/fuzz_corpus.rs`; docs/FUZZING.md runs the campaigns.

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
fn client_frame_corpus_replays() {
    replay("client_frame", djambi_server::fuzzing::client_frame);
}

#[test]
fn http_bodies_corpus_replays() {
    replay("http_bodies", djambi_server::fuzzing::http_bodies);
}
