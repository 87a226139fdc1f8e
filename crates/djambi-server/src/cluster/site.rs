//! One node of several (docs/SCALING.md): where a game runs is decided by its ownership in
//! Postgres. A game nobody runs (new, released, or its owner's lease expired) is taken by the
//! node that needs it first, which loads it by replaying its log; a game another live node runs
//! is reached through it. A node that loses its lease stops every game at once, and a watchdog
//! on every node takes over the unfinished games nobody runs.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::digest::Digests;
use super::fanout::ClusterFanout;
use super::journal::FencedJournal;
use super::mirror::Mirrors;
use super::ownership::Ownerships;
use super::remote::Remote;
use super::{Cluster, ClusterConfig, ClusterError, PRESENCE, commands_subject};
use crate::game::{
    Digest, Fanout, GameError, GameHandle, Journal, Site, SiteGames, Taken, Tenancy, Whereabouts,
};
use crate::metrics::Metrics;
use crate::store::{Fence, GameRow, Store, StoreError};
use crate::table::{Event, Seat};

/// Unfinished games one node takes over per round of its watchdog (the others take theirs).
const ADOPT_PER_ROUND: u32 = 32;

/// This node among the others.
pub struct ClusterSite {
    remote: Arc<Remote>,
    owners: Ownerships,
    metrics: Arc<Metrics>,
    /// Cancelled when the node's lease is lost (every game it runs stops), then replaced for
    /// the next incarnation.
    lease_stop: Arc<Mutex<CancellationToken>>,
    /// Cancelled at shutdown: ends the site's background work.
    stopping: CancellationToken,
}

impl ClusterSite {
    /// Joins the other nodes: NATS, the node's lease, and the presence digests of every game
    /// (each mirror of another node's game holds `buffer` messages per socket).
    pub async fn join(
        config: ClusterConfig,
        buffer: usize,
        store: Store,
        metrics: Arc<Metrics>,
    ) -> Result<ClusterSite, ClusterError> {
        let cluster = Cluster::start(config, store.clone(), metrics.clone()).await?;
        let digests = Arc::new(Digests::default());
        let presence = cluster.subscribe(PRESENCE.into()).await.map_err(|_| {
            ClusterError::Nats("could not subscribe to the presence digests".into())
        })?;
        cluster.spawn(digests.clone().listen(presence, cluster.clone()));
        let remote = Arc::new(Remote {
            mirrors: Mirrors::new(cluster.clone(), buffer),
            cluster,
            digests,
        });
        Ok(ClusterSite::new(remote, store, metrics))
    }

    /// Takes over up to `limit` unfinished games that nobody runs into `games` (the registry); returns how
    /// many (the watchdog does this a few times per lease).
    pub async fn adopt(&self, games: Arc<dyn SiteGames>, limit: u32) -> usize {
        self.watchdog(games).adopt(limit).await
    }

    fn watchdog(&self, games: Arc<dyn SiteGames>) -> Watchdog {
        Watchdog {
            games,
            owners: self.owners.clone(),
            cluster: self.cluster().clone(),
            stopping: self.stopping.clone(),
            lease_stop: self.lease_stop.clone(),
        }
    }

    /// How many games this node mirrors now (games other nodes own, with sockets here).
    pub fn mirrored(&self) -> usize {
        self.remote.mirrors.len()
    }

    /// The link to the other nodes.
    pub fn cluster(&self) -> &Arc<Cluster> {
        &self.remote.cluster
    }

    /// The site of a node joined to the cluster through `remote`.
    pub fn new(remote: Arc<Remote>, store: Store, metrics: Arc<Metrics>) -> ClusterSite {
        ClusterSite {
            remote,
            owners: Ownerships::new(store),
            metrics,
            lease_stop: Arc::new(Mutex::new(CancellationToken::new())),
            stopping: CancellationToken::new(),
        }
    }

    fn store(&self) -> &Store {
        self.owners.store()
    }

    /// The tenancy of a game this node owns under `fence`.
    fn tenancy(&self, id: Uuid, fence: Fence, down_since: Option<i64>) -> Box<dyn Tenancy> {
        Box::new(Owned {
            id,
            journal: Arc::new(FencedJournal::new(
                self.store().clone(),
                fence.clone(),
                self.cluster().clone(),
            )),
            fence,
            down_since,
            cluster: self.cluster().clone(),
            owners: self.owners.clone(),
            stop: self.lease_stop.lock().expect("site lock").child_token(),
        })
    }
}

impl Site for ClusterSite {
    fn locate(&self, id: Uuid) -> BoxFuture<'_, Result<Whereabouts, GameError>> {
        async move {
            let Some(owner) = self.owners.owner_of(id).await? else {
                return Ok(Whereabouts::Nowhere);
            };
            let me = self.cluster().lease().id();
            if owner.alive && owner.node.as_deref() != Some(&*me) {
                return Ok(Whereabouts::There(self.remote.game(id)));
            }
            Ok(Whereabouts::Free)
        }
        .boxed()
    }

    fn take(&self, id: Uuid) -> BoxFuture<'_, Result<Taken, GameError>> {
        async move {
            let lease = self.cluster().lease();
            if !lease.is_valid() {
                return Err(cut_off());
            }
            let me = lease.id();
            let owner = self.owners.owner_of(id).await?;
            let Some(epoch) = self.owners.acquire(id, &me).await? else {
                // Another node took it in between: it runs it now.
                return Ok(Taken::There(self.remote.game(id)));
            };
            let fence = Fence { node: me, epoch };
            // The clock stood still while nobody ran the game: since its owner was last alive
            // or released it (or, for a game never run by a node, since a server alone last
            // ran).
            let down_since = match owner.as_ref().map(|o| (o.ended, o.idle_since)) {
                Some((true, _)) => None,
                Some((false, Some(at))) => Some(at),
                _ => self.store().last_alive().await.ok().flatten(),
            };
            if let Some(owner) = &owner
                && (owner.node.is_some() || owner.idle_since.is_some())
            {
                self.metrics.cluster_takeovers.inc();
                tracing::info!(game = %id, epoch, previous = ?owner.node, "took the game over");
            }
            Ok(Taken::Here(self.tenancy(id, fence, down_since)))
        }
        .boxed()
    }

    fn create<'a>(
        &'a self,
        game: &'a GameRow,
        seats: &'a [Seat],
        events: &'a [Event],
    ) -> BoxFuture<'a, Result<Box<dyn Tenancy>, GameError>> {
        async move {
            let me = self.cluster().lease().id();
            let created = self.owners.create_owned(game, seats, events, &me).await;
            match created {
                Ok(epoch) => Ok(self.tenancy(game.id, Fence { node: me, epoch }, None)),
                Err(StoreError::NoLease) => Err(cut_off()),
                Err(e) => Err(e.into()),
            }
        }
        .boxed()
    }

    fn accepts(&self) -> Result<(), GameError> {
        if self.cluster().lease().is_valid() {
            Ok(())
        } else {
            Err(cut_off())
        }
    }

    fn ready(&self) -> Result<(), &'static str> {
        if !self.cluster().connected() {
            return Err("the message broker does not answer");
        }
        if !self.cluster().lease().is_valid() {
            return Err("this node holds no lease");
        }
        Ok(())
    }

    fn lease_valid(&self) -> Option<bool> {
        Some(self.cluster().lease().is_valid())
    }

    fn digest(&self, id: Uuid) -> Option<Digest> {
        self.remote.digests.get(id)
    }

    fn patience(&self) -> Duration {
        self.cluster().lease().duration() + Duration::from_secs(3)
    }

    fn first_conn(&self) -> u64 {
        // Connection ids are unique over the cluster: the node's tag in the high bits.
        u64::from(self.cluster().tag()) << 32 | 1
    }

    fn start(&self, games: Arc<dyn SiteGames>) -> BoxFuture<'_, ()> {
        let watchdog = self.watchdog(games);
        tokio::spawn(watchdog.clone().adopt_orphans());
        tokio::spawn(watchdog.stop_on_lease_loss());
        async {}.boxed()
    }

    fn heartbeat(&self) -> BoxFuture<'_, ()> {
        // Each node has its lease instead.
        async {}.boxed()
    }

    fn closing(&self) -> BoxFuture<'_, ()> {
        // Sockets on games other nodes run hear it from here, not from an actor of this node.
        self.remote.mirrors.close_all();
        async {}.boxed()
    }

    /// Once every actor has stopped: gives up whatever this node still owns and ends its
    /// lease, so the others take its games at once.
    fn stop(&self) -> BoxFuture<'_, ()> {
        async move {
            self.stopping.cancel();
            let me = self.cluster().lease().id();
            if let Err(e) = self.owners.release_all(&me).await {
                tracing::warn!(error = %e, "could not release this node's games");
            }
            self.cluster().stop(self.store()).await;
        }
        .boxed()
    }
}

/// A game this node owns.
struct Owned {
    id: Uuid,
    journal: Arc<FencedJournal>,
    fence: Fence,
    down_since: Option<i64>,
    cluster: Arc<Cluster>,
    owners: Ownerships,
    /// Cancelled when the node's lease is lost.
    stop: CancellationToken,
}

impl Tenancy for Owned {
    fn journal(&self) -> Arc<dyn Journal> {
        self.journal.clone()
    }

    fn fanout(&self, buffer: usize) -> Box<dyn Fanout> {
        Box::new(ClusterFanout::new(self.cluster.clone(), self.id, buffer))
    }

    fn down_since(&self) -> Option<i64> {
        self.down_since
    }

    /// Subscribes to the game's commands subject before its actor is known to anyone; refuses
    /// if the ownership is no longer this node's current one.
    fn host(&mut self, handle: &GameHandle) -> BoxFuture<'_, Result<(), GameError>> {
        let handle = handle.clone();
        async move {
            let lease = self.cluster.lease();
            if !lease.is_valid() || *lease.id() != *self.fence.node {
                return Err(GameError::Unavailable(
                    "this server lost its lease; try again in a moment".into(),
                ));
            }
            let calls = self.cluster.subscribe(commands_subject(self.id)).await;
            let flushed = self.cluster.flush().await;
            match (calls, flushed) {
                (Ok(calls), Ok(())) => {
                    tokio::spawn(super::owner::serve(calls, handle, self.cluster.clone()));
                    Ok(())
                }
                _ => Err(GameError::Unavailable(
                    "the cluster's message broker does not answer".into(),
                )),
            }
        }
        .boxed()
    }

    /// Runs the actor until it stops (it then releases the game, so any node may take it at
    /// once) or until the node loses its lease (it is dropped where it stands, and releases
    /// nothing: the other nodes take the game once the lease has expired).
    fn run(self: Box<Self>, actor: BoxFuture<'static, ()>) -> BoxFuture<'static, ()> {
        let Owned {
            id,
            fence,
            owners,
            stop,
            ..
        } = *self;
        async move {
            let stopped = tokio::select! {
                ended = AssertUnwindSafe(actor).catch_unwind() => {
                    if ended.is_err() {
                        tracing::error!(game = %id, "the game's actor panicked");
                    }
                    true
                }
                _ = stop.cancelled() => false,
            };
            if stopped && let Err(e) = owners.release(id, &fence).await {
                tracing::warn!(game = %id, error = %e, "could not release the game (it is taken over once this node's lease expires)");
            }
        }
        .boxed()
    }
}

/// The node's background work over its registry.
#[derive(Clone)]
struct Watchdog {
    games: Arc<dyn SiteGames>,
    owners: Ownerships,
    cluster: Arc<Cluster>,
    stopping: CancellationToken,
    lease_stop: Arc<Mutex<CancellationToken>>,
}

impl Watchdog {
    /// A few times per lease, takes over a share of the unfinished games nobody runs (their
    /// owner died, or released them), so they go on (bots move, clocks run) even before a
    /// player comes back.
    async fn adopt_orphans(self) {
        let every = (self.cluster.lease().duration() / 5).max(Duration::from_millis(200));
        loop {
            // Nodes polling at the same moment would race for the same games.
            let jitter = Duration::from_millis(u64::from(rand_u8()) * 2);
            tokio::select! {
                _ = self.stopping.cancelled() => return,
                _ = tokio::time::sleep(every + jitter) => {}
            }
            let taken = self.adopt(ADOPT_PER_ROUND).await;
            if taken > 0 {
                tracing::info!(games = taken, "took over games nobody ran");
            }
        }
    }

    /// Takes over up to `limit` unfinished games that nobody runs; returns how many.
    async fn adopt(&self, limit: u32) -> usize {
        if !self.cluster.lease().is_valid() || self.games.closed() {
            return 0;
        }
        let orphans = match self.owners.orphans(limit).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::debug!(error = %e, "could not look for games nobody runs");
                return 0;
            }
        };
        let mut taken = 0;
        for id in orphans {
            match self.games.take_over(id).await {
                Ok(true) => taken += 1,
                Ok(false) => {}
                Err(e) => tracing::debug!(game = %id, error = %e, "could not take the game over"),
            }
        }
        taken
    }

    /// Stops every game of this node the moment its lease is lost.
    async fn stop_on_lease_loss(self) {
        let mut losses = self.cluster.lease().losses();
        loop {
            tokio::select! {
                _ = self.stopping.cancelled() => return,
                changed = losses.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let old = std::mem::replace(
                        &mut *self.lease_stop.lock().expect("site lock"),
                        CancellationToken::new(),
                    );
                    old.cancel();
                }
            }
        }
    }
}

/// This node holds no lease (Postgres is out of its reach): it can run no game for now.
fn cut_off() -> GameError {
    GameError::Unavailable("this server is cut off from the database; try again in a moment".into())
}

fn rand_u8() -> u8 {
    let mut byte = [0u8; 1];
    let _ = getrandom::fill(&mut byte);
    byte[0]
}

/// A server without `--nats` must be alone on its database: nodes of a cluster running there
/// would run the same games a second time.
pub async fn check_alone(store: &Store) -> Result<(), ClusterError> {
    if store.backend() != crate::store::Backend::Postgres {
        return Ok(());
    }
    let nodes = Ownerships::new(store.clone())
        .live_nodes()
        .await
        .map_err(|e| ClusterError::Store(e.to_string()))?;
    if nodes.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = nodes.iter().map(|(id, _)| id.as_str()).collect();
    Err(ClusterError::NotAlone(format!(
        "{} cluster node(s) run on this database ({}): a server without --nats would run their \
         games a second time; start it with --nats to join them",
        nodes.len(),
        names.join(", ")
    )))
}
