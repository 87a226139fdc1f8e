//! The registry of live games: finds a game's actor, loading the game from the store (by
//! replaying its log) when no actor holds it; creates and imports games; restores every
//! unfinished game at start-up; stops every actor at shutdown. With several nodes
//! ([`cluster`]), a game runs where its ownership is: here (taken first, then loaded), or on
//! another node, which the registry then forwards to.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;
use uuid::Uuid;

mod cluster;
mod create;
mod list;

pub use cluster::{adopt_orphans, stop_on_lease_loss};
pub use create::{BOTS_ONLY_TURN_LIMIT, NewGame, fresh_seed};

use super::actor::{Actor, Context, Owned};
use super::bots::BotPool;
use super::handle::{AdminAction, AdminAnswer, GameHandle, Gone};
use super::link::GameLink;
use super::remote::Remote;
use super::state::GameState;
use super::{Limits, Presence};
use crate::clock::now_ms;
use crate::error::AppError;
use crate::metrics::Metrics;
use crate::net::IpKey;
use crate::protocol::GameStatus;
use crate::store::{Fence, Store};

/// Commands waiting in an actor's inbox before senders wait.
const INBOX: usize = 256;

/// The caps on unfinished games.
#[derive(Clone, Copy, Debug)]
pub struct RegistryLimits {
    /// Unfinished games in all.
    pub max_live_games: usize,
    /// Unfinished games created by one address.
    pub max_games_per_ip: usize,
    /// Games waiting for players created by one address.
    pub max_open_games_per_ip: usize,
    /// Unfinished games with bots created by one address.
    pub max_bot_games_per_ip: usize,
}

/// What one address has going on.
#[derive(Clone, Copy, Debug, Default)]
struct AddressGames {
    /// Open and live games.
    unfinished: usize,
    /// Games waiting for players.
    open: usize,
    /// Unfinished games in which a bot plays.
    with_bots: usize,
}

/// The registry.
pub struct Registry {
    games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    /// Held while a game is loaded, so one game never gets two actors.
    loading: tokio::sync::Mutex<()>,
    ctx: Arc<Context>,
    tasks: TaskTracker,
    generation: AtomicU64,
    closed: AtomicBool,
    limits: RegistryLimits,
    /// The unfinished games each address created (since this process started).
    creators: Mutex<HashMap<IpKey, Vec<Uuid>>>,
    base_url: String,
    /// When the server was last seen alive before this start: games restored now had their
    /// clocks stopped since.
    down_since: Mutex<Option<i64>>,
    /// With several nodes: the way to the others.
    remote: Option<Arc<Remote>>,
    /// With several nodes: cancelled when the node's lease is lost (every game it runs stops),
    /// then replaced for the next incarnation.
    lease_stop: Mutex<CancellationToken>,
    /// Cancelled at shutdown: ends the registry's own background work.
    stopping: CancellationToken,
}

impl Registry {
    /// A registry over `store`.
    pub fn new(
        store: Store,
        metrics: Arc<Metrics>,
        limits: Limits,
        caps: RegistryLimits,
        base_url: String,
        bots: Arc<BotPool>,
    ) -> Registry {
        let games = Arc::new(Mutex::new(HashMap::new()));
        Registry {
            games: games.clone(),
            loading: tokio::sync::Mutex::new(()),
            ctx: Arc::new(Context {
                store,
                metrics,
                limits,
                games,
                bots,
            }),
            tasks: TaskTracker::new(),
            generation: AtomicU64::new(1),
            closed: AtomicBool::new(false),
            limits: caps,
            creators: Mutex::new(HashMap::new()),
            base_url,
            down_since: Mutex::new(None),
            remote: None,
            lease_stop: Mutex::new(CancellationToken::new()),
            stopping: CancellationToken::new(),
        }
    }

    /// A registry that is one node of several (`remote`: the way to the others).
    pub fn with_remote(mut self, remote: Arc<Remote>) -> Registry {
        self.remote = Some(remote);
        self
    }

    /// With several nodes, the way to the others.
    pub fn remote(&self) -> Option<&Arc<Remote>> {
        self.remote.as_ref()
    }

    /// The bots' thinking threads (also the engine behind the hints of lessons and puzzles).
    pub fn bots(&self) -> &Arc<BotPool> {
        &self.ctx.bots
    }

    fn metrics(&self) -> &Metrics {
        &self.ctx.metrics
    }

    fn cached(&self, id: Uuid) -> Option<GameHandle> {
        self.games.lock().expect("registry lock").get(&id).cloned()
    }

    /// The way to a game: its actor here (loading it if needed) or, with several nodes, the
    /// node that runs it; `None` if there is no such game.
    pub async fn get(&self, id: Uuid) -> Result<Option<GameLink>, AppError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(GameLink::Local(handle)));
        }
        if self.closed.load(Relaxed) {
            return Err(AppError::Unavailable("the server is shutting down".into()));
        }
        if let Some(remote) = &self.remote {
            return self.get_in_cluster(id, remote).await;
        }
        let _loading = self.loading.lock().await;
        if let Some(handle) = self.cached(id) {
            return Ok(Some(GameLink::Local(handle)));
        }
        let down_since = *self.down_since.lock().expect("registry lock");
        Ok(self.load(id, down_since, None).await?.map(GameLink::Local))
    }

    /// Loads a game from the store (replaying its log) and starts its actor; `down_since`: when
    /// its clock stopped running (the server, or its owner, was down since); `fence`: this
    /// node's ownership of it, with several nodes. Called with `loading` held.
    async fn load(
        &self,
        id: Uuid,
        down_since: Option<i64>,
        fence: Option<Fence>,
    ) -> Result<Option<GameHandle>, AppError> {
        let limits = &self.ctx.limits;
        let Some(stored) = self.ctx.store.load_game(id, limits.recent_chat).await? else {
            return Ok(None);
        };
        let state = GameState::restore(&stored).map_err(|e| {
            tracing::error!(game = %id, error = %e, "stored game does not replay");
            AppError::Internal
        })?;
        let setup = |actor: Actor| {
            actor
                .with_history(
                    &stored.events,
                    stored.recent_chat.clone(),
                    stored.last_chat_id,
                    &stored.chat_acks,
                )
                .down_since(down_since)
                .stored_summary(stored.row.summary.v)
        };
        self.spawn(state, setup, fence).await.map(Some)
    }

    /// How long a caller keeps asking for a game whose actor is gone: alone, it is loaded again
    /// at once; with several nodes its owner may have died, and another takes it once the
    /// dead one's lease has expired.
    fn patience(&self) -> Duration {
        match &self.remote {
            Some(remote) => remote.cluster.lease().duration() + Duration::from_secs(3),
            None => Duration::ZERO,
        }
    }

    /// Runs `f` on a game; if its actor was just unloaded, or (several nodes) its owner stopped
    /// or died, finds the game again where it runs now and retries, for a while.
    pub async fn with_game<T, F, Fut>(&self, id: Uuid, f: F) -> Result<T, AppError>
    where
        F: Fn(GameLink) -> Fut,
        Fut: Future<Output = Result<T, Gone>>,
    {
        let started = Instant::now();
        let patience = self.patience();
        let mut tries: u32 = 0;
        loop {
            let game = self.get(id).await?.ok_or_else(|| AppError::no_game(id))?;
            if let Ok(value) = f(game).await {
                return Ok(value);
            }
            tries += 1;
            if tries >= 2 && started.elapsed() >= patience {
                return Err(AppError::Unavailable("the game is restarting".into()));
            }
            if self.remote.is_some() {
                let backoff = Duration::from_millis(25 << tries.min(4));
                tokio::time::sleep(backoff).await;
            }
        }
    }

    async fn spawn(
        &self,
        state: GameState,
        setup: impl FnOnce(Actor) -> Actor,
        fence: Option<Fence>,
    ) -> Result<GameHandle, AppError> {
        let id = state.id;
        let generation = self.generation.fetch_add(1, Relaxed);
        let presence = Arc::new(Presence::default());
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle {
            id,
            generation,
            inbox: tx.clone(),
            presence: presence.clone(),
        };
        let actor = setup(
            Actor::new(state, self.ctx.clone(), presence, generation).with_inbox(tx.downgrade()),
        );
        let span = tracing::info_span!("game", game = %id);
        match (&self.remote, fence) {
            (Some(remote), Some(fence)) => {
                let owned = Owned::new(remote.cluster.clone(), id, fence.clone());
                let calls = self.serve_calls(remote, id, &fence).await?;
                self.games
                    .lock()
                    .expect("registry lock")
                    .insert(id, handle.clone());
                let run = actor.owned(owned).run(rx).instrument(span);
                self.tasks.spawn(self.run_owned(run, id, generation, fence));
                self.tasks.spawn(super::remote::owner::serve(
                    calls,
                    handle.clone(),
                    remote.cluster.clone(),
                ));
            }
            _ => {
                self.games
                    .lock()
                    .expect("registry lock")
                    .insert(id, handle.clone());
                self.tasks.spawn(actor.run(rx).instrument(span));
            }
        }
        Ok(handle)
    }

    /// Whether one more unfinished game fits: under the server's cap, and under the caps of
    /// the address asking (its unfinished games, and those still waiting for players), so one
    /// client can never fill the server.
    fn check_capacity(&self, creator: Option<IpKey>) -> Result<(), AppError> {
        self.check_capacity_with(creator, false)
    }

    /// [`check_capacity`](Self::check_capacity) for a game with bots (`bots`): bots cost the
    /// server their think time per turn, so an address runs only so many such games at once.
    pub(super) fn check_capacity_with(
        &self,
        creator: Option<IpKey>,
        bots: bool,
    ) -> Result<(), AppError> {
        if self.closed.load(Relaxed) {
            return Err(AppError::Unavailable("the server is shutting down".into()));
        }
        self.check_lease()?;
        if let Some(ip) = creator {
            let games = self.games_of(ip);
            if games.unfinished >= self.limits.max_games_per_ip {
                return Err(AppError::rate_limited(
                    "your address has too many unfinished games",
                    Duration::from_secs(60),
                ));
            }
            if games.open >= self.limits.max_open_games_per_ip {
                return Err(AppError::rate_limited(
                    "your address has too many games waiting for players",
                    Duration::from_secs(60),
                ));
            }
            if bots && games.with_bots >= self.limits.max_bot_games_per_ip {
                return Err(AppError::rate_limited(
                    &format!(
                        "your address already plays {} games with bots; finish one first",
                        games.with_bots
                    ),
                    Duration::from_secs(60),
                ));
            }
        }
        if self.metrics().live_games.load(Relaxed) as usize >= self.limits.max_live_games {
            return Err(AppError::Unavailable(
                "too many games are running; try again later".into(),
            ));
        }
        Ok(())
    }

    /// Whether `ip` may give one more game a bot (the creator's "give to a bot"): refused
    /// when its unfinished games with bots are at the cap and `game` has none yet.
    pub fn check_bot_cap(&self, ip: IpKey, game: Uuid) -> Result<(), AppError> {
        if self.standing_of(game).is_some_and(|(_, bots)| bots) {
            return Ok(());
        }
        let with_bots = self.games_of(ip).with_bots;
        if with_bots >= self.limits.max_bot_games_per_ip {
            return Err(AppError::rate_limited(
                &format!(
                    "your address already plays {with_bots} games with bots; finish one first"
                ),
                Duration::from_secs(60),
            ));
        }
        Ok(())
    }

    /// The unfinished games `ip` created (forgetting those that ended).
    fn games_of(&self, ip: IpKey) -> AddressGames {
        let mut creators = self.creators.lock().expect("registry lock");
        let mut games = AddressGames::default();
        let Some(ids) = creators.get_mut(&ip) else {
            return games;
        };
        ids.retain(|id| match self.standing_of(*id) {
            Some((status @ (GameStatus::Open | GameStatus::Live), bots)) => {
                games.unfinished += 1;
                games.open += usize::from(status == GameStatus::Open);
                games.with_bots += usize::from(bots);
                true
            }
            _ => false,
        });
        if games.unfinished == 0 {
            creators.remove(&ip);
        }
        games
    }

    /// Where a loaded game stands and whether a bot plays in it: from its actor here, or from
    /// its owner's digest.
    fn standing_of(&self, id: Uuid) -> Option<(GameStatus, bool)> {
        if let Some(handle) = self.cached(id) {
            let presence = handle.presence();
            return Some((presence.status(), presence.bots()));
        }
        let remote = self.remote.as_ref()?;
        remote.digests.get(id).map(|d| (d.status(), d.bots))
    }

    fn created_by(&self, ip: Option<IpKey>, id: Uuid) {
        if let Some(ip) = ip {
            self.creators
                .lock()
                .expect("registry lock")
                .entry(ip)
                .or_default()
                .push(id);
        }
    }

    /// Cancels the games that have waited for players, untouched, for longer than `max_age`;
    /// returns how many.
    pub async fn expire_open(&self, max_age: Duration) -> usize {
        let handles: Vec<GameHandle> = self
            .games
            .lock()
            .expect("registry lock")
            .values()
            .filter(|h| h.presence().status() == GameStatus::Open)
            .cloned()
            .collect();
        let before = now_ms() - i64::try_from(max_age.as_millis()).unwrap_or(i64::MAX);
        let mut expired = 0;
        for handle in handles {
            if let Ok(true) = handle.expire(before).await {
                expired += 1;
            }
        }
        expired
    }

    /// Loads every unfinished game (replaying its log), so play resumes where it stopped;
    /// `down_since` is when the server was last seen alive: running clocks are paused for the
    /// time it was down.
    pub async fn restore_all(&self, down_since: Option<i64>) -> Result<usize, AppError> {
        *self.down_since.lock().expect("registry lock") = down_since;
        let ids = self.ctx.store.unfinished_games().await?;
        let mut restored = 0;
        for id in ids {
            match self.get(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::error!(game = %id, error = %e, "could not restore"),
            }
        }
        // Games loaded later (finished ones, on demand) had no clock running.
        *self.down_since.lock().expect("registry lock") = None;
        Ok(restored)
    }

    /// The creator's action on a game (with its admin token).
    pub async fn admin(&self, id: Uuid, action: AdminAction) -> Result<AdminAnswer, AppError> {
        self.with_game(id, |game| {
            let action = action.clone();
            async move { game.admin(action).await }
        })
        .await?
    }

    /// Stops every actor: each finishes the commands it was sent before, tells its connections
    /// that the server restarts, and ends. Waits at most `timeout`.
    pub async fn shutdown(&self, timeout: Duration) {
        self.closed.store(true, Relaxed);
        let handles: Vec<GameHandle> = self
            .games
            .lock()
            .expect("registry lock")
            .values()
            .cloned()
            .collect();
        for handle in handles {
            handle.shutdown().await;
        }
        self.tasks.close();
        if tokio::time::timeout(timeout, self.tasks.wait())
            .await
            .is_err()
        {
            tracing::warn!("some games did not stop in time");
        }
        self.leave_cluster().await;
    }
}
