//! Live games. Each game is owned by one task, its actor ([`actor`]): an `mpsc` inbox, `oneshot`
//! replies, and a `broadcast` of events serialised once for every recipient. The actor is the
//! only writer of its game, so commands are ordered without locks; it validates with the rules
//! engine, commits to the store, and only then tells anyone. The [`registry`] finds, creates,
//! loads and restores actors.

mod actor;
pub mod bots;
pub mod command;
mod handle;
pub mod history;
mod link;
mod registry;
pub mod remote;
pub mod state;
pub mod text;
pub mod view;

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU32, Ordering::Relaxed};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use djambi_core::{ArmySet, Player};

use crate::net::budget::Allowance;
use crate::protocol::GameStatus;
use crate::token::TokenHash;

pub use command::Action;
pub use handle::{
    AdminAction, AdminAnswer, AdminWhat, GameHandle, Gone, JoinError, JoinRequest, Joined, Reply,
};
pub use link::GameLink;
pub use registry::{
    BOTS_ONLY_TURN_LIMIT, NewGame, Registry, RegistryLimits, adopt_orphans, stop_on_lease_loss,
};
pub use state::table_level;

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
    /// For a player, the hash of the token it joined with: it plays the seat only while that
    /// is still the seat's token.
    pub token: Option<TokenHash>,
    /// A player who opened the spectators' room on this connection: spectators' messages reach
    /// it (closed by default; a spectator is always in the room).
    pub spectator_room: bool,
}

impl Viewer {
    /// What of the table talk this connection may read.
    pub fn sight(&self) -> ChatSight {
        ChatSight {
            seat: self.role.seat(),
            spectator_room: self.spectator_room || self.role == Role::Spectator,
        }
    }
}

/// What of the table talk a reader may see: its seat (none for a spectator or the public API)
/// and whether it is in the spectators' room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatSight {
    /// The reader's seat.
    pub seat: Option<Player>,
    /// Whether spectators' messages reach it.
    pub spectator_room: bool,
}

impl ChatSight {
    /// A spectator's sight (also the public API's).
    pub const SPECTATOR: ChatSight = ChatSight {
        seat: None,
        spectator_room: true,
    };
}

/// Who may receive a broadcast message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every connection.
    All,
    /// Only connections playing one of these seats (a whisper's two players).
    Players(ArmySet),
    /// Only connections playing this seat.
    Seat(Player),
    /// The spectators' room: spectators, and the players who opened it.
    Spectators,
    /// Only this connection.
    Conn(u64),
    /// Only the connections of the node with this tag (several nodes: connection ids are
    /// `tag << 32 | n`).
    Node(u32),
}

impl Audience {
    /// Whether the connection `viewer` receives it.
    pub fn admits(self, viewer: &Viewer) -> bool {
        match self {
            Audience::All => true,
            Audience::Players(set) => viewer.role.seat().is_some_and(|p| set.contains(p)),
            Audience::Seat(p) => viewer.role == Role::Player(p),
            Audience::Spectators => viewer.sight().spectator_room,
            Audience::Conn(conn) => viewer.conn == conn,
            Audience::Node(tag) => node_of(viewer.conn) == tag,
        }
    }
}

/// How a connection is closed after a message: a WebSocket close code and reason (one of
/// [`CLOSE_REASONS`]).
pub type Close = (u16, &'static str);

/// Every close reason a game gives its connections (nodes name them by their place here).
pub const CLOSE_REASONS: [&str; 3] = [
    "server restarting",
    "seat token replaced",
    "seat opened elsewhere",
];

/// The `restarting` message for `audience`, closing its recipients' sockets with 1012 (they
/// reconnect and resume).
pub fn restarting(audience: Audience) -> Outbound {
    let message = crate::protocol::ServerMessage::Restarting {
        message: "the server is restarting; reconnect in a moment".into(),
    };
    let text = serde_json::to_string(&message).expect("protocol messages serialise");
    Outbound {
        close: Some((axum::extract::ws::close_code::RESTART, "server restarting")),
        ..Outbound::new(Seq::None, audience, Utf8Bytes::from(text))
    }
}

/// The tag of the node a connection id belongs to (0 for a server alone).
pub fn node_of(conn: u64) -> u32 {
    (conn >> 32) as u32
}

/// Where a message stands in the game's version sequence (it crosses between nodes as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Whether its recipients' connections close after it (the server restarts, a seat's
    /// token was replaced, …).
    pub close: Option<Close>,
}

impl Outbound {
    /// A message for `audience` that closes nothing.
    pub fn new(seq: Seq, audience: Audience, text: Utf8Bytes) -> Outbound {
        Outbound {
            seq,
            audience,
            text,
            close: None,
        }
    }
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

/// Who is connected to a game and where it stands, readable without asking its actor (for
/// game lists and the per-address caps).
#[derive(Debug, Default)]
pub struct Presence {
    seats: [AtomicU32; 4],
    spectators: AtomicU32,
    status: AtomicU8,
    /// When the running clock runs out (ms; 0: no clock runs).
    deadline: AtomicI64,
    /// Whether a bot plays a living seat (for the per-address cap on games with bots).
    bots: AtomicBool,
}

impl Presence {
    /// Where the game stands.
    pub fn status(&self) -> GameStatus {
        match self.status.load(Relaxed) {
            0 => GameStatus::Open,
            1 => GameStatus::Live,
            2 => GameStatus::Finished,
            _ => GameStatus::Cancelled,
        }
    }

    /// When the player to move runs out of time (ms), in a timed game.
    pub fn deadline(&self) -> Option<i64> {
        Some(self.deadline.load(Relaxed)).filter(|d| *d != 0)
    }

    /// Whether a bot plays a living seat.
    pub fn bots(&self) -> bool {
        self.bots.load(Relaxed)
    }

    fn set_bots(&self, bots: bool) {
        self.bots.store(bots, Relaxed);
    }

    fn set_deadline(&self, deadline: Option<i64>) {
        self.deadline.store(deadline.unwrap_or(0), Relaxed);
    }

    fn set_status(&self, status: GameStatus) {
        let n = match status {
            GameStatus::Open => 0,
            GameStatus::Live => 1,
            GameStatus::Finished => 2,
            GameStatus::Cancelled => 3,
        };
        self.status.store(n, Relaxed);
    }

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
