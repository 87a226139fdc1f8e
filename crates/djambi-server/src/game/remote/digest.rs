//! Presence digests: what game lists show of a game besides its stored summary (who is
//! connected, how many watch, when the running clock runs out), published by each game's owner
//! when it changes and kept by every node, so that any node lists any game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
            status: match presence.status() {
                GameStatus::Open => 0,
                GameStatus::Live => 1,
                GameStatus::Finished => 2,
                GameStatus::Cancelled => 3,
            },
            bots: presence.bots(),
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

/// What crosses NATS: a game's digest, or none once it is unloaded, and its owner's tag.
#[derive(Serialize, Deserialize)]
struct Published {
    game: [u8; 16],
    digest: Option<Digest>,
    owner: u32,
}

/// Publishes game `game`'s digest (`None`: its owner unloaded it).
pub fn publish(cluster: &Cluster, game: Uuid, digest: Option<Digest>) {
    let message = Published {
        game: *game.as_bytes(),
        digest,
        owner: cluster.tag(),
    };
    cluster.publish(PRESENCE.into(), encode(&message));
}

/// How often the digests of games whose owner died are dropped.
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// The digests of every loaded game of the cluster, with their owner's tag.
#[derive(Default)]
pub struct Digests {
    map: Mutex<HashMap<Uuid, (Digest, u32)>>,
}

impl Digests {
    /// The digest of `game`, if a node runs it.
    pub fn get(&self, game: Uuid) -> Option<Digest> {
        let map = self.map.lock().expect("digests lock");
        map.get(&game).map(|(digest, _)| *digest)
    }

    fn set(&self, game: Uuid, digest: Option<Digest>, owner: u32) {
        let mut map = self.map.lock().expect("digests lock");
        match digest {
            Some(d) => map.insert(game, (d, owner)),
            None => map.remove(&game),
        };
    }

    /// Keeps the digests from what the owners publish; forgets those of owners that died (a
    /// game taken over is published again by its new owner).
    pub async fn listen(self: Arc<Self>, mut subscriber: Subscriber, cluster: Arc<Cluster>) {
        let mut sweep = tokio::time::interval(SWEEP_EVERY);
        loop {
            tokio::select! {
                message = subscriber.next() => {
                    let Some(message) = message else {
                        return;
                    };
                    if let Some(p) = decode::<Published>(&message.payload) {
                        self.set(Uuid::from_bytes(p.game), p.digest, p.owner);
                    }
                }
                _ = sweep.tick() => {
                    let peers = cluster.peers();
                    let mut map = self.map.lock().expect("digests lock");
                    map.retain(|_, (_, owner)| peers.alive(*owner));
                }
            }
        }
    }
}
