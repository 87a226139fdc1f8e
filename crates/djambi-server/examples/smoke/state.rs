//! What the client knows of its game between runs (the state file), and what a player needs to
//! choose a turn.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Res;

/// What the client knows of its game, kept between runs.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct GameState {
    /// The game id.
    pub(crate) game: String,
    /// Seat tokens by player letter.
    pub(crate) tokens: BTreeMap<String, String>,
    /// The last version seen.
    pub(crate) v: u64,
    /// The position after it.
    pub(crate) dpn: String,
    /// Every turn seen (all of them committed: the server tells only after committing).
    pub(crate) turns: Vec<TurnSeen>,
    /// Moves acknowledged by the server, over every run.
    pub(crate) acked: u64,
    /// A move sent but not answered when the server went down.
    pub(crate) in_flight: Option<String>,
    /// The next command id: unique over every run, since a seat's resent id is answered
    /// again rather than applied.
    pub(crate) next_ack: u64,
}

/// One turn of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TurnSeen {
    pub(crate) v: u64,
    pub(crate) player: String,
    pub(crate) turn: String,
}

impl GameState {
    pub(crate) fn ack(&mut self) -> u64 {
        self.next_ack += 1;
        self.next_ack - 1
    }

    pub(crate) fn load(path: &Path) -> Res<GameState> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub(crate) fn save(&self, path: &Path) -> Res<()> {
        let tmp = path.with_extension("tmp");
        let text = serde_json::to_string_pretty(self).expect("state serialises");
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Records a `turn` event (any client may have seen it first).
    pub(crate) fn see(&mut self, message: &Value) {
        if message["type"] != "event" {
            return;
        }
        let v = message["v"].as_u64().unwrap_or(0);
        if v <= self.v {
            return;
        }
        let event = &message["event"];
        if event["kind"] == "turn" {
            self.turns.push(TurnSeen {
                v,
                player: event["player"].as_str().unwrap_or("").to_string(),
                turn: event["turn"].as_str().unwrap_or("").to_string(),
            });
        }
        if let Some(dpn) = event["dpn"].as_str() {
            self.dpn = dpn.to_string();
        }
        self.v = v;
    }
}

/// Where the game stands for choosing a turn: who is to move, and the result if it is over.
/// The turns themselves come from the `legal` message the server sends the seat to move
/// ([`crate::ws::Client::legal_at`]).
#[derive(Clone, Debug)]
pub(crate) struct Position {
    pub(crate) to_move: String,
    pub(crate) result: Value,
}

impl Position {
    pub(crate) fn from_state(state: &Value) -> Position {
        Position {
            to_move: state["to_move"].as_str().unwrap_or("").to_string(),
            result: state.get("result").cloned().unwrap_or(Value::Null),
        }
    }

    /// A quiet turn of `legal` (no kill, no choice) when there is one, picked by `v`.
    pub(crate) fn choose(&self, v: u64, legal: &[String]) -> Res<String> {
        ensure!(self.result.is_null(), "the game is over: {}", self.result);
        let quiet: Vec<&String> = legal
            .iter()
            .filter(|t| !t.contains(['x', '>', '@']))
            .collect();
        let all: Vec<&String> = legal.iter().collect();
        let pool = if quiet.is_empty() { &all } else { &quiet };
        ensure!(!pool.is_empty(), "{} has no legal turn", self.to_move);
        Ok(pool[(v as usize * 7 + 3) % pool.len()].clone())
    }
}

/// A snapshot's turn list.
pub(crate) fn snapshot_turns(game: &Value) -> Res<Vec<TurnSeen>> {
    serde_json::from_value(game["turns"].clone()).map_err(|e| format!("snapshot turns: {e}"))
}
