//! The `djambi` command's output and exit codes (NOTATION §5), run as a real process.

use std::process::{Command, Output};

const START: &str = djambi_core::START_DPN;

fn djambi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_djambi"))
        .args(args)
        .output()
        .expect("djambi runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn legal_lists_sorted_canonical_turns() {
    let o = djambi(&["legal"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 30);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert_eq!(lines[0], "a7-a5");
    assert!(
        lines.contains(&"c7-f4"),
        "the Necromobile passes the empty maze"
    );
    assert!(
        !lines.contains(&"c7-e5"),
        "nobody but a chief ends on the maze"
    );
}

#[test]
fn legal_pass_alone_and_nothing_when_over() {
    // Red's chief and militants are boxed in by corpses and by each other: pass alone.
    let boxed = "CrMrX6/MrMrX6/XXX6/9/9/9/9/9/8Cb r rb-- - 0 - 0 5";
    let o = djambi(&["legal", "--position", boxed]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "pass\n");
    let o = djambi(&["play", "pass", "--position", boxed]);
    assert_eq!(
        stdout(&o),
        "CrMrX6/MrMrX6/XXX6/9/9/9/9/9/8Cb b rb-- r 0 r 1 6\n"
    );
    let over = "Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9";
    let o = djambi(&["legal", "--position", over]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn play_prints_the_dpn_after_the_tokens() {
    let o = djambi(&["play", "b7-b5", "G7-G5", "--rules=turn_limit=10"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "CrArMr3MbRbCb/RrDrMr3MbDbAb/Mr1Nr4MbMb/9/1Mr4Nb2/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy y rbyg b 0 - 2 3\n"
    );
    let o = djambi(&["play"]);
    assert_eq!(stdout(&o), format!("{START}\n"));
}

#[test]
fn play_resign_and_draw_tokens() {
    let o = djambi(&["play", "RESIGN:b", "resign:y", "resign:g"]);
    assert_eq!(o.status.code(), Some(0));
    let dpn = stdout(&o);
    assert!(dpn.trim_end().ends_with(" - r--- - 0 - 0 1"), "{dpn}");
    let o = djambi(&["status", "--position", dpn.trim_end()]);
    assert_eq!(stdout(&o), "winner r\n");
    let o = djambi(&["play", "b7-b5", "Draw"]);
    let dpn = stdout(&o);
    assert!(dpn.contains(" - rbyg r 0 - 1 2"), "{dpn}");
    let o = djambi(&["status", "--position", dpn.trim_end()]);
    assert_eq!(stdout(&o), "draw rbyg\n");
}

#[test]
fn play_stops_at_the_first_illegal_token() {
    for (tokens, n, text) in [
        (&["b7-b5", "e5-e4"][..], 2, "e5-e4"),
        (&["c7-e5"][..], 1, "c7-e5"),
        (&["b7-b5", "nonsense", "x"][..], 2, "nonsense"),
        (&["pass"][..], 1, "pass"),
        (&["resign:r", "resign:r"][..], 2, "resign:r"),
        (&["resign:x"][..], 1, "resign:x"),
        (&["draw", "b7-b5"][..], 2, "b7-b5"),
        (&[" b7-b5"][..], 1, " b7-b5"),
    ] {
        let o = djambi(&[&["play"][..], tokens].concat());
        assert_eq!(o.status.code(), Some(1), "{tokens:?}");
        assert_eq!(stdout(&o), "", "{tokens:?}");
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("illegal turn {n} ({text}): ")),
            "{tokens:?}: {err}"
        );
    }
    let o = djambi(&["play", "c7-e5"]);
    assert_eq!(
        stderr(&o),
        "illegal turn 1 (c7-e5): e5: only a chief may end a move on the maze (R3.5)\n"
    );
}

#[test]
fn perft_counts() {
    for (d, n) in [("0", "1"), ("1", "30"), ("2", "1205"), ("3", "49206")] {
        let o = djambi(&["perft", d]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), format!("{n}\n"));
    }
    let o = djambi(&["perft", "2", "--position", &START.replace("rbyg", "rbyh")]);
    assert_eq!(stdout(&o), "1205\n");
    let over = "Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9";
    assert_eq!(stdout(&djambi(&["perft", "1", "--position", over])), "0\n");
    assert_eq!(stdout(&djambi(&["perft", "0", "--position", over])), "1\n");
}

#[test]
fn status_reports() {
    assert_eq!(stdout(&djambi(&["status"])), "ongoing\n");
    let draw = "Cr8/9/9/9/9/9/9/9/8Cy - r-y- r 0 - 0 9";
    assert_eq!(
        stdout(&djambi(&["status", "--position", draw])),
        "draw ry\n"
    );
}

#[test]
fn show_draws_the_board() {
    let o = djambi(&["show"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.contains("Cr") && text.contains("to move: Red"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["--position", START],
        &["legal", "--nope"],
        &["legal", "--nope=1"],
        &["legal", "--position"],
        &["legal", "--rules"],
        &["legal", "--rules", "own_kills,bogus"],
        &["legal", "--rules=turn_limit=0"],
        &["legal", "--position", "garbage"],
        &["legal", "--position", START, "--position", "bad"],
        &["legal", "--position", "bad", "--position", START],
        &["legal", "extra"],
        &["status", "extra"],
        &["show", "extra"],
        &["perft"],
        &["perft", "-1"],
        &["perft", "01"],
        &["perft", "x"],
        &["perft", "1", "2"],
        &["play", "b7-b5", "--position", "9/9 r rbyg - 0 - 0 1"],
        &["play", "b7-b5", "--bogus"],
    ] {
        let o = djambi(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn bad_positions_name_their_field() {
    let o = djambi(&["status", "--position", &START.replace(" r rbyg", " x rbyg")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("to-move:"), "{}", stderr(&o));
}
