//! # djambi-server
//!
//! The authoritative Djambi Online game server. Browsers create and join games over HTTP and
//! play them live over WebSocket; the server validates every turn with `djambi-core`, commits it
//! to the database (SQLite or Postgres, through sqlx), and only then tells everyone.
//!
//! - [`config`]: flags and environment;
//! - [`http`]: the JSON API, health, metrics and the static browser client;
//! - [`ws`]: the socket layer (parses client frames, filters what each connection sees);
//! - [`game`]: one actor per live game, and the registry of games;
//! - [`store`]: persistence (migrations, event log, batched commits);
//! - [`cluster`]: several nodes over Postgres and NATS (`--nats`; docs/SCALING.md);
//! - [`protocol`]: the message types, serde only;
//! - [`puzzles`]: the puzzles (`data/puzzles.json`, embedded).
//!
//! `main.rs` is thin: [`Config`] → tracing → [`AppState::new`] (store, migrations, restoring
//! unfinished games) → [`serve`].

pub mod clock;
pub mod cluster;
pub mod config;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod http;
pub mod metrics;
pub mod net;
pub mod protocol;
pub mod puzzles;
pub mod store;
pub mod token;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;
use tokio_util::task::TaskTracker;
use tower_http::trace::TraceLayer;

pub use config::{Config, LogFormat};
pub use error::AppError;

use crate::cluster::{Cluster, ClusterConfig, ClusterError, PRESENCE};
use crate::game::bots::BotPool;
use crate::game::history::History;
use crate::game::remote::Remote;
use crate::game::remote::digest::Digests;
use crate::game::remote::mirror::Mirrors;
use crate::game::{Limits, Registry, RegistryLimits};
use crate::metrics::Metrics;
use crate::net::budget::Allowance;
use crate::net::{Budgets, ConnTracker, NetConfig};
use crate::store::{Backend, Store, StoreError, StoreOptions};
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
}

impl AppState {
    /// Connects to the database, migrates it, and restores every unfinished game; with
    /// `--nats`, joins the other nodes instead (the games nobody runs are taken over by the
    /// nodes' watchdogs).
    pub async fn new(config: Config) -> Result<AppState, StartError> {
        let metrics = Arc::new(Metrics::default());
        let options = StoreOptions {
            max_connections: config.db_connections,
            commit_batch: config.commit_batch,
            connect_timeout: Duration::from_secs(config.db_timeout_secs.max(1)),
            cluster_lease: config.nats.as_ref().map(|_| config.lease()),
        };
        let store = Store::connect(&config.database_url, &options, metrics.clone()).await?;
        store.migrate().await?;
        let remote = match &config.nats {
            Some(url) => Some(join_cluster(&config, url, &store, &metrics).await?),
            None => {
                alone_on(&store).await?;
                None
            }
        };
        let limits = Limits {
            replay_memory: config.replay_memory,
            max_catchup: config.max_catchup,
            event_buffer: config.event_buffer,
            max_chat_chars: config.max_chat_chars,
            max_name_chars: config.max_name_chars,
            max_spectators: config.max_spectators_per_game,
            max_sockets_per_seat: config.max_sockets_per_seat,
            game_chat: Allowance {
                burst: config.game_chat_burst,
                per_minute: config.game_chat_per_minute,
            },
            recent_chat: Limits::default().recent_chat,
            idle: config.idle(),
            absent_grace: Duration::from_secs(config.absent_grace_secs),
            min_turn_deadline: Duration::from_secs(config.min_turn_deadline_secs),
        };
        let registry = Registry::new(
            store.clone(),
            metrics.clone(),
            limits,
            RegistryLimits {
                max_live_games: config.max_live_games,
                max_games_per_ip: config.max_games_per_ip,
                max_open_games_per_ip: config.max_open_games_per_ip,
                max_bot_games_per_ip: config.max_bot_games_per_ip,
            },
            config.base_url(),
            BotPool::new(
                config.bot_threads.unwrap_or_else(BotPool::default_threads),
                config.bot_hash_mb.saturating_mul(1 << 20),
            ),
        );
        let registry = Arc::new(match remote.clone() {
            Some(remote) => registry.with_remote(remote),
            None => registry,
        });
        let first_conn = match &remote {
            // Connection ids are unique over the cluster: the node's tag in the high bits.
            Some(remote) => u64::from(remote.cluster.tag()) << 32 | 1,
            None => 1,
        };
        if remote.is_some() {
            tokio::spawn(crate::game::adopt_orphans(registry.clone()));
            tokio::spawn(crate::game::stop_on_lease_loss(registry.clone()));
        } else {
            // The server's downtime, if it was down: running clocks are paused for it.
            let down_since = store.last_alive().await.ok().flatten();
            match registry.restore_all(down_since).await {
                Ok(n) => tracing::info!(games = n, "unfinished games restored"),
                Err(e) => tracing::error!(error = %e, "could not list unfinished games"),
            }
        }
        let budgets = Arc::new(Budgets::new(config.budgets()));
        let ws = Arc::new(WsContext {
            metrics: metrics.clone(),
            budgets: budgets.clone(),
            max_message_bytes: config.max_message_bytes,
            rate_limit: config.rate_limit,
            chat: Allowance {
                burst: config.chat_burst,
                per_minute: config.chat_per_minute,
            },
            write_timeout: Duration::from_secs(config.write_timeout_secs.max(1)),
            idle: Duration::from_secs(config.ws_idle_secs.max(3)),
            next_conn: AtomicU64::new(first_conn),
            tasks: TaskTracker::new(),
            closing: tokio_util::sync::CancellationToken::new(),
        });
        let conns = ConnTracker::new(config.conn_limits(), metrics.clone());
        Ok(AppState {
            config: Arc::new(config),
            store,
            registry,
            metrics,
            ws,
            budgets,
            conns,
            history: Arc::new(History::new(history_threads())),
        })
    }
}

/// Joins the other nodes: NATS, the node's lease, and the presence digests of every game.
async fn join_cluster(
    config: &Config,
    url: &str,
    store: &Store,
    metrics: &Arc<Metrics>,
) -> Result<Arc<Remote>, StartError> {
    let name = config.node_name.clone().unwrap_or_else(host_name);
    let cluster = Cluster::start(
        ClusterConfig {
            nats_url: url.to_string(),
            name,
            lease: config.lease(),
        },
        store.clone(),
        metrics.clone(),
    )
    .await?;
    let digests = Arc::new(Digests::default());
    let presence = cluster
        .subscribe(PRESENCE.into())
        .await
        .map_err(|_| ClusterError::Nats("could not subscribe to the presence digests".into()))?;
    cluster.spawn(digests.clone().listen(presence, cluster.clone()));
    Ok(Arc::new(Remote {
        mirrors: Mirrors::new(cluster.clone(), config.event_buffer),
        cluster,
        digests,
    }))
}

/// A server without `--nats` must be alone on its database: nodes of a cluster running there
/// would run the same games a second time.
async fn alone_on(store: &Store) -> Result<(), StartError> {
    if store.backend() != Backend::Postgres {
        return Ok(());
    }
    let nodes = store.live_nodes().await?;
    if nodes.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = nodes.iter().map(|(id, _)| id.as_str()).collect();
    Err(StartError::Refused(format!(
        "{} cluster node(s) run on this database ({}): a server without --nats would run their \
         games a second time; start it with --nats to join them",
        nodes.len(),
        names.join(", ")
    )))
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
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
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
        proxies: state.config.trusted_proxy.clone(),
        tracker: state.conns.clone(),
        header_read_timeout: Duration::from_secs(state.config.header_read_timeout_secs.max(1)),
    };
    let housekeeping = tokio::spawn(housekeeping(state.clone()));
    let timeout = state.config.shutdown_timeout();
    net::serve(listener, router, net, shutdown, timeout).await?;
    housekeeping.abort();
    // Sockets on games other nodes run hear it from here, not from an actor of this node.
    if let Some(remote) = state.registry.remote() {
        remote.mirrors.close_all();
    }
    // The last sign of life, exact: downtime is counted from now.
    if state.registry.remote().is_none() {
        let _ = state.store.heartbeat(crate::clock::now_ms()).await;
    }
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
                if state.registry.remote().is_some() {
                    continue;
                }
                if let Err(e) = state.store.heartbeat(crate::clock::now_ms()).await {
                    tracing::debug!(error = %e, "could not record the heartbeat");
                }
                continue;
            }
            _ = tick.tick() => {}
        }
        state.budgets.forget_idle();
        let max_age = Duration::from_secs(state.config.expire_open_hours.saturating_mul(3600));
        let expired = state.registry.expire_open(max_age).await;
        if expired > 0 {
            tracing::info!(games = expired, "expired games nobody claimed");
        }
    }
}
