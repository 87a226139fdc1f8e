//! How an event of the log is stored: the serde form of the table's [`EventKind`] (the one
//! vocabulary of events), split into the columns the queries read and a `detail` with the rest.
//!
//! - `kind`: the serde tag (`turn`, `draw_offered`, …);
//! - `player`: the acting player (`player` or `by`), none for the server's own events;
//! - `turn_text`: a turn's canonical text;
//! - `detail`: the other fields as a JSON object (`{"reason":"expire"}`), none when the columns
//!   say everything (a turn, a draw offer).
//!
//! Reading a row puts the columns back into the object and lets serde read it, so no kind of
//! event is spelled out here: a new kind is stored and read back as it is (migration 9 turned
//! the older hand-written details into this form).

use djambi_core::{ArmySet, Player};
use serde_json::{Map, Value};

use super::StoreError;
use crate::table::EventKind;

/// The keys a stored event's acting player is read back into (serde ignores the one a kind
/// does not have).
const PLAYER_KEYS: [&str; 2] = ["player", "by"];

/// An event as its row stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// The kind's name.
    pub kind: &'static str,
    /// The acting player.
    pub player: Option<Player>,
    /// A turn's text.
    pub turn_text: Option<String>,
    /// The other fields, as a JSON object.
    pub detail: Option<String>,
}

/// Splits an event into its row's columns.
pub fn encode(kind: &EventKind) -> StoredEvent {
    let player = kind.player();
    let turn_text = kind.turn().map(|t| t.to_string());
    let Ok(Value::Object(all)) = serde_json::to_value(kind) else {
        unreachable!("an event kind serialises to a JSON object");
    };
    let letter = player.map(|p| Value::String(p.char().to_string()));
    let mut player_key = None;
    let mut fields = Map::new();
    for (key, value) in all {
        let in_columns = match key.as_str() {
            "kind" => true,
            "turn" => turn_text.is_some(),
            k if PLAYER_KEYS.contains(&k) && player_key.is_none() => {
                let same = letter.as_ref() == Some(&value);
                if same {
                    player_key = Some(());
                }
                same
            }
            _ => false,
        };
        if !in_columns {
            fields.insert(key, value);
        }
    }
    let detail = (!fields.is_empty()).then(|| Value::Object(fields).to_string());
    StoredEvent {
        kind: kind.name(),
        player,
        turn_text,
        detail,
    }
}

/// Reads a stored event back from its columns.
pub fn decode(
    kind: &str,
    player: Option<Player>,
    text: Option<&str>,
    detail: Option<&str>,
) -> Result<EventKind, StoreError> {
    let bad = |what: String| StoreError::Corrupt(format!("{kind} event: {what}"));
    let mut fields = match detail {
        None => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(fields)) => fields,
            _ => return Err(bad(format!("detail {text:?}"))),
        },
    };
    fields.insert("kind".into(), Value::String(kind.into()));
    if let Some(p) = player {
        for key in PLAYER_KEYS {
            fields
                .entry(key)
                .or_insert_with(|| Value::String(p.char().to_string()));
        }
    }
    if let Some(text) = text {
        fields
            .entry("turn")
            .or_insert_with(|| Value::String(text.into()));
    }
    serde_json::from_value(Value::Object(fields)).map_err(|e| bad(e.to_string()))
}

/// A set of players as letters in base order (`ry`).
pub fn letters(set: ArmySet) -> String {
    set.iter().map(|p| p.char()).collect()
}

/// Reads [`letters`]' output.
pub fn parse_letters(s: &str) -> Option<ArmySet> {
    s.chars()
        .map(djambi_core::Army::from_char)
        .collect::<Option<ArmySet>>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{BotReason, CancelReason, VoteAction};
    use djambi_core::{Army, TurnText};
    use djambi_engine::Level;

    fn kinds() -> Vec<EventKind> {
        vec![
            EventKind::Turn {
                player: Army::Red,
                turn: "h2-e5>d6@a5".parse::<TurnText>().unwrap().0,
            },
            EventKind::Resign { player: Army::Red },
            EventKind::DrawOffered { by: Army::Green },
            EventKind::DrawAccepted { by: Army::Green },
            EventKind::DrawDeclined { by: Army::Green },
            EventKind::DrawAgreed {
                by: Army::Blue,
                excused: ArmySet::EMPTY.with(Army::Green),
            },
            EventKind::DrawAgreed {
                by: Army::Blue,
                excused: ArmySet::EMPTY,
            },
            EventKind::Cancelled {
                reason: CancelReason::Creator,
            },
            EventKind::Started,
            EventKind::SeatToBot {
                player: Army::Yellow,
                level: Level::Easy,
                reason: BotReason::Vote,
            },
            EventKind::SeatToHuman {
                player: Army::Yellow,
            },
            EventKind::VoteOpened {
                by: Army::Red,
                target: Army::Green,
                action: VoteAction::Bot(Level::Hard),
                voters: ArmySet::EMPTY.with(Army::Red).with(Army::Blue),
            },
            EventKind::VoteOpened {
                by: Army::Red,
                target: Army::Green,
                action: VoteAction::Resign,
                voters: ArmySet::EMPTY.with(Army::Red),
            },
            EventKind::VoteCast {
                by: Army::Blue,
                yes: false,
            },
            EventKind::VoteClosed { passed: true },
            EventKind::TakebackRequested { by: Army::Red },
            EventKind::TakebackAnswered {
                by: Army::Green,
                yes: true,
            },
            EventKind::TakenBack { player: Army::Red },
            EventKind::Timeout { player: Army::Blue },
            EventKind::Paused {
                from: 1_795_255_200_000,
                until: 1_795_255_260_000,
            },
        ]
    }

    #[test]
    fn every_kind_round_trips_through_its_stored_form() {
        for kind in kinds() {
            let row = encode(&kind);
            assert_eq!(row.kind, kind.name());
            assert_eq!(row.player, kind.player());
            let back = decode(
                row.kind,
                row.player,
                row.turn_text.as_deref(),
                row.detail.as_deref(),
            )
            .unwrap();
            assert_eq!(back, kind, "{row:?}");
        }
        assert!(size_of::<EventKind>() <= 24, "{}", size_of::<EventKind>());
    }

    /// What the columns say is not repeated in `detail`: a turn and most answers store none.
    #[test]
    fn the_detail_holds_only_what_the_columns_do_not() {
        let stored = |k: EventKind| encode(&k).detail;
        let [turn, .., paused] = &kinds()[..] else {
            unreachable!()
        };
        assert_eq!(stored(*turn), None);
        assert_eq!(encode(turn).turn_text.as_deref(), Some("h2-e5>d6@a5"));
        assert_eq!(stored(EventKind::DrawOffered { by: Army::Red }), None);
        assert_eq!(stored(EventKind::Started), None);
        let json =
            |text: Option<String>| -> Value { serde_json::from_str(&text.unwrap()).unwrap() };
        assert_eq!(
            json(stored(*paused)),
            serde_json::json!({"from": 1_795_255_200_000_i64, "until": 1_795_255_260_000_i64})
        );
        assert_eq!(
            json(stored(EventKind::SeatToBot {
                player: Army::Red,
                level: Level::Medium,
                reason: BotReason::Timeout,
            })),
            serde_json::json!({"level": "medium", "reason": "timeout"})
        );
        // The vote's author is in the column; its target stays in the detail.
        assert_eq!(
            json(stored(EventKind::VoteOpened {
                by: Army::Red,
                target: Army::Green,
                action: VoteAction::Resign,
                voters: ArmySet::EMPTY.with(Army::Red),
            })),
            serde_json::json!({"target": "g", "action": "resign", "voters": ["r"]})
        );
    }

    #[test]
    fn a_corrupt_row_is_refused() {
        for (kind, player, text, detail) in [
            ("turn", Some(Army::Red), Some("b7-"), None),
            ("turn", None, Some("b7-b5"), None),
            ("resign", None, None, None),
            ("cancelled", None, None, Some("creator")),
            ("cancelled", None, None, Some(r#"{"reason":"bored"}"#)),
            (
                "vote_opened",
                Some(Army::Red),
                None,
                Some(r#"{"target":"g"}"#),
            ),
            ("no_such_kind", None, None, None),
        ] {
            assert!(
                matches!(
                    decode(kind, player, text, detail),
                    Err(StoreError::Corrupt(_))
                ),
                "{kind} {detail:?}"
            );
        }
    }
}
