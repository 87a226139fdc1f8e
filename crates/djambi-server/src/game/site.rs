//! Where games run: this node's place among the nodes ([`Site`]). A server alone runs every
//! game itself ([`LocalSite`]); one node of several (`cluster`) runs the games it owns and
//! reaches the others through their owners. The registry asks the site and never knows which.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use uuid::Uuid;

use super::error::GameError;
use super::handle::GameHandle;
use super::link::Game;
use super::ports::{Fanout, Journal, LocalFanout, LocalJournal};
use super::presence::Digest;
use crate::store::{GameRow, Store};
use crate::table::{Event, Seat};

/// Where a game that no actor of this node holds runs.
pub enum Whereabouts {
    /// There is no such game.
    Nowhere,
    /// Another node runs it.
    There(Game),
    /// Nobody runs it: this node may take it.
    Free,
}

/// What taking a game gave: this node runs it now, or another node took it in between.
pub enum Taken {
    /// This node runs it, under this tenancy.
    Here(Box<dyn Tenancy>),
    /// Another node runs it.
    There(Game),
}

/// What running a game here needs from the site: where its commits go, who else hears its
/// messages, and what holds the game while its actor runs.
pub trait Tenancy: Send {
    /// The journal of the game's commits.
    fn journal(&self) -> Arc<dyn Journal>;

    /// The game's fanout, each connection holding `buffer` messages.
    fn fanout(&self, buffer: usize) -> Box<dyn Fanout>;

    /// Since when the game's clock stood still (nobody ran it), if it did.
    fn down_since(&self) -> Option<i64>;

    /// Makes the game's actor reachable from other nodes, before anyone knows of it.
    fn host(&mut self, handle: &GameHandle) -> BoxFuture<'_, Result<(), GameError>>;

    /// Runs the actor to its end, then ends the tenancy (several nodes: the game is released).
    fn run(self: Box<Self>, actor: BoxFuture<'static, ()>) -> BoxFuture<'static, ()>;
}

/// What a site's own work does with the node's games: the registry, as the site sees it (the
/// registry implements it, so the site names no registry).
pub trait SiteGames: Send + Sync + 'static {
    /// Restores every unfinished game this node runs; how many.
    fn restore_all(&self) -> BoxFuture<'_, Result<usize, GameError>>;

    /// Takes game `id` over if nobody runs it (loading it here); whether this node runs it now.
    fn take_over(&self, id: Uuid) -> BoxFuture<'_, Result<bool, GameError>>;

    /// Whether the registry has stopped taking games (the server is shutting down).
    fn closed(&self) -> bool;
}

/// This node's place among the nodes.
pub trait Site: Send + Sync {
    /// Where game `id` runs, when no actor of this node holds it.
    fn locate(&self, id: Uuid) -> BoxFuture<'_, Result<Whereabouts, GameError>>;

    /// Takes game `id` to run it here (the registry holds its loading lock), unless another
    /// node took it in between.
    fn take(&self, id: Uuid) -> BoxFuture<'_, Result<Taken, GameError>>;

    /// Stores a new game with its seats and (imported) events; with several nodes, owned by
    /// this node from the same transaction on. Its tenancy here.
    fn create<'a>(
        &'a self,
        game: &'a GameRow,
        seats: &'a [Seat],
        events: &'a [Event],
    ) -> BoxFuture<'a, Result<Box<dyn Tenancy>, GameError>>;

    /// Whether this node can run new games now.
    fn accepts(&self) -> Result<(), GameError>;

    /// Whether this node can serve now, and why not (several nodes: connected to the broker,
    /// holding its lease).
    fn ready(&self) -> Result<(), &'static str>;

    /// Several nodes: whether this node's lease is valid now (none for a server alone).
    fn lease_valid(&self) -> Option<bool>;

    /// What lists show of a game another node runs.
    fn digest(&self, id: Uuid) -> Option<Digest>;

    /// How long a caller keeps asking for a game whose actor went away (its node may have
    /// died; another takes the game once that node's lease has expired).
    fn patience(&self) -> Duration;

    /// The first id of this node's connections (several nodes: its tag in the high bits).
    fn first_conn(&self) -> u64;

    /// Starts the site's own work on the node's games (its registry): a server alone restores
    /// its unfinished games; a node of several watches for games nobody runs and for the loss
    /// of its lease.
    fn start(&self, games: Arc<dyn SiteGames>) -> BoxFuture<'_, ()>;

    /// A sign of life, every second (a server alone: after a crash, clocks are paused from
    /// the last one).
    fn heartbeat(&self) -> BoxFuture<'_, ()>;

    /// The server stopped accepting, its games still run: a server alone records its last sign
    /// of life (downtime is counted from now); a node of several tells the sockets on games
    /// other nodes run to reconnect elsewhere.
    fn closing(&self) -> BoxFuture<'_, ()>;

    /// Every actor of this node has stopped: the site's last work.
    fn stop(&self) -> BoxFuture<'_, ()>;
}

/// A server alone: every game runs here.
pub struct LocalSite {
    store: Store,
    /// When the server was last seen alive before this start, while restoring: games restored
    /// then had their clocks stopped since.
    down_since: Mutex<Option<i64>>,
}

impl LocalSite {
    /// The site of a server alone on `store`.
    pub fn new(store: Store) -> LocalSite {
        LocalSite {
            store,
            down_since: Mutex::new(None),
        }
    }
}

/// A game run by a server alone.
struct LocalTenancy {
    journal: Arc<dyn Journal>,
    down_since: Option<i64>,
}

impl Tenancy for LocalTenancy {
    fn journal(&self) -> Arc<dyn Journal> {
        self.journal.clone()
    }

    fn fanout(&self, buffer: usize) -> Box<dyn Fanout> {
        Box::new(LocalFanout::new(buffer))
    }

    fn down_since(&self) -> Option<i64> {
        self.down_since
    }

    fn host(&mut self, _handle: &GameHandle) -> BoxFuture<'_, Result<(), GameError>> {
        async { Ok(()) }.boxed()
    }

    fn run(self: Box<Self>, actor: BoxFuture<'static, ()>) -> BoxFuture<'static, ()> {
        actor
    }
}

impl LocalSite {
    fn tenancy(&self, down_since: Option<i64>) -> Box<dyn Tenancy> {
        Box::new(LocalTenancy {
            journal: Arc::new(LocalJournal(self.store.clone())),
            down_since,
        })
    }
}

impl Site for LocalSite {
    fn locate(&self, _id: Uuid) -> BoxFuture<'_, Result<Whereabouts, GameError>> {
        // Whether it exists is known when it is loaded.
        async { Ok(Whereabouts::Free) }.boxed()
    }

    fn take(&self, _id: Uuid) -> BoxFuture<'_, Result<Taken, GameError>> {
        let down_since = *self.down_since.lock().expect("site lock");
        async move { Ok(Taken::Here(self.tenancy(down_since))) }.boxed()
    }

    fn create<'a>(
        &'a self,
        game: &'a GameRow,
        seats: &'a [Seat],
        events: &'a [Event],
    ) -> BoxFuture<'a, Result<Box<dyn Tenancy>, GameError>> {
        async move {
            self.store.create_game(game, seats, events).await?;
            Ok(self.tenancy(None))
        }
        .boxed()
    }

    fn accepts(&self) -> Result<(), GameError> {
        Ok(())
    }

    fn ready(&self) -> Result<(), &'static str> {
        Ok(())
    }

    fn lease_valid(&self) -> Option<bool> {
        None
    }

    fn digest(&self, _id: Uuid) -> Option<Digest> {
        None
    }

    fn patience(&self) -> Duration {
        Duration::ZERO
    }

    fn first_conn(&self) -> u64 {
        1
    }

    fn start(&self, games: Arc<dyn SiteGames>) -> BoxFuture<'_, ()> {
        async move {
            // The server's downtime, if it was down: running clocks are paused for it.
            let down_since = self.store.last_alive().await.ok().flatten();
            *self.down_since.lock().expect("site lock") = down_since;
            match games.restore_all().await {
                Ok(n) => tracing::info!(games = n, "unfinished games restored"),
                Err(e) => tracing::error!(error = %e, "could not list unfinished games"),
            }
            // Games loaded later (finished ones, on demand) had no clock running.
            *self.down_since.lock().expect("site lock") = None;
        }
        .boxed()
    }

    fn heartbeat(&self) -> BoxFuture<'_, ()> {
        async move {
            if let Err(e) = self.store.heartbeat(crate::clock::now_ms()).await {
                tracing::debug!(error = %e, "could not record the heartbeat");
            }
        }
        .boxed()
    }

    fn closing(&self) -> BoxFuture<'_, ()> {
        // The last sign of life, exact: downtime is counted from now.
        self.heartbeat()
    }

    fn stop(&self) -> BoxFuture<'_, ()> {
        async {}.boxed()
    }
}
