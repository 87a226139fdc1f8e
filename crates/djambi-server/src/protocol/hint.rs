//! A hint in a game ("show a good turn", `POST /api/games/{id}/hint`, PROTOCOL §2.4): the seat
//! token asks, the engine's turn for that seat answers.

use djambi_core::Player;
use serde::{Deserialize, Serialize};

/// `POST /api/games/{id}/hint`: the asking seat's token.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The seat token (the seat to move).
    pub token: String,
}

/// The engine's suggestion for the seat to move.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameHint {
    /// The turn, canonical.
    pub turn: String,
    /// The seat it is for.
    pub player: Player,
    /// The game's version it was thought at: it is stale once the game has moved on.
    pub v: u64,
}
