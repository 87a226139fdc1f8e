//! # djambi-server
//!
//! The authoritative Djambi Online game server. Browsers create and join games over HTTP and
//! play them live over WebSocket; the server validates every turn with `djambi-core`, commits it
//! to the database (SQLite or Postgres, through sqlx), and only then tells everyone.
//!
//! - [`config`]: flags and environment;
//! - [`analysis`]: the engine's analysis of finished games, computed once and stored;
//! - [`http`]: the JSON API, health, metrics and the static browser client;
//! - [`ws`]: the socket layer (parses client frames, filters what each connection sees);
//! - [`table`]: the pure domain of one live game (state, decisions, events, typed refusals);
//! - [`game`]: one actor per live game over its two ports (journal, fanout), the one call
//!   vocabulary, and the registry of games;
//! - [`store`]: persistence (migrations, event log, batched commits) over the table's types;
//! - [`cluster`]: several nodes over Postgres and NATS (`--nats`; docs/SCALING.md);
//! - [`protocol`]: the wire views of the table, serde only;
//! - [`push`]: Web Push (VAPID key, subscriptions, the queue to push services);
//! - [`circle`]: circles of friends, their games' places, ratings and standings;
//! - [`puzzles`]: the puzzles (`data/puzzles.json`, embedded).
//!
//! `main.rs` is thin: [`Config`] → tracing → [`AppState::new`] (store, migrations, restoring
//! unfinished games) → [`serve`].

pub mod analysis;
pub mod circle;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod game;
pub mod http;
pub mod metrics;
pub mod net;
pub mod protocol;
pub mod push;
pub mod puzzles;
pub mod store;
pub mod table;
pub mod token;
pub mod ws;

use std::future::Future;
use std::sync::Arc;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;

use tower_http::trace::TraceLayer;

pub use config::{CirclesCommand, Command, Config, LogFormat};
pub use error::AppError;

use crate::analysis::Analyses;
use crate::circle::Circles;
use crate::cluster::{ClusterConfig, ClusterError, ClusterSite};
use crate::game::bots::BotPool;
use crate::game::{LocalSite, Registry, Site};
use crate::http::History;
use crate::metrics::Metrics;
use crate::net::{Budgets, ConnTracker, NetConfig};
use crate::push::{KeyError, Push};
use crate::store::{Store, StoreError};
use crate::ws::WsContext;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The node could not join the cluster (`--nats`).
    #[error("{0}")]
    Cluster(#[from] ClusterError),
    /// The VAPID key pair could not be loaded or made (Web Push).
    #[error("{0}")]
    Push(#[from] KeyError),
    /// The configuration cannot run as it is.
    #[error("{0}")]
    Refused(String),
}

/// Everything the handlers share.
#[derive(Clone)]
pub struct AppState {
    /// The configuration.
    pub config: Arc<Config>,
    /// The database.
    pub store: Store,
    /// The live games.
    pub registry: Arc<Registry>,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// What the WebSocket connections share.
    pub ws: Arc<WsContext>,
    /// The per-address budgets.
    pub budgets: Arc<Budgets>,
    /// The open connections, under their caps.
    pub conns: Arc<ConnTracker>,
    /// Rebuilds pages of game history off the actors.
    pub history: Arc<History>,
    /// The engine's analyses of finished games.
    pub analyses: Arc<Analyses>,
    /// With several nodes (`--nats`), this node's place among them (the registry reaches it
    /// as its site; operations and tests through this).
    pub cluster: Option<Arc<ClusterSite>>,
    /// Web Push: the VAPID key, the subscriptions, the queue to push services.
    pub push: Arc<Push>,
    /// The circles of friends.
    pub circles: Arc<Circles>,
}

impl AppState {
    /// Connects to the database, migrates it, and restores every unfinished game; with
    /// `--nats`, joins the other nodes instead (the games nobody runs are taken over by the
    /// nodes' watchdogs).
    pub async fn new(config: Config) -> Result<AppState, StartError> {
        let metrics = Arc::new(Metrics::default());
        let lease = config.cluster.nats.as_ref().map(|_| config.cluster.lease());
        let options = config.store.options(lease);
        let store = Store::connect(&config.store.database_url, &options, metrics.clone()).await?;
        store.migrate().await?;
        let node = match &config.cluster.nats {
            Some(url) => Some(Arc::new(
                join_cluster(&config, url, &store, &metrics).await?,
            )),
            None => {
                cluster::check_alone(&store).await?;
                None
            }
        };
        let site: Arc<dyn Site> = match &node {
            Some(node) => node.clone(),
            None => Arc::new(LocalSite::new(store.clone())),
        };
        let push = Push::start(
            &config.push,
            config.base_url(),
            store.clone(),
            metrics.clone(),
        )
        .await?;
        let push = Arc::new(push);
        let registry = Registry::new(
            store.clone(),
            metrics.clone(),
            config.games.limits(),
            config.games.caps(),
            config.base_url(),
            BotPool::new(config.bots.pool()),
            site.clone(),
        )
        .with_alerts(push.alerts());
        let registry = Arc::new(registry);
        let first_conn = site.first_conn();
        // A server alone restores its unfinished games now; a node of several starts watching
        // for the games nobody runs.
        site.start(registry.clone()).await;
        let budgets = Arc::new(Budgets::new(config.budgets.budgets()));
        let ws = Arc::new(WsContext::new(
            &config.sockets,
            metrics.clone(),
            budgets.clone(),
            first_conn,
        ));
        let conns = ConnTracker::new(config.net.conn_limits(), metrics.clone());
        let analyses = Analyses::new(
            store.clone(),
            registry.bots().clone(),
            config.analysis.settings(),
        );
        let circles = Arc::new(Circles::new(
            store.clone(),
            config.games.max_circle_members,
            config.games.max_name_chars,
        ));
        Ok(AppState {
            circles,
            config: Arc::new(config),
            store,
            registry,
            metrics,
            ws,
            budgets,
            conns,
            history: Arc::new(History::new(history_threads())),
            analyses,
            cluster: node,
            push,
        })
    }
}

/// Joins the other nodes: NATS, the node's lease, and the presence digests of every game.
async fn join_cluster(
    config: &Config,
    url: &str,
    store: &Store,
    metrics: &Arc<Metrics>,
) -> Result<ClusterSite, StartError> {
    let name = config.cluster.node_name.clone().unwrap_or_else(host_name);
    let cluster = ClusterConfig {
        nats_url: url.to_string(),
        name,
        lease: config.cluster.lease(),
    };
    let buffer = config.games.event_buffer;
    Ok(ClusterSite::join(cluster, buffer, store.clone(), metrics.clone()).await?)
}

/// This machine's name (a node's default name).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "node".into())
}

/// Blocking threads that may rebuild history at once: all cores but one, so a flood of history
/// requests cannot take the core the games run on.
fn history_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// The whole application as a router (tests can drive it without a socket).
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(ws::router())
        .merge(http::router(&state))
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(state.config.net.max_body_bytes))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` completes, then shuts down gracefully: stops
/// accepting, lets every game finish the commands it was sent (their commits included), tells
/// every connected client `{"type":"restarting"}` and closes its socket, and closes the
/// database. Meanwhile a housekeeping task forgets idle addresses in the budgets and expires
/// games nobody claimed.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    tracing::info!("listening on http://{addr}");
    let router = app(state.clone());
    let net = NetConfig {
        proxies: state.config.net.trusted_proxy.clone(),
        tracker: state.conns.clone(),
        header_read_timeout: state.config.net.header_read_timeout(),
    };
    let housekeeping = tokio::spawn(housekeeping(state.clone()));
    let timeout = state.config.shutdown_timeout();
    net::serve(listener, router, net, shutdown, timeout).await?;
    housekeeping.abort();
    // A server alone records its last sign of life; a node of several tells the sockets on
    // games other nodes run to reconnect elsewhere.
    state.registry.site().closing().await;
    state.registry.shutdown(timeout).await;
    state.ws.closing.cancel();
    state.ws.tasks.close();
    if tokio::time::timeout(timeout, state.ws.tasks.wait())
        .await
        .is_err()
    {
        tracing::warn!("some connections did not close in time");
    }
    state.store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// How often housekeeping runs.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(60);

/// How often the server records that it is alive (a clock is paused from the last record
/// after a crash: this is its precision).
const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// Every minute: forgets addresses whose budgets are full again, and expires the games that
/// waited for players, untouched, for longer than `--expire-open-hours`.
async fn housekeeping(state: AppState) {
    let mut tick = tokio::time::interval(HOUSEKEEPING_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut beat = tokio::time::interval(HEARTBEAT_EVERY);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = beat.tick() => {
                // The server's sign of life: after a crash, clocks are paused from here. (Each
                // node of a cluster has its lease instead.)
                state.registry.site().heartbeat().await;
                continue;
            }
            _ = tick.tick() => {}
        }
        state.budgets.forget_idle();
        let expired = state
            .registry
            .expire_open(state.config.games.expire_open())
            .await;
        if expired > 0 {
            tracing::info!(games = expired, "expired games nobody claimed");
        }
    }
}
