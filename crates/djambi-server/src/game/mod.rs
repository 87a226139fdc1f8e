//! Live games. Each game is owned by one task, its actor ([`actor`]): an `mpsc` inbox, `oneshot`
//! replies, and a `broadcast` of events serialised once for every recipient. The actor is the
//! only writer of its game, so commands are ordered without locks; it validates with the rules
//! engine, commits to the store, and only then tells anyone. The [`registry`] finds, creates,
//! loads and restores actors.

mod actor;
mod command;
mod handle;
mod registry;
pub mod state;
pub mod view;

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use djambi_core::{ArmySet, Player};

pub use command::Action;
pub use handle::{GameHandle, Gone, JoinError, Joined, Reply};
pub use registry::{NewGame, Registry};

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It plays this seat.
    Player(Player),
    /// It watches.
    Spectator,
}

impl Role {
    /// The seat, for a player.
    pub fn seat(self) -> Option<Player> {
        match self {
            Role::Player(p) => Some(p),
            Role::Spectator => None,
        }
    }
}

/// A connection as its game knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewer {
    /// The connection's id (unique in the process).
    pub conn: u64,
    /// Its role.
    pub role: Role,
    /// The name it chats under.
    pub name: String,
}

/// Who may receive a broadcast message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every connection.
    All,
    /// Only connections playing one of these seats (a whisper's two players).
    Players(ArmySet),
    /// Every connection, which then closes (the server is restarting).
    AllThenClose,
}

impl Audience {
    /// Whether a connection with `role` receives it.
    pub fn admits(self, role: Role) -> bool {
        match self {
            Audience::All | Audience::AllThenClose => true,
            Audience::Players(set) => role.seat().is_some_and(|p| set.contains(p)),
        }
    }
}

/// Where a message stands in the game's version sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seq {
    /// Not versioned (chat, presence, acks, …).
    None,
    /// The event with this version.
    Event(u64),
    /// A snapshot at this version.
    Snapshot(u64),
}

/// One broadcast message, serialised once: every recipient gets the same bytes.
#[derive(Clone, Debug)]
pub struct Outbound {
    /// Its place among the versions.
    pub seq: Seq,
    /// Who may see it.
    pub audience: Audience,
    /// The JSON text.
    pub text: Utf8Bytes,
}

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
    /// Most connections on one game.
    pub max_connections_per_game: usize,
    /// Recent chat messages kept for snapshots.
    pub recent_chat: usize,
    /// How long a finished game with nobody connected stays loaded.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            replay_memory: 64,
            max_catchup: 1000,
            event_buffer: 128,
            max_chat_chars: 500,
            max_name_chars: 32,
            max_connections_per_game: 200,
            recent_chat: 100,
            idle: Duration::from_secs(300),
        }
    }
}

/// Who is connected to a game, readable without asking its actor (for game lists).
#[derive(Debug, Default)]
pub struct Presence {
    seats: [AtomicU32; 4],
    spectators: AtomicU32,
}

impl Presence {
    /// How many connections play `player`'s seat.
    pub fn seat(&self, player: Player) -> u32 {
        self.seats[player.index()].load(Relaxed)
    }

    /// How many spectators watch.
    pub fn spectators(&self) -> u32 {
        self.spectators.load(Relaxed)
    }

    /// All connections.
    pub fn total(&self) -> u32 {
        self.seats.iter().map(|s| s.load(Relaxed)).sum::<u32>() + self.spectators()
    }

    fn counter(&self, role: Role) -> &AtomicU32 {
        match role {
            Role::Player(p) => &self.seats[p.index()],
            Role::Spectator => &self.spectators,
        }
    }

    fn add(&self, role: Role) {
        self.counter(role).fetch_add(1, Relaxed);
    }

    fn remove(&self, role: Role) {
        let _ = self
            .counter(role)
            .fetch_update(Relaxed, Relaxed, |n| n.checked_sub(1));
    }
}

/// Checks a display name or chat text: trimmed, not empty, at most `max` characters, no control
/// characters. Returns the trimmed text or what is wrong (`Err(true)` when only too long).
pub fn clean_text(text: &str, max: usize) -> Result<&str, (bool, String)> {
    let text = text.trim();
    if text.is_empty() {
        return Err((false, "the text is empty".into()));
    }
    if text.chars().count() > max {
        return Err((true, format!("the text is longer than {max} characters")));
    }
    if text.chars().any(char::is_control) {
        return Err((false, "the text contains control characters".into()));
    }
    Ok(text)
}
