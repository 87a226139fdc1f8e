//! The registry as one node of several (docs/SCALING.md): where a game runs is decided by its
//! ownership in Postgres. A game nobody runs (new, released, or its owner's lease expired) is
//! taken by the node that needs it first, which loads it by replaying its log; a game another
//! live node runs is reached through it. A node that loses its lease stops every game at once,
//! and a watchdog on every node takes over the unfinished games nobody runs.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use async_nats::Subscriber;
use futures_util::FutureExt;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::Registry;
use crate::cluster::commands_subject;
use crate::error::AppError;
use crate::game::link::GameLink;
use crate::game::remote::Remote;
use crate::store::{EventRow, Fence, GameRow, SeatRow, StoreError};

/// Unfinished games one node takes over per round of its watchdog (the others take theirs).
const ADOPT_PER_ROUND: u32 = 32;

impl Registry {
    /// [`get`](Registry::get) with several nodes.
    pub(super) async fn get_in_cluster(
        &self,
        id: Uuid,
        remote: &Arc<Remote>,
    ) -> Result<Option<GameLink>, AppError> {
        // Where it runs is read without the loading lock: most games another node runs are
        // reached at once, whatever this node is loading meanwhile.
        let Some(owner) = self.ctx.store.owner_of(id).await? else {
            return Ok(None);
        };
        let lease = remote.cluster.lease();
        let me = lease.id();
        if owner.alive && owner.node.as_deref() != Some(&*me) {
            return Ok(Some(GameLink::Remote(remote.game(id))));
        }
        let _loading = self.loading.lock().await;
        if let Some(handle) = self.cached(id) {
            return Ok(Some(GameLink::Local(handle)));
        }
        if !lease.is_valid() {
            return Err(cut_off());
        }
        let Some(epoch) = self.ctx.store.acquire(id, &me).await? else {
            // Another node took it in between: it runs it now.
            return Ok(Some(GameLink::Remote(remote.game(id))));
        };
        let fence = Fence { node: me, epoch };
        // The clock stood still while nobody ran the game: since its owner was last alive or
        // released it (or, for a game never run by a node, since a server alone last ran).
        let down_since = match (owner.ended, owner.idle_since) {
            (true, _) => None,
            (false, Some(at)) => Some(at),
            (false, None) => self.ctx.store.last_alive().await.ok().flatten(),
        };
        if owner.node.is_some() || owner.idle_since.is_some() {
            self.ctx.metrics.cluster_takeovers.fetch_add(1, Relaxed);
            tracing::info!(game = %id, epoch, previous = ?owner.node, "took the game over");
        }
        match self.load(id, down_since, Some(fence.clone())).await {
            Ok(found) => Ok(found.map(GameLink::Local)),
            Err(e) => {
                let _ = self.ctx.store.release(id, &fence).await;
                Err(e)
            }
        }
    }

    /// Stores a new game; with several nodes, owned by this node from the same transaction on
    /// (no other node can take it in between), under the returned fence.
    pub(super) async fn create_owned(
        &self,
        game: &GameRow,
        seats: &[SeatRow],
        events: &[EventRow],
    ) -> Result<Option<Fence>, AppError> {
        let me = self.remote.as_ref().map(|r| r.cluster.lease().id());
        match self
            .ctx
            .store
            .create_game(game, seats, events, me.as_deref())
            .await
        {
            Ok(epoch) => Ok(me.zip(epoch).map(|(node, epoch)| Fence { node, epoch })),
            Err(StoreError::NoLease) => Err(cut_off()),
            Err(e) => Err(e.into()),
        }
    }

    /// Refuses new games while this node holds no lease (it could not run them).
    pub(super) fn check_lease(&self) -> Result<(), AppError> {
        match &self.remote {
            Some(remote) if !remote.cluster.lease().is_valid() => Err(cut_off()),
            _ => Ok(()),
        }
    }

    /// Subscribes to a game's commands subject before its actor is known to anyone, after
    /// telling the sockets still on its previous owner to come back; refuses if the ownership
    /// is no longer this node's current one.
    pub(super) async fn serve_calls(
        &self,
        remote: &Remote,
        id: Uuid,
        fence: &Fence,
    ) -> Result<Subscriber, AppError> {
        let lease = remote.cluster.lease();
        if !lease.is_valid() || *lease.id() != *fence.node {
            return Err(AppError::Unavailable(
                "this server lost its lease; try again in a moment".into(),
            ));
        }
        let calls = remote.cluster.subscribe(commands_subject(id)).await;
        let flushed = remote.cluster.flush().await;
        match (calls, flushed) {
            (Ok(calls), Ok(())) => Ok(calls),
            _ => Err(AppError::Unavailable(
                "the cluster's message broker does not answer".into(),
            )),
        }
    }

    /// An owned game's actor, run until it stops (it then releases the game, so any node may
    /// take it at once) or until the node loses its lease (it is dropped where it stands, and
    /// releases nothing: the other nodes take the game once the lease has expired).
    pub(super) fn run_owned(
        &self,
        run: impl Future<Output = ()> + Send + 'static,
        id: Uuid,
        generation: u64,
        fence: Fence,
    ) -> impl Future<Output = ()> + Send + 'static {
        let stop = self.lease_stop.lock().expect("registry lock").child_token();
        let games = self.games.clone();
        let store = self.ctx.store.clone();
        async move {
            let stopped = tokio::select! {
                ended = AssertUnwindSafe(run).catch_unwind() => {
                    if ended.is_err() {
                        tracing::error!(game = %id, "the game's actor panicked");
                    }
                    true
                }
                _ = stop.cancelled() => false,
            };
            {
                let mut games = games.lock().expect("registry lock");
                if games.get(&id).is_some_and(|h| h.generation == generation) {
                    games.remove(&id);
                }
            }
            if stopped && let Err(e) = store.release(id, &fence).await {
                tracing::warn!(game = %id, error = %e, "could not release the game (it is taken over once this node's lease expires)");
            }
        }
    }

    /// The lease is lost: every game of this node stops now.
    pub fn stop_every_game(&self) {
        let old = std::mem::replace(
            &mut *self.lease_stop.lock().expect("registry lock"),
            CancellationToken::new(),
        );
        old.cancel();
    }

    /// Takes over up to `limit` unfinished games that nobody runs; returns how many.
    pub async fn adopt(&self, limit: u32) -> usize {
        let Some(remote) = &self.remote else {
            return 0;
        };
        if !remote.cluster.lease().is_valid() || self.closed.load(Relaxed) {
            return 0;
        }
        let orphans = match self.ctx.store.orphans(limit).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::debug!(error = %e, "could not look for games nobody runs");
                return 0;
            }
        };
        let mut taken = 0;
        for id in orphans {
            match self.get(id).await {
                Ok(Some(GameLink::Local(_))) => taken += 1,
                Ok(_) => {}
                Err(e) => tracing::debug!(game = %id, error = %e, "could not take the game over"),
            }
        }
        taken
    }

    /// With several nodes, at shutdown, once every actor has stopped: gives up whatever this
    /// node still owns and ends its lease, so the others take its games at once.
    pub(super) async fn leave_cluster(&self) {
        self.stopping.cancel();
        let Some(remote) = &self.remote else {
            return;
        };
        let me = remote.cluster.lease().id();
        if let Err(e) = self.ctx.store.release_all(&me).await {
            tracing::warn!(error = %e, "could not release this node's games");
        }
        remote.cluster.stop(&self.ctx.store).await;
    }
}

/// The watchdog of every node: a few times per lease, takes over a share of the unfinished games
/// nobody runs (their owner died, or released them), so they go on (bots move, clocks run)
/// even before a player comes back.
pub async fn adopt_orphans(registry: Arc<Registry>) {
    let Some(remote) = registry.remote().cloned() else {
        return;
    };
    let every = (remote.cluster.lease().duration() / 5).max(Duration::from_millis(200));
    loop {
        // Nodes polling at the same moment would race for the same games.
        let jitter = Duration::from_millis(u64::from(rand_u8()) * 2);
        tokio::select! {
            _ = registry.stopping.cancelled() => return,
            _ = tokio::time::sleep(every + jitter) => {}
        }
        let taken = registry.adopt(ADOPT_PER_ROUND).await;
        if taken > 0 {
            tracing::info!(games = taken, "took over games nobody ran");
        }
    }
}

/// Stops every game of this node the moment its lease is lost.
pub async fn stop_on_lease_loss(registry: Arc<Registry>) {
    let Some(remote) = registry.remote().cloned() else {
        return;
    };
    let mut losses = remote.cluster.lease().losses();
    loop {
        tokio::select! {
            _ = registry.stopping.cancelled() => return,
            changed = losses.changed() => {
                if changed.is_err() {
                    return;
                }
                registry.stop_every_game();
            }
        }
    }
}

/// This node holds no lease (Postgres is out of its reach): it can run no game for now.
fn cut_off() -> AppError {
    AppError::Unavailable("this server is cut off from the database; try again in a moment".into())
}

fn rand_u8() -> u8 {
    let mut byte = [0u8; 1];
    let _ = getrandom::fill(&mut byte);
    byte[0]
}
