//! `djambi analyse --record FILE`: each turn of a game record (NOTATION §4) judged by the engine
//! (`djambi_engine::analysis`): the engine's choice, the mover's chance of winning before and
//! after the turn played, and a label. One line per turn, as people read it or (`--json`) as
//! one JSON object.

use std::io::{Read, Write};
use std::time::Duration;

use djambi_core::{Game, GameRecord};
use djambi_engine::{Limits, TurnAnalysis, analyse_game_with};

use crate::args::{BotOptions, Invocation};
use crate::commands::{Exit, engine};

/// The move time of each search when neither `--movetime` nor `--nodes` is given: a turn costs
/// one search (the engine's choice played) or two, so a 40-turn game takes about seven seconds,
/// and the search still looks three or four plies ahead in a middle game.
pub const ANALYSE_MOVETIME_MS: u64 = 100;

/// The largest record file read: a record of the longest games is a few hundred kilobytes.
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Runs `djambi analyse`: exit 2 with a message on stderr for a record that cannot be read or
/// replayed, otherwise one line per turn on `out`, written as each turn is done.
pub fn analyse(inv: &Invocation, out: &mut impl Write) -> Result<(), Exit> {
    let path = inv.record.as_deref().unwrap_or_default();
    let game = load(path).map_err(|message| {
        eprintln!("djambi: {message}");
        Exit::Usage
    })?;
    let o = inv.bot;
    let mut engine = engine(&o, o.movetime_ms.unwrap_or(ANALYSE_MOVETIME_MS));
    analyse_game_with(&mut engine, &game, &limits(&o), |a| {
        let line = if inv.json { json_line(a) } else { text_line(a) };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    });
    Ok(())
}

/// The limits of every search: `--nodes` alone is a node budget only (a repeatable analysis);
/// `--movetime` (default [`ANALYSE_MOVETIME_MS`]) bounds each search's wall-clock time, with the
/// node budget too if both are given.
fn limits(o: &BotOptions) -> Limits {
    let movetime = match (o.movetime_ms, o.nodes) {
        (Some(ms), _) => Some(ms),
        (None, Some(_)) => None,
        (None, None) => Some(ANALYSE_MOVETIME_MS),
    };
    Limits {
        movetime: movetime.map(Duration::from_millis),
        nodes: o.nodes,
        stop: None,
    }
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

/// One turn as a JSON object on one line: `turn`, `player`, `played`, `best`, `before`, `after`
/// (four decimals, always with a decimal point), `label`.
fn json_line(a: &TurnAnalysis) -> String {
    // Turn texts and player letters are canonical ASCII: nothing to escape.
    format!(
        "{{\"turn\":{},\"player\":\"{}\",\"played\":\"{}\",\"best\":\"{}\",\"before\":{:.4},\"after\":{:.4},\"label\":\"{}\"}}",
        a.number,
        a.player.char(),
        a.played,
        a.best,
        a.before,
        a.after,
        a.label
    )
}

/// One turn for people: `12. Red    b7-b5       best a9-a8        62% →  41%  mistake`.
fn text_line(a: &TurnAnalysis) -> String {
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
        a.before * 100.0,
        a.after * 100.0,
        a.label
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Player, Position};
    use djambi_engine::Label;

    fn sample() -> TurnAnalysis {
        let p = Position::new();
        TurnAnalysis {
            number: 1,
            player: Player::Red,
            played: p.parse_turn("b7-b5").unwrap(),
            best: p.parse_turn("c7-f4").unwrap(),
            before: 0.25,
            after: 1.0,
            label: Label::Best,
            chief_exposed: false,
        }
    }

    #[test]
    fn json_lines_parse_with_every_field() {
        let v: serde_json::Value = serde_json::from_str(&json_line(&sample())).unwrap();
        assert_eq!(v["turn"], 1);
        assert_eq!(v["player"], "r");
        assert_eq!(v["played"], "b7-b5");
        assert_eq!(v["best"], "c7-f4");
        assert_eq!(v["before"].as_f64(), Some(0.25));
        assert!(v["after"].is_f64());
        assert_eq!(v["label"], "best");
        assert_eq!(v.as_object().unwrap().len(), 7);
    }

    #[test]
    fn text_lines_say_the_turn_and_the_chances() {
        let mut a = sample();
        assert_eq!(
            text_line(&a),
            "  1. Red    b7-b5          best c7-f4           25% → 100%  best"
        );
        a.label = Label::Blunder;
        a.chief_exposed = true;
        assert!(text_line(&a).ends_with("blunder (leaves the chief to be killed)"));
    }

    #[test]
    fn limits_follow_the_options() {
        let mut o = BotOptions::default();
        let l = limits(&o);
        assert_eq!(l.movetime, Some(Duration::from_millis(ANALYSE_MOVETIME_MS)));
        assert_eq!(l.nodes, None);
        o.nodes = Some(500);
        let l = limits(&o);
        assert_eq!((l.movetime, l.nodes), (None, Some(500)));
        o.movetime_ms = Some(7);
        let l = limits(&o);
        assert_eq!(
            (l.movetime, l.nodes),
            (Some(Duration::from_millis(7)), Some(500))
        );
    }
}
