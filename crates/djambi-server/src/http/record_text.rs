//! The readable text export of a game record (`GET /api/games/{id}/record.txt`): a header of
//! `Key: value` lines (site, link, date and times, the players by colour, clock, rules, result,
//! ranking, start position), an empty line, then the events one per line — numbered turns in
//! the notation, resignations and agreed draws in words. Every value is one line: text that
//! people typed (names) cannot add lines or hide characters in the file.

use std::fmt::Write as _;

use djambi_core::{ClockMeta, EventRecord, Game, GameRecord, Player, Position, ResultRecord};

use crate::table::state::record::names;

/// The text of `record`, the game at `link`.
pub fn render(record: &GameRecord, link: &str) -> String {
    let meta = record.meta.clone().unwrap_or_default();
    let mut out = String::new();
    let mut line = |key: &str, value: &str| {
        let value = one_line(value);
        if !value.is_empty() {
            let _ = writeln!(out, "{key}: {value}");
        }
    };
    line("Site", meta.site.as_deref().unwrap_or_default());
    line("Game", link);
    let date = meta.started.as_deref().or(meta.created.as_deref());
    line("Date", date.map_or("", |d| d.get(..10).unwrap_or(d)));
    line("Created", meta.created.as_deref().unwrap_or_default());
    line("Started", meta.started.as_deref().unwrap_or_default());
    line("Finished", meta.finished.as_deref().unwrap_or_default());
    for player in players(record) {
        let seat = meta.players.get(&player).cloned().unwrap_or_default();
        let who = match (seat.name, seat.bot) {
            (Some(name), _) if !one_line(&name).is_empty() => name,
            (_, Some(level)) => format!("bot ({level})"),
            _ => "(no name)".to_string(),
        };
        line(player.name(), &who);
    }
    line("Clock", &meta.clock.map_or("none".to_string(), clock));
    let rules = record.rules.to_string();
    line("Rules", if rules.is_empty() { "standard" } else { &rules });
    let result = meta
        .result_text
        .clone()
        .or_else(|| record.result.as_ref().map(result));
    line("Result", result.as_deref().unwrap_or("in progress"));
    line("Ranking", &ranking(&record.ranking));
    line("Start", &record.start);
    out.push('\n');
    for event in &record.events {
        let _ = match event {
            EventRecord::Turn { turn, player, text } => {
                writeln!(out, "{turn}. {} {}", player.name(), one_line(text))
            }
            EventRecord::Resign { resign } => writeln!(out, "{} resigns", resign.name()),
            EventRecord::Draw { .. } => writeln!(out, "Draw agreed"),
        };
    }
    out
}

/// The players of the game, in base order (from its start position; the ranking's if the
/// start does not read).
fn players(record: &GameRecord) -> Vec<Player> {
    match Position::from_dpn(&record.start, record.rules) {
        Ok(start) => Game::new(start).players().iter().collect(),
        Err(_) => {
            let mut all: Vec<Player> = record.ranking.iter().flatten().copied().collect();
            all.sort();
            all.dedup();
            all
        }
    }
}

/// `value` on one line: control characters (line breaks included), line and paragraph
/// separators and bidirectional formatting characters become spaces; runs of spaces become
/// one; no space at either end.
pub fn one_line(value: &str) -> String {
    let cleaned: String = value
        .chars()
        .map(|c| {
            let hidden = c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
                )
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c);
            if hidden { ' ' } else { c }
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A clock in words: `5 min + 3 s per turn`, `1 day per turn`.
fn clock(c: ClockMeta) -> String {
    match (c.initial_s, c.per_turn_s) {
        (Some(initial), _) => match c.increment_s.unwrap_or(0) {
            0 => duration(initial),
            inc => format!("{} + {inc} s per turn", duration(initial)),
        },
        (None, Some(per_turn)) => format!("{} per turn", duration(per_turn)),
        (None, None) => "none".to_string(),
    }
}

/// A duration in words, largest units first: `1 day`, `2 h 30 min`, `90 s` is `1 min 30 s`.
fn duration(seconds: u32) -> String {
    let units = [(86_400, "day"), (3_600, "h"), (60, "min"), (1, "s")];
    let mut left = seconds;
    let mut parts = Vec::new();
    for (size, unit) in units {
        let n = left / size;
        left %= size;
        if n > 0 {
            parts.push(match unit {
                "day" if n > 1 => format!("{n} days"),
                _ => format!("{n} {unit}"),
            });
        }
    }
    if parts.is_empty() {
        "0 s".to_string()
    } else {
        parts.join(" ")
    }
}

/// A result without metadata: `Red wins`, `Draw between Red and Blue`.
fn result(result: &ResultRecord) -> String {
    match result {
        ResultRecord::Winner(p) => format!("{} wins", p.name()),
        ResultRecord::Draw(players) => format!("Draw between {}", names(players)),
    }
}

/// The ranking, best first, each rank numbered as in sports (`1. Red; 2. Blue, Green; 4.
/// Yellow`).
fn ranking(ranking: &[Vec<Player>]) -> String {
    let mut rank = 1;
    let mut parts = Vec::new();
    for group in ranking {
        let names: Vec<&str> = group.iter().map(|p| p.name()).collect();
        parts.push(format!("{rank}. {}", names.join(", ")));
        rank += group.len();
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use djambi_core::{Army, PlayerMeta, RecordMeta, Rules, TurnText};

    use super::*;

    fn record() -> GameRecord {
        let mut game = Game::new(Position::start(Rules::default()));
        for text in ["b7-b5", "g7-g5"] {
            let turn: TurnText = text.parse().unwrap();
            game.play(&turn.0).unwrap();
        }
        game.resign(Army::Yellow).unwrap();
        game.agree_draw().unwrap();
        game.record()
    }

    #[test]
    fn a_record_without_meta_still_has_its_header_and_turns() {
        let text = render(&record(), "http://x/game/1");
        let expected = format!(
            "Game: http://x/game/1\n\
             Red: (no name)\nBlue: (no name)\nYellow: (no name)\nGreen: (no name)\n\
             Clock: none\nRules: standard\nResult: Draw between Red, Blue and Green\n\
             Ranking: 1. Red, Blue, Green; 4. Yellow\nStart: {}\n\n\
             1. Red b7-b5\n2. Blue g7-g5\nYellow resigns\nDraw agreed\n",
            djambi_core::START_DPN
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn names_cannot_break_the_format() {
        let mut record = record();
        record.meta = Some(RecordMeta {
            site: Some("Djambi Online".into()),
            players: BTreeMap::from([
                (
                    Army::Red,
                    PlayerMeta {
                        name: Some("Ann\n\n1. Red a1-a9\r\u{2028}Result: Ann wins".into()),
                        bot: None,
                    },
                ),
                (
                    Army::Blue,
                    PlayerMeta {
                        name: Some("\u{202E}\t\u{0007} ".into()),
                        bot: Some("hard".into()),
                    },
                ),
            ]),
            started: Some("2026-11-21T10:01:00Z".into()),
            clock: Some(ClockMeta {
                initial_s: Some(300),
                increment_s: Some(3),
                per_turn_s: None,
            }),
            result_text: Some("Draw agreed between Red, Blue and Green".into()),
            ..RecordMeta::default()
        });
        let text = render(&record, "http://x/game/1");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Site: Djambi Online");
        assert_eq!(lines[2], "Date: 2026-11-21");
        assert_eq!(lines[3], "Started: 2026-11-21T10:01:00Z");
        assert_eq!(lines[4], "Red: Ann 1. Red a1-a9 Result: Ann wins");
        assert_eq!(lines[5], "Blue: bot (hard)", "an invisible name is no name");
        assert!(lines.contains(&"Clock: 5 min + 3 s per turn"));
        assert!(lines.contains(&"Result: Draw agreed between Red, Blue and Green"));
        assert_eq!(text.lines().filter(|l| l.starts_with("Result:")).count(), 1);
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'));
    }

    #[test]
    fn clocks_and_durations_in_words() {
        let live = |initial, inc| ClockMeta {
            initial_s: Some(initial),
            increment_s: Some(inc),
            per_turn_s: None,
        };
        assert_eq!(clock(live(600, 0)), "10 min");
        assert_eq!(clock(live(90, 5)), "1 min 30 s + 5 s per turn");
        let turn = |s| ClockMeta {
            per_turn_s: Some(s),
            ..ClockMeta::default()
        };
        assert_eq!(clock(turn(86_400)), "1 day per turn");
        assert_eq!(clock(turn(3 * 86_400)), "3 days per turn");
        assert_eq!(clock(turn(9_000)), "2 h 30 min per turn");
        assert_eq!(clock(ClockMeta::default()), "none");
    }
}
