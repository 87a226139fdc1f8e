//! The game's life beyond the rules (PROTOCOL §6): bots and their levels, clocks and deadlines,
//! what a timeout does, votes on absent players and takebacks — as wire types. The options and
//! reasons are the table's own types, whose serde form is the wire's.

use djambi_core::{ArmySet, Player};
use serde::Serialize;

pub use crate::table::{
    BotLevel, BotReason, ClockSpec, OnTimeout, Rematch as RematchView, Settings, VoteAction,
};

/// A player's or the game's clock, as every state view carries it (times in milliseconds
/// since the Unix epoch, so a client corrects them with the server time of `pong`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockView {
    /// Live clocks.
    Live {
        /// Each player's time at the start, in seconds.
        initial_s: u32,
        /// The increment, in seconds.
        increment_s: u32,
        /// Each seat's time left at `since` (the running one's included), in ms.
        remaining_ms: SeatTimes,
        /// Whose clock runs (none: nobody's — the game has not started or is over, or a bot
        /// plays the seat to move).
        running: Option<Player>,
        /// When `remaining_ms` was measured.
        since: i64,
        /// When the running clock reaches zero (on a player's first turn: when its allowance
        /// ends).
        deadline: Option<i64>,
        /// The running player is on their first turn: their clock does not run yet.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        first_turn: bool,
    },
    /// A deadline per turn.
    Correspondence {
        /// Seconds each turn may take.
        per_turn_s: u32,
        /// Who must move before the deadline.
        running: Option<Player>,
        /// The deadline of the running turn.
        deadline: Option<i64>,
    },
}

/// A time per seat, in milliseconds (seats a game does not have are 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatTimes {
    /// Red.
    pub r: i64,
    /// Blue.
    pub b: i64,
    /// Yellow.
    pub y: i64,
    /// Green.
    pub g: i64,
}

impl SeatTimes {
    /// The times of `f` for each seat.
    pub fn from_fn(f: impl Fn(Player) -> i64) -> SeatTimes {
        use djambi_core::Army::*;
        SeatTimes {
            r: f(Red),
            b: f(Blue),
            y: f(Yellow),
            g: f(Green),
        }
    }
}

/// A vote on an absent player, while it is open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VoteView {
    /// Who opened it.
    pub by: Player,
    /// The absent player.
    pub target: Player,
    /// What it would do: `"action": "bot"` with the bot's `"level"`, or `"action": "resign"`.
    #[serde(flatten)]
    pub action: VoteAction,
    /// Who may vote (the living players connected when it opened, but the target).
    pub voters: Vec<Player>,
    /// Who voted yes.
    pub yes: Vec<Player>,
    /// Who voted no.
    pub no: Vec<Player>,
}

/// A pending takeback request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TakebackView {
    /// Who asks to take back their last turn.
    pub by: Player,
    /// Who agreed so far.
    pub accepted: Vec<Player>,
}

/// The players of a set, in base order.
pub fn players(set: ArmySet) -> Vec<Player> {
    set.iter().collect()
}
