//! The actor of a game this node owns among several nodes: its commits carry the fence of its
//! ownership, it publishes what it sends for the sockets of other nodes (only while some are
//! there), it keeps its game's presence digest current for every node's lists, and it forgets
//! the sockets of a node that died without saying goodbye.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_nats::Subject;

use super::Actor;
use crate::cluster::{Cluster, events_subject};
use crate::game::remote::digest::{self, Digest};
use crate::game::remote::wire::{self, WireOutbound};
use crate::game::{Audience, Outbound, Role, node_of, restarting};
use crate::store::Fence;

/// How often the owner checks that the nodes of its remote sockets are still up.
pub(super) const PURGE_EVERY: Duration = Duration::from_secs(2);

/// What an actor of a cluster node has.
pub(in crate::game) struct Owned {
    cluster: Arc<Cluster>,
    events: Subject,
    fence: Fence,
    /// The sockets of other nodes at this game: connection → role.
    viewers: HashMap<u64, Role>,
    /// The digest last published.
    digest: Option<Digest>,
    /// The game was taken by another node (a commit was fenced): the actor stops.
    pub(super) lost: bool,
}

impl Owned {
    /// The ownership of game `game` under `fence`.
    pub(in crate::game) fn new(cluster: Arc<Cluster>, game: uuid::Uuid, fence: Fence) -> Owned {
        Owned {
            cluster,
            events: events_subject(game),
            fence,
            viewers: HashMap::new(),
            digest: None,
            lost: false,
        }
    }

    /// Publishes a message for the sockets of other nodes.
    fn publish(&self, outbound: &Outbound) {
        self.cluster.publish(
            self.events.clone(),
            wire::encode(&WireOutbound::of(outbound)),
        );
    }
}

impl Actor {
    /// Runs the game as this node's, under `owned`.
    pub(in crate::game) fn owned(mut self, owned: Owned) -> Actor {
        self.owned = Some(owned);
        self
    }

    /// The fence of this node's ownership of the game (none for a node alone).
    pub(super) fn fence(&self) -> Option<Fence> {
        self.owned
            .as_ref()
            .filter(|o| o.cluster.fencing())
            .map(|o| o.fence.clone())
    }

    /// Whether the game was lost to another node.
    pub(super) fn lost(&self) -> bool {
        self.owned.as_ref().is_some_and(|o| o.lost)
    }

    /// A commit was refused: another node runs the game now.
    pub(super) fn lose(&mut self) {
        if let Some(owned) = &mut self.owned {
            tracing::warn!(game = %self.state.id, epoch = owned.fence.epoch, "another node took the game: this actor stops");
            owned.lost = true;
            self.ctx
                .metrics
                .cluster_fenced
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Sends `outbound` to the sockets of other nodes too, if some are at this game.
    pub(super) fn publish(&self, outbound: &Outbound) {
        if let Some(owned) = &self.owned
            && !owned.viewers.is_empty()
        {
            owned.publish(outbound);
        }
    }

    /// Tells the sockets of every node that were on this game's previous owner to reconnect:
    /// sent once, when this node takes the game (they join it here then, and resume).
    pub(super) fn announce_takeover(&self) {
        if let Some(owned) = &self.owned {
            owned.publish(&restarting(Audience::All));
        }
    }

    /// A connection joined: one of another node's is remembered, to publish for it and to
    /// forget it if its node dies.
    pub(super) fn remote_joined(&mut self, conn: u64, role: Role) {
        if let Some(owned) = &mut self.owned
            && node_of(conn) != owned.cluster.tag()
        {
            owned.viewers.insert(conn, role);
        }
    }

    /// A connection of another node left; its role, if it was at this game.
    pub(super) fn remote_left(&mut self, conn: u64) -> Option<Role> {
        self.owned.as_mut()?.viewers.remove(&conn)
    }

    /// Whether sockets of other nodes are at this game (their nodes are then checked).
    pub(super) fn has_remote_viewers(&self) -> bool {
        self.owned.as_ref().is_some_and(|o| !o.viewers.is_empty())
    }

    /// Forgets the sockets of the nodes that stopped saying they are up (killed: their sockets
    /// never said goodbye), and tells those nodes' sockets to reconnect in case a node was only
    /// out of reach for a while.
    pub(super) fn forget_dead_nodes(&mut self) {
        let Some(owned) = &self.owned else {
            return;
        };
        let peers = owned.cluster.peers();
        let gone: Vec<(u64, Role)> = owned
            .viewers
            .iter()
            .filter(|(conn, _)| !peers.alive(node_of(**conn)))
            .map(|(conn, role)| (*conn, *role))
            .collect();
        let mut dead: Vec<u32> = gone.iter().map(|(conn, _)| node_of(*conn)).collect();
        dead.sort_unstable();
        dead.dedup();
        for tag in dead {
            tracing::info!(game = %self.state.id, node = format_args!("{tag:08x}"), "a node with sockets here is down: they are forgotten");
            owned.publish(&restarting(Audience::Node(tag)));
        }
        for (conn, role) in gone {
            self.left(conn, role);
        }
    }

    /// Publishes the game's presence digest if it changed.
    pub(super) fn publish_digest(&mut self) {
        let now = Digest::of(&self.presence);
        let id = self.state.id;
        if let Some(owned) = &mut self.owned
            && owned.digest != Some(now)
        {
            owned.digest = Some(now);
            digest::publish(&owned.cluster, id, Some(now));
        }
    }

    /// The game is unloaded here: lists no longer show presence for it.
    pub(super) fn withdraw_digest(&self) {
        if let Some(owned) = &self.owned {
            digest::publish(&owned.cluster, self.state.id, None);
        }
    }
}
