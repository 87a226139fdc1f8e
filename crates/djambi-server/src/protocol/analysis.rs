//! The engine's analysis of a finished game as the API answers it (`GET
//! /api/games/{id}/analysis`, PROTOCOL §2.3): while it is computed, its progress; once done,
//! each turn's verdict (the fields of `djambi analyse --json`, NOTATION §5) and every player's
//! chance of winning after each turn, for the replay's chart.

use djambi_core::Player;
use serde::{Serialize, Serializer};
use uuid::Uuid;

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Not asked for yet (answered only when asked not to start it).
    NotStarted,
    /// Waiting for its turn in the queue.
    Pending,
    /// Being computed.
    Running,
    /// Done and stored.
    Done,
}

/// An analysis not done yet: `{"status": "pending"|"running", "game", "done", "total"}` (`202`),
/// or `not_started` (`200`, when asked not to start it).
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisProgress {
    /// `pending`, `running` or `not_started`.
    pub status: AnalysisStatus,
    /// The game.
    pub game: Uuid,
    /// Turns analysed so far.
    pub done: u32,
    /// Turns to analyse (0 until it runs).
    pub total: u32,
}

/// A finished game's analysis (`200`).
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// Always `done`.
    pub status: AnalysisStatus,
    /// The game.
    pub game: Uuid,
    /// The value model that judged it (docs/ENGINE.md "Analysis").
    pub model: &'static str,
    /// Every player's chance at the start.
    pub start: Chances,
    /// Each turn that stands, in order (passes included; resignations and draws are not turns).
    pub turns: Vec<TurnVerdict>,
    /// Every player's chance after each turn: `chances[i]` is after `turns[i]`.
    pub chances: Vec<Chances>,
    /// Each army's accuracy over its turns, 0 to 100 (`null` for an army that played none).
    pub accuracy: [Option<f64>; 4],
}

/// The verdict on one turn: `djambi analyse --json`'s fields, with the turn's event version.
#[derive(Clone, Debug, Serialize)]
pub struct TurnVerdict {
    /// The version of the turn's event in the game's log (PROTOCOL §3.5).
    pub v: u64,
    /// The turn's number.
    pub turn: u32,
    /// Who played it.
    pub player: Player,
    /// The turn played, canonical.
    pub played: String,
    /// The engine's choice in the same position.
    pub best: String,
    /// The mover's chance of winning before its turn, 0 to 1 (what the turn before left it).
    #[serde(serialize_with = "four_decimals")]
    pub before: f64,
    /// The mover's chance of winning after the turn played, 0 to 1.
    #[serde(serialize_with = "four_decimals")]
    pub after: f64,
    /// The mover's chance after the engine's choice: what the best turn would have kept.
    #[serde(serialize_with = "four_decimals")]
    pub kept: f64,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub label: &'static str,
    /// The turn let the mover's chief be killed on the next turn when another turn would not
    /// have (the label is then `blunder`); left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chief: bool,
}

/// Each army's chance of winning, in army order (`r`, `b`, `y`, `g`; 0 for a hostage army or a
/// player out of the game), four decimals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances(pub [f64; 4]);

impl Serialize for Chances {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.map(round4).serialize(s)
    }
}

/// `x` to four decimals (enough for a chart; keeps the stored analysis small).
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn four_decimals<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round4(*x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Army;

    #[test]
    fn numbers_have_four_decimals_and_chief_only_when_true() {
        let verdict = TurnVerdict {
            v: 7,
            turn: 3,
            player: Army::Blue,
            played: "a9-a8".into(),
            best: "b8-c7".into(),
            before: 0.251_234_9,
            after: 0.1,
            kept: 0.3,
            label: "mistake",
            chief: false,
        };
        let json = serde_json::to_string(&verdict).unwrap();
        assert_eq!(
            json,
            r#"{"v":7,"turn":3,"player":"b","played":"a9-a8","best":"b8-c7","before":0.2512,"after":0.1,"kept":0.3,"label":"mistake"}"#
        );
        let json = serde_json::to_string(&TurnVerdict {
            chief: true,
            ..verdict
        })
        .unwrap();
        assert!(
            json.ends_with(r#""label":"mistake","chief":true}"#),
            "{json}"
        );
        let c = serde_json::to_string(&Chances([0.333_33, 0.666_67, 0.0, 1.0])).unwrap();
        assert_eq!(c, "[0.3333,0.6667,0.0,1.0]");
    }
}
