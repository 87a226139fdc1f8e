//! Where a game stands: waiting for players, being played, over, or called off.

use serde::{Deserialize, Serialize};

/// Where a game stands, for lists and snapshots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players to claim their seats.
    #[default]
    Open,
    /// Being played.
    Live,
    /// Over: won or drawn.
    Finished,
    /// Called off before it ended (never claimed, or cancelled by its creator).
    Cancelled,
}

impl GameStatus {
    /// The status as stored and sent (`open`, `live`, `finished`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// Parses [`as_str`](GameStatus::as_str)'s output.
    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "open" => Some(GameStatus::Open),
            "live" => Some(GameStatus::Live),
            "finished" => Some(GameStatus::Finished),
            "cancelled" => Some(GameStatus::Cancelled),
            _ => None,
        }
    }
}
