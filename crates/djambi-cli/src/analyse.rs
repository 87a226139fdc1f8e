//! `djambi analyse --record FILE`: each turn of a game record (NOTATION §4) judged by the
//! engine's value model (`djambi_engine::analysis`): the engine's choice, the mover's chance of
//! winning before and after the turn played, every player's chance after it, what the engine's
//! choice would have kept, and a label; then each player's accuracy. One line per turn (and the
//! closing line), as people read it or (`--json`) as one JSON object.

use std::io::{Read, Write};

use djambi_core::{Army, Game, GameRecord};
use djambi_engine::analysis::{Judgement, Model, accuracy, analyse_game_with};

use crate::args::Invocation;
use crate::exit::Exit;

/// The largest record file read: a record of the longest games is a few hundred kilobytes.
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Runs `djambi analyse`: exit 2 with a message on stderr for a record that cannot be read or
/// replayed, otherwise one line per turn on `out`, written as each turn is done, then each
/// player's accuracy. The search options (`--movetime`, `--nodes`, `--seed`, `--hash`) are
/// accepted and change nothing: the value model does not search.
pub fn analyse(inv: &Invocation, out: &mut impl Write) -> Result<(), Exit> {
    let path = inv.record.as_deref().unwrap_or_default();
    let game = load(path).map_err(|message| {
        eprintln!("djambi: {message}");
        Exit::Usage
    })?;
    let players = game.players();
    let judged = analyse_game_with(&Model::FITTED, &game, |j| {
        let line = if inv.json {
            json_line(j, players)
        } else {
            text_line(j)
        };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    });
    let acc = accuracy(&judged);
    let closing = if inv.json {
        json_accuracy(&acc, players)
    } else {
        text_accuracy(&acc)
    };
    let _ = writeln!(out, "{closing}");
    Ok(())
}

/// Reads and replays a record; the message says what is wrong (the core's import names the
/// first event that does not replay).
fn load(path: &str) -> Result<Game, String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_RECORD_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "{path}: a record is at most {MAX_RECORD_BYTES} bytes"
        ));
    }
    let record: GameRecord =
        serde_json::from_str(&text).map_err(|e| format!("bad record {path}: {e}"))?;
    Game::from_record(&record).map_err(|e| format!("bad record {path}: {e}"))
}

/// A number from 0 to 1 with four decimals, always with a decimal point.
fn num(x: f64) -> String {
    format!("{:.4}", x.clamp(0.0, 1.0))
}

/// One turn as a JSON object on one line: `turn`, `player`, `played`, `best`, `before`, `after`
/// (four decimals, always with a decimal point), `label`, then `kept` (the mover's chance after
/// `best`) and `chances` (every player of the game's chance after the turn, by letter; 0 for a
/// player out; they add up to 1).
fn json_line(a: &Judgement, players: djambi_core::ArmySet) -> String {
    // Turn texts and player letters are canonical ASCII: nothing to escape.
    let chances: Vec<String> = players
        .iter()
        .map(|p| format!("\"{}\":{}", p.char(), num(a.chances[p.index()])))
        .collect();
    format!(
        "{{\"turn\":{},\"player\":\"{}\",\"played\":\"{}\",\"best\":\"{}\",\"before\":{},\"after\":{},\"label\":\"{}\",\"kept\":{},\"chances\":{{{}}}}}",
        a.number,
        a.player.char(),
        a.played,
        a.best,
        num(a.before),
        num(a.after),
        a.label,
        num(a.kept),
        chances.join(",")
    )
}

/// The closing line: `{"accuracy": {"r": 87.4, …}}`, each player of the game's accuracy (0 to
/// 100, one decimal; `null` for a player who played no turn).
fn json_accuracy(acc: &[Option<f64>; 4], players: djambi_core::ArmySet) -> String {
    let each: Vec<String> = players
        .iter()
        .map(|p| match acc[p.index()] {
            Some(a) => format!("\"{}\":{:.1}", p.char(), a),
            None => format!("\"{}\":null", p.char()),
        })
        .collect();
    format!("{{\"accuracy\":{{{}}}}}", each.join(","))
}

/// The closing line for people: `accuracy: Red 87, Blue 74, …`.
fn text_accuracy(acc: &[Option<f64>; 4]) -> String {
    let each: Vec<String> = Army::ALL
        .iter()
        .filter_map(|p| acc[p.index()].map(|a| format!("{} {a:.0}", p.name())))
        .collect();
    format!("accuracy: {}", each.join(", "))
}

/// One turn for people: `12. Red    b7-b5       best a9-a8        62% →  41%  mistake`
/// (the chances: what the engine's choice would have kept, and what the turn played kept).
fn text_line(a: &Judgement) -> String {
    let why = if a.chief_exposed {
        " (leaves the chief to be killed)"
    } else {
        ""
    };
    format!(
        "{:>3}. {:<6} {:<14} best {:<14} {:>3.0}% → {:>3.0}%  {}{why}",
        a.number,
        a.player.name(),
        a.played.to_string(),
        a.best.to_string(),
        a.kept * 100.0,
        a.after * 100.0,
        a.label
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Player, Position};
    use djambi_engine::Label;

    fn sample() -> Judgement {
        let p = Position::new();
        Judgement {
            number: 1,
            player: Player::Red,
            played: p.parse_turn("b7-b5").unwrap(),
            best: p.parse_turn("c7-f4").unwrap(),
            before: 0.25,
            after: 1.0,
            kept: 1.0,
            chances: [1.0, 0.0, 0.0, 0.0],
            label: Label::Best,
            chief_exposed: false,
        }
    }

    #[test]
    fn json_lines_parse_with_every_field() {
        let v: serde_json::Value =
            serde_json::from_str(&json_line(&sample(), Position::new().alive())).unwrap();
        assert_eq!(v["turn"], 1);
        assert_eq!(v["player"], "r");
        assert_eq!(v["played"], "b7-b5");
        assert_eq!(v["best"], "c7-f4");
        assert_eq!(v["before"].as_f64(), Some(0.25));
        assert!(v["after"].is_f64());
        assert_eq!(v["label"], "best");
        assert_eq!(v["kept"].as_f64(), Some(1.0));
        assert_eq!(v["chances"]["r"].as_f64(), Some(1.0));
        assert_eq!(v["chances"].as_object().unwrap().len(), 4);
        assert_eq!(v.as_object().unwrap().len(), 9);
    }

    #[test]
    fn the_closing_line_gives_each_players_accuracy() {
        let acc = [Some(87.44), Some(60.0), None, Some(100.0)];
        let v: serde_json::Value =
            serde_json::from_str(&json_accuracy(&acc, Position::new().alive())).unwrap();
        assert_eq!(v["accuracy"]["r"].as_f64(), Some(87.4));
        assert!(v["accuracy"]["y"].is_null());
        assert_eq!(text_accuracy(&acc), "accuracy: Red 87, Blue 60, Green 100");
    }

    #[test]
    fn text_lines_say_the_turn_and_the_chances() {
        let mut a = sample();
        assert_eq!(
            text_line(&a),
            "  1. Red    b7-b5          best c7-f4          100% → 100%  best"
        );
        a.label = Label::Blunder;
        a.chief_exposed = true;
        assert!(text_line(&a).ends_with("blunder (leaves the chief to be killed)"));
    }
}
