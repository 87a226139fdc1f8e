//! Game records (NOTATION §4): JSON export, and import by replay.

use std::fmt;

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
    /// The game's record (NOTATION §4).
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
        }
    }

    /// Replays a record, rejecting it at the first illegal event (or a result or ranking that
    /// the replay does not reproduce).
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
