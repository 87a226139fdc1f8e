//! `djambi analyse --record FILE [--movetime MS] [--json]`, run as a real process on record
//! files: one line per turn event and the closing accuracy line, the JSON fields and their
//! types, exit 2 on a bad record or option.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Five turns, a resignation and an agreed draw (turn texts in any case, as records may have
/// them): five lines, numbered 1 to 5.
const RECORD: &str = r#"{
  "format": "djambi-game/1",
  "rules": {"own_kills": false, "diplomat_to_maze": true, "turn_limit": null},
  "start": "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1",
  "events": [
    {"turn": 1, "player": "r", "move": "B7-B5"},
    {"turn": 2, "player": "b", "move": "h7-h6"},
    {"turn": 3, "player": "y", "move": "g1-f1"},
    {"turn": 4, "player": "g", "move": "b3-b5@d4"},
    {"resign": "b"},
    {"turn": 5, "player": "r", "move": "c7-d8"},
    {"draw": "agreed"}
  ],
  "meta": {"site": "Djambi Online"}
}"#;

/// The played turns as the analysis prints them (canonical).
const PLAYED: [&str; 5] = ["b7-b5", "h7-h6", "g1-f1", "b3-b5@d4", "c7-d8"];

const LABELS: [&str; 5] = ["best", "good", "inaccuracy", "mistake", "blunder"];

/// Writes `text` to a file of this test's own and returns its path.
fn record_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("analyse-{name}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

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
fn json_one_object_per_turn_with_every_field() {
    let path = record_file("json", RECORD);
    let o = djambi(&[
        "analyse",
        "--record",
        path.to_str().unwrap(),
        "--json",
        "--nodes=400",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), PLAYED.len() + 1, "{text}");
    let closing: Value = serde_json::from_str(lines[PLAYED.len()]).unwrap();
    for p in ["r", "b", "y", "g"] {
        let a = closing["accuracy"][p].as_f64().unwrap_or(-1.0);
        assert!((0.0..=100.0).contains(&a), "{p}: {closing}");
    }
    let mut sum_before = None;
    for (i, line) in lines[..PLAYED.len()].iter().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        // Every player's chance after the turn, adding up to 1, the mover's being `after`.
        let chances = v["chances"].as_object().unwrap();
        assert_eq!(chances.len(), 4, "{line}");
        let sum: f64 = chances.values().map(|c| c.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 0.001, "{line}");
        assert_eq!(
            v["chances"][v["player"].as_str().unwrap()],
            v["after"],
            "{line}"
        );
        assert!(
            v["kept"].as_f64().unwrap() >= v["after"].as_f64().unwrap(),
            "{line}"
        );
        // One truth per position: this mover's before is what the last turn left it (turns 2
        // to 4: blue's resignation comes between the 4th and the 5th).
        if let Some(prev) = sum_before.take()
            && i < 4
        {
            let prev: &Value = &prev;
            assert_eq!(
                prev["chances"][v["player"].as_str().unwrap()],
                v["before"],
                "{line}"
            );
        }
        sum_before = Some(v.clone());
        assert_eq!(v["turn"].as_u64(), Some(i as u64 + 1), "{line}");
        assert_eq!(v["player"], ["r", "b", "y", "g", "r"][i], "{line}");
        assert_eq!(v["played"], PLAYED[i], "{line}");
        assert!(v["best"].as_str().is_some_and(|b| !b.is_empty()), "{line}");
        for key in ["before", "after"] {
            let x = v[key].as_f64().unwrap_or(-1.0);
            assert!(v[key].is_f64() && (0.0..=1.0).contains(&x), "{key}: {line}");
        }
        assert!(LABELS.contains(&v["label"].as_str().unwrap()), "{line}");
        if v["played"] == v["best"] {
            assert_eq!(v["label"], "best", "{line}");
        }
    }
    // The best turns are legal where they were chosen: replaying the record up to a turn and
    // playing its best turn instead succeeds.
    let v: Value = serde_json::from_str(lines[2]).unwrap();
    let best = v["best"].as_str().unwrap();
    let o = djambi(&["play", "b7-b5", "h7-h6", best]);
    assert_eq!(o.status.code(), Some(0), "{best}: {}", stderr(&o));
}

#[test]
fn text_one_line_per_turn_and_repeatable_on_a_node_budget() {
    let path = record_file("text", RECORD);
    let path = path.to_str().unwrap();
    let run = || djambi(&["analyse", "--nodes", "300", "--record", path, "--seed=3"]);
    let o = run();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), PLAYED.len() + 1, "{text}");
    assert!(lines[PLAYED.len()].starts_with("accuracy: Red "), "{text}");
    for (line, played) in lines.iter().zip(PLAYED) {
        assert!(line.contains(played), "{line}");
        assert!(LABELS.iter().any(|l| line.contains(l)), "{line}");
        assert!(line.contains('%'), "{line}");
    }
    assert_eq!(stdout(&run()), text);
}

#[test]
fn a_move_time_alone_and_a_record_without_turns() {
    let path = record_file("movetime", RECORD);
    let o = djambi(&[
        "analyse",
        "--record",
        path.to_str().unwrap(),
        "--movetime",
        "5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), PLAYED.len() + 1);
    let empty = RECORD.replace(
        &RECORD[RECORD.find("\"events\"").unwrap()..RECORD.find("\"meta\"").unwrap()],
        "\"events\": [{\"resign\": \"g\"}],\n  ",
    );
    let path = record_file("empty", &empty);
    let o = djambi(&["analyse", "--record", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"accuracy\":{\"r\":null,\"b\":null,\"y\":null,\"g\":null}}\n"
    );
}

#[test]
fn bad_records_exit_2_with_a_message() {
    let illegal = RECORD.replace("g1-f1", "g1-e5");
    let wrong_player = RECORD.replace(r#""turn": 2, "player": "b""#, r#""turn": 2, "player": "y""#);
    let cases = [
        ("not-json", "{\"format\": "),
        ("not-a-record", "[1, 2, 3]"),
        ("illegal", illegal.as_str()),
        ("wrong-player", wrong_player.as_str()),
        ("format", &RECORD.replace("djambi-game/1", "djambi-game/9")),
    ];
    for (name, text) in cases {
        let path = record_file(name, text);
        let o = djambi(&["analyse", "--record", path.to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert_eq!(stdout(&o), "", "{name}");
        assert!(!stderr(&o).is_empty(), "{name}");
    }
    // The core's import names the first event that does not replay.
    let path = record_file("illegal-named", &illegal);
    let o = djambi(&["analyse", "--record", path.to_str().unwrap()]);
    assert!(stderr(&o).contains("event 3"), "{}", stderr(&o));
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyse-no-such-file.json");
    let o = djambi(&["analyse", "--record", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

#[test]
fn bad_options_exit_2() {
    let path = record_file("options", RECORD);
    let record = path.to_str().unwrap();
    for args in [
        &["analyse"][..],
        &["analyse", "--json"],
        &["analyse", "--record"],
        &["analyse", "--record", record, "--depth", "3"],
        &["analyse", "--record", record, "--json=yes"],
        &["analyse", "--record", record, "--movetime", "-5"],
        &["analyse", "--record", record, "--movetime=fast"],
        &["analyse", "--record", record, "--nodes", "0"],
        &["analyse", "--record", record, "--level", "hard"],
        &[
            "analyse",
            "--record",
            record,
            "--position",
            djambi_core::START_DPN,
        ],
        &["analyse", "--record", record, "extra"],
        &[
            "analyse",
            "--record",
            record,
            "--movetime",
            "1",
            "--movetime",
            "x",
        ],
    ] {
        let o = djambi(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // Repeated options: every one valid, the last counts.
    let o = djambi(&[
        "analyse",
        "--record=/nonexistent",
        "--record",
        record,
        "--nodes=50",
        "--movetime=1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn help_mentions_analyse() {
    let o = djambi(&["--help"]);
    assert!(stdout(&o).contains("analyse"));
    assert!(stdout(&o).contains("--record FILE"));
}
