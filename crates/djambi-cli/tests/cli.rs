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

/// A record as the server exports it, metadata and all (NOTATION §4).
const EXPORTED_RECORD: &str = r#"{
  "format": "djambi-game/1",
  "rules": {"own_kills": false, "diplomat_to_maze": true, "turn_limit": 40},
  "start": "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1",
  "events": [
    {"turn": 1, "player": "r", "move": "b7-b5"},
    {"turn": 2, "player": "b", "move": "g7-g5"},
    {"resign": "y"},
    {"draw": "agreed"}
  ],
  "result": {"draw": ["r", "b", "g"]},
  "ranking": [["r", "b", "g"], ["y"]],
  "meta": {
    "site": "Djambi Online",
    "players": {"r": {"name": "Ann"}, "b": {"bot": "medium"}, "y": {"name": "Cid"}, "g": {"name": "Dee"}},
    "created": "2026-11-21T10:00:00Z", "started": "2026-11-21T10:01:00Z",
    "finished": "2026-11-21T10:05:00.250Z",
    "clock": {"initial_s": 300, "increment_s": 3},
    "result_text": "Draw agreed between Red, Blue and Green"
  }
}"#;

#[test]
fn play_replays_the_events_of_an_exported_record() {
    let record: djambi_core::GameRecord = serde_json::from_str(EXPORTED_RECORD).unwrap();
    assert!(record.meta.is_some(), "the metadata reads");
    assert_eq!(record.start, START);
    let mut args = vec!["play".to_string()];
    for event in &record.events {
        args.push(match event {
            djambi_core::EventRecord::Turn { text, .. } => text.clone(),
            djambi_core::EventRecord::Resign { resign } => format!("resign:{}", resign.char()),
            djambi_core::EventRecord::Draw { .. } => "draw".to_string(),
        });
    }
    args.push(format!("--rules={}", record.rules));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = djambi(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dpn = stdout(&o);
    // The command ends where the core's replay of the record ends.
    let game = djambi_core::Game::from_record(&record).unwrap();
    assert_eq!(dpn.trim_end(), game.position().to_dpn());
    let o = djambi(&[
        "status",
        "--position",
        dpn.trim_end(),
        "--rules=turn_limit=40",
    ]);
    assert_eq!(stdout(&o), "draw rbg\n");
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

/// Red rules from the maze; Blue's Diplomat can take the chief off it: 1041 legal turns.
const MAZE: &str = "1ArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr4NbMb/9/4Cr4/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2";

/// The bot tests run one at a time: each `djambi bot` uses a core for its whole move time, and
/// the timing test must not share the machine with the others.
static BOT: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_bot_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    BOT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `djambi bot` and checks it printed one line that `djambi legal` lists.
fn bot_turn(args: &[&str]) -> String {
    let o = djambi(&[&["bot"][..], args].concat());
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out:?}");
    assert!(out.ends_with('\n'));
    // The same position and rules for `legal`.
    let mut legal_args = vec!["legal"];
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--position") || args[i].starts_with("--rules") {
            legal_args.push(args[i]);
            if !args[i].contains('=') {
                legal_args.push(args[i + 1]);
                i += 1;
            }
        }
        i += 1;
    }
    let legal = stdout(&djambi(&legal_args));
    assert!(
        legal.lines().any(|l| l == lines[0]),
        "{} is not legal ({args:?})",
        lines[0]
    );
    lines[0].to_string()
}

#[test]
fn bot_prints_one_legal_turn_at_every_level() {
    let _one = one_bot_at_a_time();
    for level in ["random", "beginner", "easy", "medium", "hard"] {
        bot_turn(&["--level", level, "--movetime", "100"]);
        bot_turn(&[
            &format!("--level={level}"),
            "--position",
            MAZE,
            "--movetime=100",
        ]);
        bot_turn(&[
            "--level",
            level,
            "--rules",
            "own_kills,diplomat_to_maze=false,turn_limit=5",
            "--position",
            &START.replace("rbyg", "rbyh"),
            "--movetime",
            "50",
        ]);
    }
    // Default level and move time.
    bot_turn(&[]);
}

#[test]
fn bot_takes_the_win() {
    let _one = one_bot_at_a_time();
    let win = "Cb8/9/9/9/9/9/2Ab6/9/Ar7Cr r rb-- - 0 - 0 3";
    for level in ["medium", "hard"] {
        let t = bot_turn(&["--position", win, "--level", level, "--movetime", "50"]);
        let after = stdout(&djambi(&["play", &t, "--position", win]));
        let status = stdout(&djambi(&["status", "--position", after.trim_end()]));
        assert_eq!(status, "winner r\n", "{level} played {t}");
    }
}

#[test]
fn beginner_bot_kills_a_chief_in_its_line() {
    let _one = one_bot_at_a_time();
    // Red's Assassin on a6 sees blue's chief on i6 down an empty rank; four players alive.
    let hangs = "Cr1Mr3MbRb1/RrDrMr3MbDbAb/MrMrNr3NbMbMb/Ar7Cb/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";
    let mut kills = 0;
    for seed in 0..10 {
        let t = bot_turn(&[
            "--position",
            hangs,
            "--level",
            "beginner",
            "--seed",
            &seed.to_string(),
        ]);
        let after = stdout(&djambi(&["play", &t, "--position", hangs]));
        // Blue's army passes to red (R9.1): control `rryg`.
        kills += usize::from(after.split(' ').nth(2) == Some("rryg"));
    }
    assert!(
        kills >= 9,
        "beginner killed the chief for {kills} of 10 seeds"
    );
}

#[test]
fn bot_answers_within_its_move_time() {
    let _one = one_bot_at_a_time();
    for (pos, ms) in [
        (START, 1000u64),
        (MAZE, 1000),
        (MAZE, 300),
        (MAZE, 50),
        (MAZE, 10),
        (MAZE, 1),
    ] {
        let start = std::time::Instant::now();
        bot_turn(&["--position", pos, "--movetime", &ms.to_string()]);
        let spent = start.elapsed();
        // The whole process, start-up included. Move times under 100 ms are held to 100 ms:
        // starting a process alone can take tens of ms on a loaded machine.
        let limit = std::time::Duration::from_millis(ms.max(100));
        assert!(spent < limit, "--movetime {ms}: {spent:?}");
    }
}

#[test]
fn bot_is_repeatable_with_a_seed_and_a_node_budget() {
    let _one = one_bot_at_a_time();
    for level in ["random", "beginner", "easy", "medium", "hard"] {
        let args = [
            "--position",
            MAZE,
            "--level",
            level,
            "--seed",
            "42",
            "--nodes",
            "3000",
        ];
        let first = bot_turn(&args);
        for _ in 0..2 {
            assert_eq!(bot_turn(&args), first, "{level}");
        }
    }
}

#[test]
fn bot_exit_codes() {
    let _one = one_bot_at_a_time();
    // Game over: 1, nothing on stdout.
    for over in [
        "Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9",
        "Cr8/9/9/9/9/9/9/9/8Cy - r-y- r 0 - 0 9",
    ] {
        let o = djambi(&["bot", "--position", over]);
        assert_eq!(o.status.code(), Some(1), "{over}");
        assert_eq!(stdout(&o), "");
    }
    // Bad input: 2, nothing on stdout.
    for args in [
        &["bot", "--level", "expert"][..],
        &["bot", "--level=HARD"],
        &["bot", "--level"],
        &["bot", "--movetime", "-5"],
        &["bot", "--movetime", "1.5"],
        &["bot", "--movetime", "007"],
        &["bot", "--movetime=1000", "--movetime=x"],
        &["bot", "--level=bad", "--level=hard"],
        &["bot", "--seed", "abc"],
        &["bot", "--seed", "123456789012345678901"],
        &["bot", "--depth", "3"],
        &["bot", "--position", "garbage"],
        &["bot", "--rules", "bogus"],
        &["bot", "extra"],
        &["legal", "--level", "hard"],
        &["legal", "--movetime=10"],
    ] {
        let o = djambi(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
    // Repeated options: every one valid, the last counts.
    bot_turn(&[
        "--level",
        "hard",
        "--level=random",
        "--seed",
        "1",
        "--seed=2",
        "--movetime",
        "20",
    ]);
}

#[test]
fn usage_mentions_bot() {
    let o = djambi(&["nope"]);
    assert!(
        stderr(&o).contains("djambi bot [--position DPN]"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn no_arguments_print_the_whole_help_and_exit_2() {
    let o = djambi(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let help = stderr(&o);
    assert!(help.contains("subcommands:"), "{help}");
    for sub in [
        "legal",
        "play TOKEN",
        "perft DEPTH",
        "status",
        "show",
        "bot",
        "--level",
    ] {
        assert!(help.contains(&format!("  {sub}")), "{sub}: {help}");
    }
    assert!(!help.contains("missing subcommand"), "{help}");
}
