//! Presence digests: what game lists show of a game besides its stored summary (who is
//! connected, how many watch, when the running clock runs out), published by each game's owner
//! when it changes and kept by every node, so that any node lists any game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_nats::Subscriber;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::wire::{decode, encode};
use crate::cluster::{Cluster, PRESENCE};
use crate::game::Presence;
use crate::protocol::GameStatus;

/// A game's presence, as lists show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// Connections playing each seat (base order).
    pub seats: [u32; 4],
    /// Spectators.
    pub spectators: u32,
    /// When the running clock runs out (ms).
    pub deadline: Option<i64>,
    /// Open, live, finished, cancelled (as stored).
    status: u8,
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
            status: match presence.status() {
                GameStatus::Open => 0,
                GameStatus::Live => 1,
                GameStatus::Finished => 2,
                GameStatus::Cancelled => 3,
            },
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> GameStatus {
        match self.status {
            0 => GameStatus::Open,
            1 => GameStatus::Live,
            2 => GameStatus::Finished,
            _ => GameStatus::Cancelled,
        }
    }
}

/// What crosses NATS: a game's digest, or none once it is unloaded.
#[derive(Serialize, Deserialize)]
struct Published {
    game: [u8; 16],
    digest: Option<Digest>,
}

/// Publishes game `game`'s digest (`None`: its owner unloaded it).
pub fn publish(cluster: &Cluster, game: Uuid, digest: Option<Digest>) {
    let message = Published {
        game: *game.as_bytes(),
        digest,
    };
    cluster.publish(PRESENCE.into(), encode(&message));
}

/// The digests of every loaded game of the cluster.
#[derive(Default)]
pub struct Digests {
    map: Mutex<HashMap<Uuid, Digest>>,
}

impl Digests {
    /// The digest of `game`, if a node runs it.
    pub fn get(&self, game: Uuid) -> Option<Digest> {
        self.map.lock().expect("digests lock").get(&game).copied()
    }

    fn set(&self, game: Uuid, digest: Option<Digest>) {
        let mut map = self.map.lock().expect("digests lock");
        match digest {
            Some(d) => map.insert(game, d),
            None => map.remove(&game),
        };
    }

    /// Keeps the digests from what the owners publish.
    pub async fn listen(self: Arc<Self>, mut subscriber: Subscriber) {
        while let Some(message) = subscriber.next().await {
            if let Some(p) = decode::<Published>(&message.payload) {
                self.set(Uuid::from_bytes(p.game), p.digest);
            }
        }
    }
}
