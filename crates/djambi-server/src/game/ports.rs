//! The actor's two ports: the [`Journal`] its commits go to, and the [`Fanout`] that sends what
//! was committed. A server alone has a local fanout (a broadcast to this node's sockets) and an
//! unfenced journal (the store); one node of several has the cluster's (`cluster`): a journal
//! whose commits carry the fence of this node's ownership of the game, and a fanout that also
//! publishes to the nodes with sockets on the game.

use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::broadcast;

use super::outbound::Outbound;
use super::presence::Presence;
use crate::store::{Commit, Store, StoreError};

/// Where a game's commits go.
pub trait Journal: Send + Sync {
    /// Commits one command's writes; returns once they are durable. [`StoreError::Fenced`]:
    /// the game is no longer this node's (its actor stops).
    fn commit(&self, commit: Commit) -> BoxFuture<'_, Result<(), StoreError>>;
}

/// The journal of a server alone: the store, as it is.
pub struct LocalJournal(pub Store);

impl Journal for LocalJournal {
    fn commit(&self, commit: Commit) -> BoxFuture<'_, Result<(), StoreError>> {
        self.0.commit(commit).boxed()
    }
}

/// Who hears a game's messages.
pub trait Fanout: Send {
    /// Sends a message to every connection of the game (each filters it by its audience);
    /// returns how many of this node's connections received it.
    fn send(&mut self, outbound: Outbound) -> usize;

    /// The game's messages from now on (a joining connection's).
    fn subscribe(&self) -> broadcast::Receiver<Outbound>;

    /// A connection (of any node) joined the game.
    fn joined(&mut self, _conn: u64) {}

    /// A connection (of any node) left the game.
    fn left(&mut self, _conn: u64) {}

    /// How often the actor asks for the connections whose node went away, while it
    /// [`watches`](Fanout::watching) (none: never).
    fn check_every(&self) -> Option<Duration> {
        None
    }

    /// Whether connections of other nodes are at the game (their nodes are then checked).
    fn watching(&self) -> bool {
        false
    }

    /// Of the game's connections, those whose node went away (they never said goodbye): the
    /// actor forgets them.
    fn gone(&mut self) -> Vec<u64> {
        Vec::new()
    }

    /// The game's presence changed (lists on every node show it).
    fn presence(&mut self, _presence: &Presence) {}

    /// The actor starts running the game here.
    fn started(&mut self) {}

    /// The actor unloads the game.
    fn unloaded(&mut self) {}
}

/// The fanout of a server alone: a broadcast to its sockets.
pub struct LocalFanout {
    tx: broadcast::Sender<Outbound>,
}

impl LocalFanout {
    /// A broadcast holding `buffer` messages per connection (a slower one resyncs).
    pub fn new(buffer: usize) -> LocalFanout {
        let (tx, _) = broadcast::channel(buffer.max(16));
        LocalFanout { tx }
    }
}

impl Fanout for LocalFanout {
    fn send(&mut self, outbound: Outbound) -> usize {
        self.tx.send(outbound).unwrap_or(0)
    }

    fn subscribe(&self) -> broadcast::Receiver<Outbound> {
        self.tx.subscribe()
    }
}

/// Something a seat should know while no socket of it is open (Web Push): sent once per event,
/// by the actor of the game's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alert {
    /// The game.
    pub game: uuid::Uuid,
    /// The seat told.
    pub seat: djambi_core::Player,
    /// What it should know.
    pub notice: crate::table::Notice,
}

/// Where the actor's alerts go (the push part's queue). `alert` never waits: a full queue
/// drops the alert (and counts it), so an alert never delays a commit.
pub trait Alerts: Send + Sync {
    /// Queues an alert.
    fn alert(&self, alert: Alert);
}
