//! The registry of the games this node runs: finds a game (its actor here, loading it from the
//! store by replaying its log when no actor holds it, or the node that runs it, through the
//! [`Site`]), creates and imports games, restores them, and stops every actor at shutdown.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;
use tracing::Instrument;
use uuid::Uuid;

mod create;
mod list;

pub use create::{
    BOT_MOVETIME_MS, BOTS_ONLY_TURN_LIMIT, DEFAULT_BOT_MOVETIME_MS, NewGame, fresh_seed,
};

use super::actor::{Actor, Context};
use super::bots::BotPool;
use super::error::GameError;
use super::handle::GameHandle;
use super::ledger::{Ledger, RegistryLimits};
use super::limits::Limits;
use super::link::Game;
use super::presence::Presence;
use super::site::{Site, SiteGames, Taken, Tenancy, Whereabouts};
use super::vocabulary::Gone;
use crate::clock::now_ms;
use crate::metrics::Metrics;
use crate::net::IpKey;
use crate::store::{Store, StoredGame};
use crate::table::{AdminAnswer, AdminError, AdminWhat, GameState, GameStatus};

/// Commands waiting in an actor's inbox before senders wait.
const INBOX: usize = 256;

/// The registry.
pub struct Registry {
    games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    /// Held while a game is loaded, so one game never gets two actors.
    loading: tokio::sync::Mutex<()>,
    ctx: Arc<Context>,
    tasks: TaskTracker,
    generation: AtomicU64,
    closed: AtomicBool,
    base_url: String,
    /// Where games run: here alone, or among several nodes.
    site: Arc<dyn Site>,
}

impl Registry {
    /// A registry over `store`, its games placed by `site`.
    pub fn new(
        store: Store,
        metrics: Arc<Metrics>,
        limits: Limits,
        caps: RegistryLimits,
        base_url: String,
        bots: Arc<BotPool>,
        site: Arc<dyn Site>,
    ) -> Registry {
        let games = Arc::new(Mutex::new(HashMap::new()));
        let ledger = Arc::new(Ledger::new(
            caps,
            games.clone(),
            site.clone(),
            metrics.clone(),
        ));
        Registry {
            games: games.clone(),
            loading: tokio::sync::Mutex::new(()),
            ctx: Arc::new(Context {
                store,
                metrics,
                limits,
                games,
                bots,
                alerts: None,
                ledger,
            }),
            tasks: TaskTracker::new(),
            generation: AtomicU64::new(1),
            closed: AtomicBool::new(false),
            base_url,
            site,
        }
    }

    /// The same registry, its games' alerts for seats nobody has open going to `alerts` (Web
    /// Push). Before any game runs: the actors started later share it.
    pub fn with_alerts(mut self, alerts: Arc<dyn super::ports::Alerts>) -> Registry {
        match Arc::get_mut(&mut self.ctx) {
            Some(ctx) => ctx.alerts = Some(alerts),
            None => tracing::error!("alerts given to a registry whose games already run"),
        }
        self
    }

    /// Where games run.
    pub fn site(&self) -> &Arc<dyn Site> {
        &self.site
    }

    /// The bots' thinking threads (also the engine behind the hints of lessons and puzzles).
    pub fn bots(&self) -> &Arc<BotPool> {
        &self.ctx.bots
    }

    fn cached(&self, id: Uuid) -> Option<GameHandle> {
        let handle = self.games.lock().expect("registry lock").get(&id).cloned();
        if let Some(handle) = &handle {
            handle.presence().touch();
        }
        handle
    }

    /// Keeps the finished games loaded under their cap: before one more is loaded, the one
    /// asked for longest ago that nobody watches is unloaded.
    fn make_room_for_finished(&self) {
        let cap = self.ctx.ledger.limits().max_loaded_finished.max(1);
        let games = self.games.lock().expect("registry lock");
        let finished = |h: &&GameHandle| {
            matches!(
                h.presence().status(),
                GameStatus::Finished | GameStatus::Cancelled
            )
        };
        let loaded = games.values().filter(finished).count();
        if loaded < cap {
            return;
        }
        let mut idle: Vec<&GameHandle> = games
            .values()
            .filter(finished)
            .filter(|h| h.presence().total() == 0)
            .collect();
        idle.sort_by_key(|h| h.presence().used());
        for handle in idle.into_iter().take(loaded + 1 - cap) {
            handle.unload();
        }
    }

    /// Whether this node runs game `id` now (its actor is loaded here).
    pub fn runs(&self, id: Uuid) -> bool {
        self.cached(id).is_some()
    }

    /// The way to a game: its actor here (loading it if needed), or the node that runs it;
    /// `None` if there is no such game.
    pub async fn get(&self, id: Uuid) -> Result<Option<Game>, GameError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(Game::new(handle)));
        }
        if self.closed.load(Relaxed) {
            return Err(GameError::Unavailable("the server is shutting down".into()));
        }
        // Where it runs is asked without the loading lock: most games another node runs are
        // reached at once, whatever this node is loading meanwhile.
        match self.site.locate(id).await? {
            Whereabouts::Nowhere => return Ok(None),
            Whereabouts::There(game) => return Ok(Some(game)),
            Whereabouts::Free => {}
        }
        let _loading = self.loading.lock().await;
        if let Some(handle) = self.cached(id) {
            return Ok(Some(Game::new(handle)));
        }
        let tenancy = match self.site.take(id).await? {
            Taken::Here(tenancy) => tenancy,
            // Another node took it in between: it runs it now.
            Taken::There(game) => return Ok(Some(game)),
        };
        Ok(self.load(id, tenancy).await?.map(Game::new))
    }

    /// Loads a game from the store (replaying its log) and starts its actor under `tenancy`.
    /// Called with `loading` held.
    async fn load(
        &self,
        id: Uuid,
        tenancy: Box<dyn Tenancy>,
    ) -> Result<Option<GameHandle>, GameError> {
        let limits = &self.ctx.limits;
        let stored = match self.ctx.store.load_game(id, limits.recent_chat).await {
            Ok(Some(stored)) => stored,
            Ok(None) => {
                end(tenancy).await;
                return Ok(None);
            }
            Err(e) => {
                end(tenancy).await;
                return Err(e.into());
            }
        };
        let state = match stored.restore() {
            Ok(state) => state,
            Err(e) => {
                tracing::error!(game = %id, error = %e, "stored game does not replay");
                end(tenancy).await;
                return Err(GameError::Internal);
            }
        };
        let down_since = tenancy.down_since();
        let setup = |actor: Actor| {
            let StoredGame {
                events,
                recent_chat,
                last_chat_id,
                chat_acks,
                row,
                ..
            } = stored;
            actor
                .with_history(&events, recent_chat, last_chat_id, &chat_acks)
                .down_since(down_since)
                .stored_summary(row.summary.v)
        };
        self.spawn(state, setup, tenancy).await.map(Some)
    }

    /// Runs `f` on a game; if its actor was just unloaded, or its node stopped or died, finds
    /// the game again where it runs now and retries, for a while.
    pub async fn with_game<T, F, Fut>(&self, id: Uuid, f: F) -> Result<T, GameError>
    where
        F: Fn(Game) -> Fut,
        Fut: Future<Output = Result<T, Gone>>,
    {
        let started = Instant::now();
        let patience = self.site.patience();
        let mut tries: u32 = 0;
        loop {
            let game = self.get(id).await?.ok_or(GameError::NoGame(id))?;
            if let Ok(value) = f(game).await {
                return Ok(value);
            }
            tries += 1;
            if tries >= 2 && started.elapsed() >= patience {
                return Err(GameError::Unavailable("the game is restarting".into()));
            }
            if !patience.is_zero() {
                let backoff = Duration::from_millis(25 << tries.min(4));
                tokio::time::sleep(backoff).await;
            }
        }
    }

    async fn spawn(
        &self,
        state: GameState,
        setup: impl FnOnce(Actor) -> Actor,
        mut tenancy: Box<dyn Tenancy>,
    ) -> Result<GameHandle, GameError> {
        let id = state.id;
        if state.is_over() {
            self.make_room_for_finished();
        }
        let generation = self.generation.fetch_add(1, Relaxed);
        let presence = Arc::new(Presence::default());
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle {
            id,
            generation,
            inbox: tx.clone(),
            presence: presence.clone(),
        };
        let ports = (
            tenancy.journal(),
            tenancy.fanout(self.ctx.limits.event_buffer),
        );
        let actor = setup(
            Actor::new(state, self.ctx.clone(), ports, presence, generation)
                .with_inbox(tx.downgrade()),
        );
        // Reachable from other nodes before anyone knows of it.
        if let Err(e) = tenancy.host(&handle).await {
            end(tenancy).await;
            return Err(e);
        }
        self.games
            .lock()
            .expect("registry lock")
            .insert(id, handle.clone());
        self.ctx.ledger.loaded(id);
        let span = tracing::info_span!("game", game = %id);
        let run = actor.run(rx).instrument(span).boxed();
        let games = self.games.clone();
        let ended = tenancy.run(run);
        self.tasks.spawn(async move {
            ended.await;
            // The actor stopped (or was dropped where it stood): forget it if still its.
            let mut games = games.lock().expect("registry lock");
            if games.get(&id).is_some_and(|h| h.generation == generation) {
                games.remove(&id);
            }
        });
        Ok(handle)
    }

    /// Whether one more unfinished game of `creator` fits (with bots, or not): the ledger's
    /// caps, and the server not shutting down.
    pub(super) fn admit(&self, creator: Option<IpKey>, bots: bool) -> Result<(), GameError> {
        if self.closed.load(Relaxed) {
            return Err(GameError::Unavailable("the server is shutting down".into()));
        }
        self.ctx.ledger.admit(creator, bots)
    }

    /// Lets a bot into `game` ("give to a bot", asked from `asker`): counted against the cap of
    /// the game's creator on games with bots ([`Ledger::let_bot_in`]).
    pub fn let_bot_in(&self, game: Uuid, asker: IpKey) -> Result<(), GameError> {
        self.ctx.ledger.let_bot_in(game, Some(asker))
    }

    /// The ledger of who created which game.
    pub fn ledger(&self) -> &Arc<Ledger> {
        &self.ctx.ledger
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
            if let Ok(true) = Game::new(handle).expire(before).await {
                expired += 1;
            }
        }
        expired
    }

    /// Loads every unfinished game (replaying its log), so play resumes where it stopped.
    pub async fn restore_all(&self) -> Result<usize, GameError> {
        let ids = self.ctx.store.unfinished_games().await?;
        let mut restored = 0;
        for id in ids {
            match self.get(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::error!(game = %id, error = %e, "could not restore"),
            }
        }
        Ok(restored)
    }

    /// The creator's action on a game (with its admin token).
    pub async fn admin(
        &self,
        id: Uuid,
        token: String,
        what: AdminWhat,
    ) -> Result<Result<AdminAnswer, AdminError>, GameError> {
        self.with_game(id, |game| {
            let token = token.clone();
            async move { game.admin(token, what).await }
        })
        .await
    }

    /// Whether the registry stopped taking games (the server is shutting down).
    pub fn closed(&self) -> bool {
        self.closed.load(Relaxed)
    }

    /// Stops every actor: each finishes the commands it was sent before, tells its connections
    /// that the server restarts, and ends. Waits at most `timeout`; then the site's last work.
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
        self.site.stop().await;
    }
}

/// Ends a tenancy whose game will not run here after all (several nodes: releases the game).
async fn end(tenancy: Box<dyn Tenancy>) {
    tenancy.run(async {}.boxed()).await;
}

impl SiteGames for Registry {
    fn restore_all(&self) -> BoxFuture<'_, Result<usize, GameError>> {
        Registry::restore_all(self).boxed()
    }

    fn take_over(&self, id: Uuid) -> BoxFuture<'_, Result<bool, GameError>> {
        async move { Ok(self.get(id).await?.is_some() && self.runs(id)) }.boxed()
    }

    fn closed(&self) -> bool {
        Registry::closed(self)
    }
}
