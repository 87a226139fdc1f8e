//! Mirrors: on a node with sockets on a game another node owns, one subscription to the game's
//! events subject, re-broadcast to those sockets exactly as the owner's own broadcast reaches
//! its local sockets (the same [`Outbound`] messages, filtered by each socket the same way). The
//! mirror lives as long as one socket holds it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use futures_util::StreamExt;
use tokio::sync::broadcast;
use uuid::Uuid;

use super::lease::AbortOnDrop;
use super::wire::decode;
use super::{Cluster, RequestFailed, events_subject};
use crate::game::{Audience, Outbound};

/// A game's events, as this node receives them from its owner.
pub struct Mirror {
    tx: broadcast::Sender<Outbound>,
    _forward: AbortOnDrop,
}

impl Mirror {
    /// A receiver of the game's messages from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Outbound> {
        self.tx.subscribe()
    }
}

/// The mirrors of this node, by game.
pub struct Mirrors {
    cluster: Arc<Cluster>,
    buffer: usize,
    map: Mutex<HashMap<Uuid, Weak<Mirror>>>,
}

impl Mirrors {
    /// No mirror yet; each will buffer `buffer` messages per socket, like a game's broadcast.
    pub fn new(cluster: Arc<Cluster>, buffer: usize) -> Mirrors {
        Mirrors {
            cluster,
            buffer: buffer.max(16),
            map: Mutex::new(HashMap::new()),
        }
    }

    fn existing(&self, game: Uuid) -> Option<Arc<Mirror>> {
        self.map
            .lock()
            .expect("mirrors lock")
            .get(&game)
            .and_then(Weak::upgrade)
    }

    /// The mirror of `game`, subscribed: NATS has the subscription before this returns, so a
    /// join asked for afterwards misses none of the game's events.
    pub async fn get(&self, game: Uuid) -> Result<Arc<Mirror>, RequestFailed> {
        if let Some(mirror) = self.existing(game) {
            return Ok(mirror);
        }
        let mut events = self.cluster.subscribe(events_subject(game)).await?;
        self.cluster.flush().await?;
        let (tx, _) = broadcast::channel(self.buffer);
        let sender = tx.clone();
        let forward = tokio::spawn(async move {
            while let Some(message) = events.next().await {
                if let Some(outbound) = decode::<Outbound>(&message.payload) {
                    // No socket listening right now is fine: the mirror is being dropped.
                    let _ = sender.send(outbound);
                }
            }
        });
        let mirror = Arc::new(Mirror {
            tx,
            _forward: AbortOnDrop(forward),
        });
        let mut map = self.map.lock().expect("mirrors lock");
        if let Some(theirs) = map.get(&game).and_then(Weak::upgrade) {
            // Another socket made one meanwhile: share it (ours unsubscribes when dropped).
            return Ok(theirs);
        }
        map.retain(|_, weak| weak.strong_count() > 0);
        map.insert(game, Arc::downgrade(&mirror));
        Ok(mirror)
    }

    /// The node is stopping: every socket on a mirrored game is told `restarting` and closed
    /// (its own games' sockets are told by their actors), so it reconnects to another node.
    pub fn close_all(&self) {
        let mirrors: Vec<Arc<Mirror>> = self
            .map
            .lock()
            .expect("mirrors lock")
            .values()
            .filter_map(Weak::upgrade)
            .collect();
        for mirror in mirrors {
            let _ = mirror.tx.send(Outbound::restarting(Audience::All));
        }
    }

    /// How many games this node mirrors now.
    pub fn len(&self) -> usize {
        self.map
            .lock()
            .expect("mirrors lock")
            .values()
            .filter(|w| w.strong_count() > 0)
            .count()
    }

    /// Whether this node mirrors no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
