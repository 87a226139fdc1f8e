//! Several server nodes over one Postgres database and a NATS broker (docs/SCALING.md), after
//! lichess's lila + lila-ws split: each live game is run by exactly one node (its owner, which
//! holds the game's actor), the other nodes only forward their sockets' commands to it and fan
//! its events out to their sockets.
//!
//! Everything multi-node is here; the rest of the server runs the same with a node of several
//! as alone, through the game's ports:
//! - [`Cluster`]: the NATS connection, the subjects, one ordered publisher, requests;
//! - [`lease`]: the node's lease in Postgres, and stopping every game the moment it is lost;
//! - [`peers`]: which nodes are up, from their heartbeats on NATS (for presence only);
//! - [`ownership`]: the cluster's SQL (leases, which node owns which game, fencing epochs);
//! - [`site`]: where games run ([`ClusterSite`], the game's `Site`): owned here, or reached
//!   through their owner; adopting the games nobody runs;
//! - [`journal`] and [`fanout`]: the ports of a game this node owns (commits under its fence;
//!   messages to the other nodes' sockets, presence digests);
//! - [`remote`], [`owner`], [`mirror`], [`digest`]: the games other nodes own, reached over
//!   the one call vocabulary, their messages mirrored here, their presence for lists;
//! - [`wire`]: how all of it is encoded.

pub mod digest;
pub mod fanout;
pub mod journal;
pub mod lease;
pub mod mirror;
mod owner;
pub mod ownership;
pub mod peers;
pub mod remote;
pub mod site;
pub mod wire;

pub use site::{ClusterSite, check_alone};

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use async_nats::{Client, Subject, Subscriber};
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::metrics::Metrics;
use crate::store::Store;
use lease::Lease;
use ownership::Ownerships;
use peers::{HEARTBEAT_EVERY, Peers};

/// The subject every node's heartbeat goes to.
pub const NODES: &str = "djambi.nodes";
/// The subject of the games' presence digests (for game lists on every node).
pub const PRESENCE: &str = "djambi.presence";

/// The subject of a game's commands (request–reply, answered by its owner).
pub fn commands_subject(game: Uuid) -> Subject {
    Subject::from(format!("djambi.game.{game}.cmd"))
}

/// The subject of a game's events (published by its owner, for every node with its sockets).
pub fn events_subject(game: Uuid) -> Subject {
    Subject::from(format!("djambi.game.{game}.ev"))
}

/// Messages waiting for the publisher before new ones are dropped (a dropped event is a gap
/// the receiving sockets see, and catch up on).
const PUBLISH_QUEUE: usize = 65_536;

/// How a node joins the cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server.
    pub nats_url: String,
    /// The node's name (its id adds a tag and an incarnation).
    pub name: String,
    /// The lease.
    pub lease: Duration,
}

/// Why a node could not join.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached.
    #[error("NATS: {0}")]
    Nats(String),
    /// The first lease could not be taken.
    #[error("could not take the node's lease in the database")]
    Lease,
    /// The database could not be read.
    #[error("{0}")]
    Store(String),
    /// A server alone would share its database with nodes of a cluster.
    #[error("{0}")]
    NotAlone(String),
}

/// Why a request got no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestFailed {
    /// Nobody listens on the subject: the request was not delivered.
    NoResponders,
    /// No answer in time: it may or may not have been handled.
    TimedOut,
    /// NATS is not connected, or refused.
    Unavailable,
}

/// This node's link to the others.
pub struct Cluster {
    nats: Client,
    tag: u32,
    lease: Arc<Lease>,
    peers: Arc<Peers>,
    publisher: mpsc::Sender<(Subject, Bytes)>,
    metrics: Arc<Metrics>,
    /// Cancelled when the node leaves: ends its background tasks.
    stopping: CancellationToken,
    request_timeout: Duration,
    /// Tests only: commits go without their fence (to show what fencing prevents).
    unfenced: AtomicBool,
}

impl Cluster {
    /// Connects to NATS, takes the node's lease, and starts keeping both.
    pub async fn start(
        config: ClusterConfig,
        store: Store,
        metrics: Arc<Metrics>,
    ) -> Result<Arc<Cluster>, ClusterError> {
        let tag = loop {
            // Never 0: connection ids of a node alone have the prefix 0.
            let tag: u32 = rand_u32();
            if tag != 0 {
                break tag;
            }
        };
        let nats = async_nats::ConnectOptions::new()
            .name(format!("djambi-{}-{tag:08x}", config.name))
            .connection_timeout(Duration::from_secs(5))
            .event_callback(|event| async move {
                tracing::info!(%event, "NATS");
            })
            .connect(config.nats_url.as_str())
            .await
            .map_err(|e| ClusterError::Nats(e.to_string()))?;
        let lease = Arc::new(Lease::new(config.name.clone(), tag, config.lease));
        let owners = Ownerships::new(store);
        if !lease.renew(&owners).await {
            return Err(ClusterError::Lease);
        }
        let peers = Arc::new(Peers::new(tag, config.lease.max(Duration::from_secs(3))));
        let (publisher, queue) = mpsc::channel(PUBLISH_QUEUE);
        let stopping = CancellationToken::new();
        let heartbeats = nats
            .subscribe(NODES)
            .await
            .map_err(|e| ClusterError::Nats(e.to_string()))?;
        spawn_until(&stopping, publish(nats.clone(), queue));
        spawn_until(&stopping, lease.clone().keep(owners, metrics.clone()));
        spawn_until(&stopping, listen_heartbeats(heartbeats, peers.clone()));
        spawn_until(&stopping, send_heartbeats(nats.clone(), tag));
        tracing::info!(node = %lease.id(), tag = format_args!("{tag:08x}"), "joined the cluster");
        Ok(Arc::new(Cluster {
            nats,
            tag,
            lease,
            peers,
            publisher,
            metrics,
            stopping,
            request_timeout: Duration::from_secs(5),
            unfenced: AtomicBool::new(false),
        }))
    }

    /// The prefix of this node's connection ids (`tag << 32 | n`).
    pub fn tag(&self) -> u32 {
        self.tag
    }

    /// The node's lease.
    pub fn lease(&self) -> &Lease {
        &self.lease
    }

    /// The nodes that are up.
    pub fn peers(&self) -> &Peers {
        &self.peers
    }

    /// Whether commits carry their fence (always, but in the test that shows why).
    pub fn fencing(&self) -> bool {
        !self.unfenced.load(Relaxed)
    }

    /// Tests only: this node's commits go without their fence, as if fencing did not exist —
    /// for the test that shows a stale owner's commit landing without it.
    #[doc(hidden)]
    pub fn disable_fencing(&self) {
        self.unfenced.store(true, Relaxed);
    }

    /// Whether NATS is connected.
    pub fn connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Publishes, in order with every other message this node publishes (an owner's events go
    /// out before its answer to the command that made them). Never waits: when the queue is
    /// full the message is dropped and counted.
    pub fn publish(&self, subject: Subject, payload: Bytes) {
        if self.publisher.try_send((subject, payload)).is_err() {
            self.metrics.cluster_dropped.inc();
        } else {
            self.metrics.cluster_published.inc();
        }
    }

    /// Runs `task` in the background until the node leaves the cluster.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        spawn_until(&self.stopping, task);
    }

    /// Subscribes to a subject.
    pub async fn subscribe(&self, subject: Subject) -> Result<Subscriber, RequestFailed> {
        self.nats
            .subscribe(subject)
            .await
            .map_err(|_| RequestFailed::Unavailable)
    }

    /// Waits until NATS has seen everything sent before (a subscription is then in place).
    pub async fn flush(&self) -> Result<(), RequestFailed> {
        self.nats
            .flush()
            .await
            .map_err(|_| RequestFailed::Unavailable)
    }

    /// Sends a request and waits for its answer.
    pub async fn request(&self, subject: Subject, payload: Bytes) -> Result<Bytes, RequestFailed> {
        self.metrics.cluster_requests.inc();
        let asked = self.nats.request(subject, payload);
        match tokio::time::timeout(self.request_timeout, asked).await {
            Ok(Ok(message)) => Ok(message.payload),
            Ok(Err(e)) => Err(match e.kind() {
                async_nats::RequestErrorKind::NoResponders => RequestFailed::NoResponders,
                async_nats::RequestErrorKind::TimedOut => RequestFailed::TimedOut,
                _ => RequestFailed::Unavailable,
            }),
            Err(_) => Err(RequestFailed::TimedOut),
        }
    }

    /// Leaves the cluster: the lease ends now (the node's games were released before), and
    /// what was published is flushed.
    pub async fn stop(&self, store: &Store) {
        let id = self.lease.id();
        if let Err(e) = Ownerships::new(store.clone()).remove_node(&id).await {
            tracing::warn!(node = %id, error = %e, "could not end the lease (it expires by itself)");
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), self.nats.flush()).await;
        self.stopping.cancel();
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stopping.cancel();
    }
}

/// Runs `task` until `stopping` is cancelled.
fn spawn_until(stopping: &CancellationToken, task: impl Future<Output = ()> + Send + 'static) {
    let stopping = stopping.clone();
    tokio::spawn(async move {
        tokio::select! {
            _ = stopping.cancelled() => {}
            _ = task => {}
        }
    });
}

/// The one publisher: messages go to NATS in the order they were queued.
async fn publish(nats: Client, mut queue: mpsc::Receiver<(Subject, Bytes)>) {
    while let Some((subject, payload)) = queue.recv().await {
        if let Err(e) = nats.publish(subject, payload).await {
            tracing::debug!(error = %e, "could not publish");
        }
    }
}

async fn send_heartbeats(nats: Client, tag: u32) {
    let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
    loop {
        tick.tick().await;
        let _ = nats
            .publish(NODES, Bytes::copy_from_slice(&tag.to_le_bytes()))
            .await;
    }
}

async fn listen_heartbeats(mut heartbeats: Subscriber, peers: Arc<Peers>) {
    while let Some(message) = heartbeats.next().await {
        if let Ok(bytes) = <[u8; 4]>::try_from(message.payload.as_ref()) {
            peers.heard(u32::from_le_bytes(bytes));
        }
    }
}

/// A random 32-bit number from the operating system.
fn rand_u32() -> u32 {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).expect("the operating system's random numbers");
    u32::from_le_bytes(bytes)
}
