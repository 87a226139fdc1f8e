//! A game's options beyond the ruleset, chosen at its creation and stored with it: the clock,
//! what a timeout does, the level of the bots that take seats over, how long bots think,
//! whether spectators read the players' chat, and whether hints are allowed. Their serde form
//! is the one the API and the database use.

use std::fmt;

use djambi_engine::Level;
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// A bot level as text: `"random"`, `"beginner"`, `"easy"`, `"medium"` or `"hard"`.
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

/// How a game is timed (`null` is a casual game without a clock).
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
    /// Whether every seat may ask the engine for a good turn ("show a good turn"), set by the
    /// creator and shown to everyone; left out when false. Without it, only a seat whose every
    /// living opponent is a bot may ask (`table::hint`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// Serde's default for a flag that is on unless said.
pub fn yes() -> bool {
    true
}

/// Whether a flag that is on unless said is on (it goes without saying).
pub fn is_yes(b: &bool) -> bool {
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
            hints: false,
        }
    }
}
