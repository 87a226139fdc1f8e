//! The limits every game's actor applies.

use std::time::Duration;

use crate::net::budget::Allowance;

/// The limits an actor applies.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Recent events kept serialised in memory.
    pub replay_memory: usize,
    /// Most missed events sent instead of a snapshot.
    pub max_catchup: u64,
    /// Capacity of each game's broadcast.
    pub event_buffer: usize,
    /// Longest chat text, in characters.
    pub max_chat_chars: usize,
    /// Longest display name, in characters.
    pub max_name_chars: usize,
    /// Most spectator connections on one game.
    pub max_spectators: usize,
    /// Most connections playing one seat (a new one closes the oldest).
    pub max_sockets_per_seat: usize,
    /// Chat one game accepts from everyone together.
    pub game_chat: Allowance,
    /// Recent chat messages kept for snapshots.
    pub recent_chat: usize,
    /// How long a finished game with nobody connected stays loaded.
    pub idle: Duration,
    /// How long a player must be away on its turn before the others may vote on it.
    pub absent_grace: Duration,
    /// The shortest correspondence deadline a game may have.
    pub min_turn_deadline: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            replay_memory: 64,
            max_catchup: 1000,
            event_buffer: 128,
            max_chat_chars: 500,
            max_name_chars: 32,
            max_spectators: 1000,
            max_sockets_per_seat: 4,
            game_chat: Allowance {
                burst: 20,
                per_minute: 60,
            },
            recent_chat: 100,
            idle: Duration::from_secs(300),
            absent_grace: Duration::from_secs(120),
            min_turn_deadline: Duration::from_secs(3600),
        }
    }
}
