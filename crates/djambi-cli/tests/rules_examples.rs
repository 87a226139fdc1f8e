//! The rules page's diagrams (`web/data/rules-examples.json`, filled in by
//! `scripts/rules-examples.mjs` with this command) agree with the core: each figure's marks are
//! what the legal turns of its position give, and each step of its example is a legal turn whose
//! position after is the one stored. The page itself implements no rule, so this is what keeps
//! its pictures true.

use std::collections::BTreeSet;
use std::path::Path;

use djambi_core::{Move, Position, Rules};
use serde_json::Value;

fn examples() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/data/rules-examples.json");
    let text = std::fs::read_to_string(&path).expect("web/data/rules-examples.json is readable");
    serde_json::from_str(&text).expect("the rules examples are JSON")
}

fn text(v: &Value, field: &str) -> String {
    v[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field}: a string"))
        .to_string()
}

fn squares(v: &Value, field: &str) -> Vec<String> {
    v[field]
        .as_array()
        .unwrap_or_else(|| panic!("{field}: a list"))
        .iter()
        .map(|s| s.as_str().expect("a square").to_string())
        .collect()
}

fn sorted(squares: impl IntoIterator<Item = String>) -> Vec<String> {
    squares
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The marks a figure shows (`options`, `victims`), derived from the core's legal turns as
/// the script's header describes them.
fn marks(name: &str, fig: &Value, pos: &Position) -> (Vec<String>, Vec<String>) {
    let show = text(fig, "show");
    let moves: Vec<Move> = pos
        .legal_turns()
        .iter()
        .filter_map(|t| t.as_move().copied())
        .collect();
    let selected = fig["selected"].as_str().unwrap_or("");
    let mine: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from.to_string() == selected)
        .collect();
    let names = |it: &mut dyn Iterator<Item = String>| sorted(it.collect::<Vec<_>>());
    match show.as_str() {
        "none" => (vec![], vec![]),
        "turn" => {
            let first = text(&fig["steps"][0], "turn");
            let turn = pos.parse_turn(&first).expect("the first step is legal");
            let m = turn.as_move().expect("the first step is a move");
            (
                vec![m.to.to_string()],
                m.victim.iter().map(|v| v.to_string()).collect(),
            )
        }
        "moves" => (names(&mut mine.iter().map(|m| m.to.to_string())), vec![]),
        "reporter" => (
            names(&mut mine.iter().map(|m| m.to.to_string())),
            names(&mut mine.iter().filter_map(|m| m.victim.map(|v| v.to_string()))),
        ),
        "exits" => {
            let through: Vec<&&Move> = mine.iter().filter(|m| m.exit.is_some()).collect();
            (
                names(&mut through.iter().filter_map(|m| m.exit.map(|e| e.to_string()))),
                names(&mut through.iter().map(|m| m.to.to_string())),
            )
        }
        other => panic!("{name}: unknown show {other:?}"),
    }
}

#[test]
fn every_figure_marks_what_the_core_allows_and_every_step_is_played_as_stored() {
    let data = examples();
    assert_eq!(data["format"], "djambi-rules-examples/1");
    let figures = data["figures"].as_object().expect("figures: an object");
    assert!(figures.len() >= 9, "every diagram of the rules page");
    for (name, fig) in figures {
        let start = text(fig, "position");
        let pos = Position::from_dpn(&start, Rules::default())
            .unwrap_or_else(|e| panic!("{name}: {start}: {e}"));
        if let Some(sq) = fig["selected"].as_str() {
            assert!(
                pos.legal_turns()
                    .iter()
                    .any(|t| t.as_move().is_some_and(|m| m.from.to_string() == sq)),
                "{name}: the selected piece on {sq} has a legal turn"
            );
        }
        let (options, victims) = marks(name, fig, &pos);
        assert_eq!(squares(fig, "options"), options, "{name}: options");
        assert_eq!(squares(fig, "victims"), victims, "{name}: victims");
        let steps = fig["steps"].as_array().expect("steps: a list");
        assert!(!steps.is_empty(), "{name}: an example to play");
        let mut pos = pos;
        for (i, step) in steps.iter().enumerate() {
            let turn = text(step, "turn");
            let legal = pos
                .parse_turn(&turn)
                .unwrap_or_else(|e| panic!("{name}, step {}: {turn}: {e}", i + 1));
            assert_eq!(legal.to_string(), turn, "{name}: turns are canonical");
            pos.play(&legal).expect("a legal turn plays");
            assert_eq!(
                pos.to_dpn(),
                text(step, "position"),
                "{name}, step {}: the position after {turn}",
                i + 1
            );
        }
    }
}
