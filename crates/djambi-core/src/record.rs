//! Game records (NOTATION §4): JSON export, and import by replay. A record may carry what
//! the site knows about the game beyond its moves ([`RecordMeta`]: names, dates, clock, the
//! result in words); that is information for people only, never read when replaying.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;

use crate::game::{Game, GameEvent};
use crate::piece::Player;
use crate::position::{Outcome, Position};
use crate::rules::Rules;
use crate::turn::TurnText;

/// The `format` of game records this crate writes and reads.
pub const RECORD_FORMAT: &str = "djambi-game/1";

/// A game record as JSON (NOTATION §4).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The ruleset (R12.6).
    pub rules: Rules,
    /// The start position in DPN.
    pub start: String,
    /// The events, in order.
    pub events: Vec<EventRecord>,
    /// The result, absent while the game runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultRecord>,
    /// The ranking (R9.7), best first.
    #[serde(default)]
    pub ranking: Vec<Vec<Player>>,
    /// What the site knows about the game beyond its moves, if it says. Replaying ignores it;
    /// a `meta` of the wrong shape reads as none rather than refusing the record.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub meta: Option<RecordMeta>,
}

/// A record's metadata (`meta`): who played, when, on what clock, and the result in words.
/// Every member is optional, and a member of the wrong shape reads as absent: metadata is
/// never a reason to refuse a record, and nothing in it is used to replay one.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordMeta {
    /// Where the game was played (`"Djambi Online"`).
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub site: Option<String>,
    /// The players' seats, by player.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub players: BTreeMap<Player, PlayerMeta>,
    /// When the game was created (RFC 3339, UTC).
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub created: Option<String>,
    /// When it started: every seat taken (RFC 3339, UTC).
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub started: Option<String>,
    /// When it ended (RFC 3339, UTC).
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub finished: Option<String>,
    /// The clock it was played on; absent for a game without one.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub clock: Option<ClockMeta>,
    /// The result (or why the game ended without one) as a sentence: `"Red wins"`.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub result_text: Option<String>,
}

/// One seat in a record's metadata: `{"name": "Ann"}`, `{"bot": "medium"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayerMeta {
    /// The name the player went by.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// The level of the bot that played the seat (`random`, `beginner`, `easy`, `medium`,
    /// `hard`), for a bot's seat.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub bot: Option<String>,
}

/// The clock of a record's metadata, as the game was created with it: a live clock
/// `{"initial_s": 300, "increment_s": 3}` (each player's time, and what each of its turns adds)
/// or a correspondence deadline `{"per_turn_s": 86400}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockMeta {
    /// A live clock: each player's time at the start, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_s: Option<u32>,
    /// A live clock: the seconds added after each of a player's turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_s: Option<u32>,
    /// A correspondence game: the seconds each turn may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_turn_s: Option<u32>,
}

/// Reads a metadata member, or its default when it has the wrong shape.
fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
    Ok(serde_json::from_value(value).unwrap_or_default())
}

/// One event of a record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum EventRecord {
    /// `{"turn": 1, "player": "r", "move": "b7-b5"}`
    Turn {
        /// The turn number.
        turn: u32,
        /// The player.
        player: Player,
        /// The turn text (canonical on output; any case on input).
        #[serde(rename = "move")]
        text: String,
    },
    /// `{"resign": "b"}`
    Resign {
        /// The resigning player.
        resign: Player,
    },
    /// `{"draw": "agreed"}`
    Draw {
        /// Always `agreed`.
        draw: String,
    },
}

/// The result of a finished game: `{"winner": P}` or `{"draw": [P…]}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultRecord {
    /// The winner.
    Winner(Player),
    /// The players sharing the draw, in base order.
    Draw(Vec<Player>),
}

impl ResultRecord {
    /// The result of an outcome, `None` while the game runs.
    pub fn from_outcome(outcome: Outcome) -> Option<ResultRecord> {
        match outcome {
            Outcome::Ongoing => None,
            Outcome::Winner(p) => Some(ResultRecord::Winner(p)),
            Outcome::Draw(ps) => Some(ResultRecord::Draw(ps.iter().collect())),
        }
    }
}

/// A record was rejected; the message names the event (1-based) or the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The 1-based index of the first illegal event, if an event is at fault.
    pub event: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.event {
            Some(i) => write!(f, "event {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}

impl Game {
    /// The game's record (NOTATION §4), without metadata (the game does not know who played
    /// it or when).
    pub fn record(&self) -> GameRecord {
        let events = self
            .events()
            .iter()
            .map(|e| match e {
                GameEvent::Turn {
                    number,
                    player,
                    turn,
                } => EventRecord::Turn {
                    turn: *number,
                    player: *player,
                    text: turn.to_string(),
                },
                GameEvent::Resign(p) => EventRecord::Resign { resign: *p },
                GameEvent::Draw => EventRecord::Draw {
                    draw: "agreed".into(),
                },
            })
            .collect();
        GameRecord {
            format: RECORD_FORMAT.into(),
            rules: self.rules(),
            start: self.start().to_dpn(),
            events,
            result: ResultRecord::from_outcome(self.outcome()),
            ranking: self.ranking(),
            meta: None,
        }
    }

    /// Replays a record, rejecting it at the first illegal event (or a result or ranking that
    /// the replay does not reproduce). Its `meta` is not read.
    pub fn from_record(record: &GameRecord) -> Result<Game, RecordError> {
        let field = |message: String| RecordError {
            event: None,
            message,
        };
        if record.format != RECORD_FORMAT {
            return Err(field(format!(
                "format: expected {RECORD_FORMAT:?}, found {:?}",
                record.format
            )));
        }
        let start = Position::from_dpn(&record.start, record.rules)
            .map_err(|e| field(format!("start: {e}")))?;
        let mut game = Game::new(start);
        for (i, event) in record.events.iter().enumerate() {
            let at = |message: String| RecordError {
                event: Some(i + 1),
                message,
            };
            match event {
                EventRecord::Turn { turn, player, text } => {
                    let pos = game.position();
                    if pos.to_move() != Some(*player) {
                        return Err(at(format!("{text}: it is not {player}'s turn")));
                    }
                    if pos.turn() != *turn {
                        return Err(at(format!(
                            "{text}: turn {turn} should be turn {}",
                            pos.turn()
                        )));
                    }
                    let parsed: TurnText = text.parse().map_err(|e| at(format!("{text}: {e}")))?;
                    game.play(&parsed.0)
                        .map_err(|e| at(format!("{text}: {e}")))?;
                }
                EventRecord::Resign { resign } => {
                    game.resign(*resign)
                        .map_err(|e| at(format!("resign {resign}: {e}")))?;
                }
                EventRecord::Draw { draw } => {
                    if draw != "agreed" {
                        return Err(at(format!("draw: expected \"agreed\", found {draw:?}")));
                    }
                    game.agree_draw().map_err(|e| at(format!("draw: {e}")))?;
                }
            }
        }
        if let Some(result) = &record.result
            && Some(result) != ResultRecord::from_outcome(game.outcome()).as_ref()
        {
            return Err(field("result: does not match the replayed game".into()));
        }
        if !record.ranking.is_empty() && record.ranking != game.ranking() {
            return Err(field("ranking: does not match the replayed game".into()));
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Army;

    /// A short finished game: two turns, then Yellow resigns and the rest agree a draw.
    fn game() -> Game {
        let mut g = Game::new(Position::start(Rules::default()));
        for text in ["b7-b5", "g7-g5"] {
            let turn: TurnText = text.parse().unwrap();
            g.play(&turn.0).unwrap();
        }
        g.resign(Army::Yellow).unwrap();
        g.agree_draw().unwrap();
        g
    }

    fn meta() -> RecordMeta {
        RecordMeta {
            site: Some("Djambi Online".into()),
            players: BTreeMap::from([
                (
                    Army::Red,
                    PlayerMeta {
                        name: Some("Ann".into()),
                        bot: None,
                    },
                ),
                (
                    Army::Blue,
                    PlayerMeta {
                        name: None,
                        bot: Some("medium".into()),
                    },
                ),
            ]),
            created: Some("2026-11-21T10:00:00Z".into()),
            started: Some("2026-11-21T10:01:00Z".into()),
            finished: Some("2026-11-21T10:30:00.123Z".into()),
            clock: Some(ClockMeta {
                initial_s: Some(300),
                increment_s: Some(3),
                per_turn_s: None,
            }),
            result_text: Some("Draw agreed between Red, Blue and Green".into()),
        }
    }

    #[test]
    fn a_record_without_meta_writes_no_meta_member() {
        let json = serde_json::to_value(game().record()).unwrap();
        assert!(json.get("meta").is_none(), "{json}");
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys.len(),
            6,
            "format, rules, start, events, result, ranking: {keys:?}"
        );
    }

    #[test]
    fn meta_round_trips_and_its_record_replays_the_same_game() {
        let plain = game().record();
        let mut with = plain.clone();
        with.meta = Some(meta());
        let json = serde_json::to_string(&with).unwrap();
        assert!(
            json.contains(r#""meta":{"site":"Djambi Online","players":{"r":{"name":"Ann"},"b":{"bot":"medium"}},"#),
            "{json}"
        );
        assert!(
            json.contains(r#""clock":{"initial_s":300,"increment_s":3}"#),
            "{json}"
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, with);
        let replayed = Game::from_record(&back).unwrap();
        assert_eq!(replayed.position(), game().position());
        assert_eq!(
            replayed.record(),
            plain,
            "the game writes its record without meta"
        );
    }

    #[test]
    fn a_record_from_before_meta_still_parses_and_replays() {
        let json = serde_json::json!({
            "format": "djambi-game/1",
            "rules": {"own_kills": false, "diplomat_to_maze": true, "turn_limit": null},
            "start": crate::notation::START_DPN,
            "events": [{"turn": 1, "player": "r", "move": "b7-b5"}, {"resign": "b"}],
            "ranking": [["r", "y", "g"], ["b"]]
        });
        let record: GameRecord = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(record.meta, None);
        assert_eq!(serde_json::to_value(&record).unwrap(), json);
        assert!(Game::from_record(&record).is_ok());
    }

    #[test]
    fn unknown_members_are_tolerated_at_the_top_and_in_meta() {
        let mut json = serde_json::to_value(game().record()).unwrap();
        json["event"] = "Club final".into();
        json["meta"] = serde_json::json!({
            "site": "Djambi Online",
            "round": 3,
            "players": {"r": {"name": "Ann", "rating": 1500}},
            "clock": {"per_turn_s": 86400, "vacation_days": 5}
        });
        let record: GameRecord = serde_json::from_value(json).unwrap();
        let meta = record.meta.as_ref().unwrap();
        assert_eq!(meta.players[&Army::Red].name.as_deref(), Some("Ann"));
        assert_eq!(meta.clock.and_then(|c| c.per_turn_s), Some(86400));
        assert_eq!(meta.clock.and_then(|c| c.initial_s), None);
        assert!(Game::from_record(&record).is_ok());
    }

    #[test]
    fn meta_members_of_the_wrong_shape_read_as_absent() {
        let mut json = serde_json::to_value(game().record()).unwrap();
        json["meta"] = serde_json::json!({
            "site": 5,
            "players": {"x": {"name": "Nobody"}},
            "created": "2026-11-21T10:00:00Z",
            "clock": "5+3",
            "result_text": ["Red", "wins"]
        });
        let record: GameRecord = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(
            record.meta,
            Some(RecordMeta {
                created: Some("2026-11-21T10:00:00Z".into()),
                ..RecordMeta::default()
            })
        );
        for wrong in [serde_json::json!("meta"), serde_json::json!(null)] {
            json["meta"] = wrong;
            let record: GameRecord = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(record.meta, None);
            assert!(Game::from_record(&record).is_ok());
        }
    }

    #[test]
    fn meta_cannot_change_what_a_record_replays_to() {
        // A result text that contradicts the events is only text: the replay decides.
        let mut record = game().record();
        record.meta = Some(RecordMeta {
            result_text: Some("Red wins".into()),
            ..meta()
        });
        let replayed = Game::from_record(&record).unwrap();
        assert_eq!(
            ResultRecord::from_outcome(replayed.outcome()),
            Some(ResultRecord::Draw(vec![Army::Red, Army::Blue, Army::Green]))
        );
    }
}
