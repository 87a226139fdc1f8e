//! The game's life beyond the rules (PROTOCOL §6): bots and their levels, clocks and deadlines,
//! what a timeout does, votes on absent players and takebacks — as wire types.

use std::fmt;

use djambi_core::{ArmySet, Player};
use djambi_engine::Level;
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// A bot level on the wire: `"random"`, `"beginner"`, `"easy"`, `"medium"` or `"hard"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BotLevel(pub Level);

impl Serialize for BotLevel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

impl<'de> Deserialize<'de> for BotLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BotLevel, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(BotLevel).map_err(de::Error::custom)
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// How a game is timed (`CreateGame.clock`; `null` is a casual game without a clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClockSpec {
    /// A clock per player that runs only on its own turns, with a Fischer increment.
    Live {
        /// Each player's time at the start, in seconds.
        initial_s: u32,
        /// Seconds added after each of the player's turns.
        #[serde(default)]
        increment_s: u32,
    },
    /// A deadline for each turn.
    Correspondence {
        /// Seconds each turn may take.
        per_turn_s: u32,
    },
}

/// The rematch a finished game's people were offered: a new game from the same start, the same
/// people and bots with the seats rotated (each seat to the next in base order). A person
/// joins their new seat with the token of their old one (PROTOCOL §6.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchView {
    /// The new game.
    pub game: uuid::Uuid,
    /// Who asked for it.
    pub by: Player,
    /// Each old seat's seat in the new game.
    pub seats: std::collections::BTreeMap<Player, Player>,
}

/// What happens when a player's clock or deadline runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The player resigns (R9.6).
    Resign,
    /// A bot plays the seat from then on (until its player asks for it back).
    Bot,
}

/// A game's options beyond the ruleset, as stored with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// What a timeout does.
    pub on_timeout: OnTimeout,
    /// The level of the bot that takes over a seat (timeouts and votes).
    pub takeover_level: BotLevel,
    /// How long each bot thinks, in milliseconds.
    pub bot_movetime_ms: u32,
    /// Whether spectators read the players' public chat (the creator may keep it to the
    /// table); left out when true.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub players_chat_public: bool,
}

/// Serde's default for a flag that is on unless said.
pub(crate) fn yes() -> bool {
    true
}

/// Whether a flag that is on unless said is on (it goes without saying).
pub(crate) fn is_yes(b: &bool) -> bool {
    *b
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            clock: None,
            on_timeout: OnTimeout::Resign,
            takeover_level: BotLevel(Level::Medium),
            bot_movetime_ms: 1000,
            players_chat_public: true,
        }
    }
}

/// Why a bot plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BotReason {
    /// The creator gave the seat to a bot.
    Creator,
    /// The player's clock or deadline ran out.
    Timeout,
    /// The other players voted, the player being away.
    Vote,
}

impl BotReason {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            BotReason::Creator => "creator",
            BotReason::Timeout => "timeout",
            BotReason::Vote => "vote",
        }
    }

    /// Parses [`as_str`](BotReason::as_str)'s output.
    pub fn parse(s: &str) -> Option<BotReason> {
        match s {
            "creator" => Some(BotReason::Creator),
            "timeout" => Some(BotReason::Timeout),
            "vote" => Some(BotReason::Vote),
            _ => None,
        }
    }
}

/// What a vote on an absent player would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteAction {
    /// Hand the seat to a bot of this level.
    Bot(Level),
    /// Make the player resign.
    Resign,
}

impl VoteAction {
    /// As stored (`bot:medium`, `resign`).
    pub fn to_text(self) -> String {
        match self {
            VoteAction::Bot(level) => format!("bot:{level}"),
            VoteAction::Resign => "resign".into(),
        }
    }

    /// Parses [`to_text`](VoteAction::to_text)'s output.
    pub fn parse(s: &str) -> Option<VoteAction> {
        match s.split_once(':') {
            Some(("bot", level)) => level.parse().ok().map(VoteAction::Bot),
            None if s == "resign" => Some(VoteAction::Resign),
            _ => None,
        }
    }
}

impl Serialize for VoteAction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            VoteAction::Bot(_) => "bot",
            VoteAction::Resign => "resign",
        })
    }
}

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
    /// What it would do.
    pub action: VoteAction,
    /// The level of the bot, for `action: "bot"`.
    pub level: Option<BotLevel>,
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
