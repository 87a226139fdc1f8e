//! Who is connected to a game and where it stands, readable without asking its actor (game
//! lists and the per-address caps read it; several nodes publish it as a digest).

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU32, Ordering::Relaxed};

use djambi_core::Player;

use crate::table::{GameStatus, Role};

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
    /// When the game was last asked for (ms): of the finished games loaded, the one asked for
    /// longest ago is unloaded first.
    used: AtomicI64,
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

    /// When the game was last asked for (ms).
    pub fn used(&self) -> i64 {
        self.used.load(Relaxed)
    }

    /// The game is asked for now.
    pub(super) fn touch(&self) {
        self.used.store(crate::clock::now_ms(), Relaxed);
    }

    /// Whether a bot plays a living seat.
    pub fn bots(&self) -> bool {
        self.bots.load(Relaxed)
    }

    pub(super) fn set_bots(&self, bots: bool) {
        self.bots.store(bots, Relaxed);
    }

    pub(super) fn set_deadline(&self, deadline: Option<i64>) {
        self.deadline.store(deadline.unwrap_or(0), Relaxed);
    }

    pub(super) fn set_status(&self, status: GameStatus) {
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

    pub(super) fn add(&self, role: Role) {
        self.counter(role).fetch_add(1, Relaxed);
    }

    pub(super) fn remove(&self, role: Role) {
        let _ = self
            .counter(role)
            .fetch_update(Relaxed, Relaxed, |n| n.checked_sub(1));
    }
}

/// A game's presence as lists show it, at a moment: what a node knows of a game another node
/// runs (its owner publishes it when it changes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Digest {
    /// Connections playing each seat (base order).
    pub seats: [u32; 4],
    /// Spectators.
    pub spectators: u32,
    /// When the running clock runs out (ms).
    pub deadline: Option<i64>,
    /// Where the game stands.
    pub status: GameStatus,
    /// Whether a bot plays a living seat.
    pub bots: bool,
}

impl Digest {
    /// The digest of a game's presence now.
    pub fn of(presence: &Presence) -> Digest {
        let mut seats = [0; 4];
        for p in djambi_core::Army::ALL {
            seats[p.index()] = presence.seat(p);
        }
        Digest {
            seats,
            spectators: presence.spectators(),
            deadline: presence.deadline(),
            status: presence.status(),
            bots: presence.bots(),
        }
    }
}
