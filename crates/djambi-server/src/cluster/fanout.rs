//! The fanout of a game this node owns among several: its messages go to this node's sockets
//! and, while sockets of other nodes are at the game, to its events subject (their nodes'
//! mirrors re-broadcast them); it keeps the game's presence digest current for every node's
//! lists, tells the sockets still on the game's previous owner to come here when it takes the
//! game, and forgets the sockets of a node that died without saying goodbye.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use async_nats::Subject;
use tokio::sync::broadcast;
use uuid::Uuid;

use super::digest;
use super::wire::encode;
use super::{Cluster, events_subject};
use crate::game::{Audience, Digest, Fanout, LocalFanout, Outbound, Presence, node_of};

/// How often the owner checks that the nodes of its remote sockets are still up.
const PURGE_EVERY: Duration = Duration::from_secs(2);

/// A game's fanout on the node that owns it.
pub struct ClusterFanout {
    local: LocalFanout,
    cluster: Arc<Cluster>,
    game: Uuid,
    events: Subject,
    /// The sockets of other nodes at this game.
    remote: HashSet<u64>,
    /// The digest last published.
    digest: Option<Digest>,
}

impl ClusterFanout {
    /// The fanout of game `game`, each local socket holding `buffer` messages.
    pub fn new(cluster: Arc<Cluster>, game: Uuid, buffer: usize) -> ClusterFanout {
        ClusterFanout {
            local: LocalFanout::new(buffer),
            cluster,
            game,
            events: events_subject(game),
            remote: HashSet::new(),
            digest: None,
        }
    }

    /// Publishes a message for the sockets of other nodes.
    fn publish(&self, outbound: &Outbound) {
        self.cluster.publish(self.events.clone(), encode(outbound));
    }
}

impl Fanout for ClusterFanout {
    fn send(&mut self, outbound: Outbound) -> usize {
        if !self.remote.is_empty() {
            self.publish(&outbound);
        }
        self.local.send(outbound)
    }

    fn subscribe(&self) -> broadcast::Receiver<Outbound> {
        self.local.subscribe()
    }

    fn joined(&mut self, conn: u64) {
        if node_of(conn) != self.cluster.tag() {
            self.remote.insert(conn);
        }
    }

    fn left(&mut self, conn: u64) {
        self.remote.remove(&conn);
    }

    fn check_every(&self) -> Option<Duration> {
        Some(PURGE_EVERY)
    }

    fn watching(&self) -> bool {
        !self.remote.is_empty()
    }

    /// The sockets of the nodes that stopped saying they are up (killed: their sockets never
    /// said goodbye); those nodes' sockets are told to reconnect, in case a node was only out
    /// of reach for a while.
    fn gone(&mut self) -> Vec<u64> {
        let peers = self.cluster.peers();
        let gone: Vec<u64> = self
            .remote
            .iter()
            .copied()
            .filter(|conn| !peers.alive(node_of(*conn)))
            .collect();
        let mut dead: Vec<u32> = gone.iter().map(|conn| node_of(*conn)).collect();
        dead.sort_unstable();
        dead.dedup();
        for tag in dead {
            tracing::info!(game = %self.game, node = format_args!("{tag:08x}"), "a node with sockets here is down: they are forgotten");
            self.publish(&Outbound::restarting(Audience::Node(tag)));
        }
        gone
    }

    fn presence(&mut self, presence: &Presence) {
        let now = Digest::of(presence);
        if self.digest != Some(now) {
            self.digest = Some(now);
            digest::publish(&self.cluster, self.game, Some(now));
        }
    }

    /// Tells the sockets of every node that were on this game's previous owner to reconnect:
    /// sent once, when this node takes the game (they join it here then, and resume).
    fn started(&mut self) {
        self.publish(&Outbound::restarting(Audience::All));
    }

    /// Lists no longer show presence for the game.
    fn unloaded(&mut self) {
        digest::publish(&self.cluster, self.game, None);
    }
}
