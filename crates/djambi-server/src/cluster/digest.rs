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
use super::{Cluster, PRESENCE};
use crate::game::Digest;

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
