//! `djambi puzzles`, run as a real process: the puzzle file it writes (to a file or stdout),
//! every puzzle a puzzle of the rules, the same file for the same seed, and exit 2 on a bad
//! option.

use std::path::PathBuf;
use std::process::{Command, Output};

use djambi_engine::puzzle::{PUZZLE_FILE_VERSION, PuzzleFile};

fn djambi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_djambi"))
        .args(args)
        .output()
        .expect("djambi runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A small, quick run: two puzzles verified two plies deep on a small budget.
const SMALL: [&str; 9] = [
    "puzzles", "--count", "2", "--seed", "11", "--depth", "2", "--nodes", "100000",
];

#[test]
fn writes_the_puzzle_file_to_a_file_or_stdout() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("puzzles-cli.json");
    let path = path.to_str().unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["--out", path]);
    let o = djambi(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(err.contains("djambi: game 1: "), "{err}");
    assert!(err.contains("2/2 kept"), "{err}");
    let text = std::fs::read_to_string(path).unwrap();
    let file: PuzzleFile = serde_json::from_str(&text).unwrap();
    assert_eq!(file.version, PUZZLE_FILE_VERSION);
    assert_eq!(
        file.command,
        format!("djambi puzzles --count 2 --seed 11 --depth 2 --nodes 100000 --out {path}")
    );
    let puzzles = file.check().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(puzzles.len(), 2);
    for (r, p) in file.puzzles.iter().zip(&puzzles) {
        assert_eq!(r.depth, 2);
        // The answer is among the turns `djambi legal` lists for the position.
        let legal = djambi(&["legal", "--position", &r.position]);
        let turns = String::from_utf8(legal.stdout).unwrap();
        assert!(turns.lines().any(|t| t == r.solution), "{}", r.solution);
        assert_eq!(p.position.to_dpn(), r.position);
    }
    // The same seed on stdout: the same puzzles (only the command differs).
    let o = djambi(&SMALL);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let again: PuzzleFile = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        again.command,
        "djambi puzzles --count 2 --seed 11 --depth 2 --nodes 100000"
    );
    assert_eq!(again.puzzles, file.puzzles);
}

#[test]
fn bad_options_exit_2() {
    for bad in [
        &["puzzles", "--count", "0"][..],
        &["puzzles", "--count=1000"],
        &["puzzles", "--count", "x"],
        &["puzzles", "--depth", "0"],
        &["puzzles", "--depth=7"],
        &["puzzles", "--seed", "-1"],
        &["puzzles", "--nodes", "0"],
        &["puzzles", "--out"],
        &[
            "puzzles",
            "--position",
            "Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1",
        ],
        &["puzzles", "--rules", "own_kills"],
        &["puzzles", "--level", "hard"],
        &["puzzles", "--json"],
        &["puzzles", "extra"],
    ] {
        let o = djambi(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{bad:?}");
        assert!(stderr(&o).starts_with("djambi: "), "{bad:?}");
    }
}

#[test]
fn help_and_usage_name_it() {
    let o = djambi(&["--help"]);
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(help.contains("  puzzles "), "{help}");
    assert!(help.contains("--out FILE"), "{help}");
    let o = djambi(&["puzzles", "--count"]);
    assert!(
        stderr(&o).contains("djambi puzzles [--count N]"),
        "{}",
        stderr(&o)
    );
}
