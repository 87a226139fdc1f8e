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
//! - [`protocol`]: the message types, serde only.
//!
//! `main.rs` is thin: [`Config`] → tracing → [`AppState::new`] (store, migrations, restoring
//! unfinished games) → [`serve`].

pub mod clock;
pub mod config;
pub mod error;
pub mod game;
pub mod http;
pub mod metrics;
pub mod protocol;
pub mod store;
pub mod token;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;
use tokio_util::task::TaskTracker;
use tower_http::trace::TraceLayer;

pub use config::{Config, LogFormat};
pub use error::AppError;

use crate::game::{Limits, Registry};
use crate::metrics::Metrics;
use crate::store::{Store, StoreError, StoreOptions};
use crate::ws::WsContext;

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
}

impl AppState {
    /// Connects to the database, migrates it, and restores every unfinished game.
    pub async fn new(config: Config) -> Result<AppState, StoreError> {
        let metrics = Arc::new(Metrics::default());
        let options = StoreOptions {
            max_connections: config.db_connections,
            commit_batch: config.commit_batch,
        };
        let store = Store::connect(&config.database_url, &options, metrics.clone()).await?;
        store.migrate().await?;
        let limits = Limits {
            replay_memory: config.replay_memory,
            max_catchup: config.max_catchup,
            event_buffer: config.event_buffer,
            max_chat_chars: config.max_chat_chars,
            max_name_chars: config.max_name_chars,
            max_connections_per_game: config.max_connections_per_game,
            recent_chat: Limits::default().recent_chat,
            idle: config.idle(),
        };
        let registry = Arc::new(Registry::new(
            store.clone(),
            metrics.clone(),
            limits,
            config.max_live_games,
            config.base_url(),
        ));
        match registry.restore_all().await {
            Ok(n) => tracing::info!(games = n, "unfinished games restored"),
            Err(e) => tracing::error!(error = %e, "could not list unfinished games"),
        }
        let ws = Arc::new(WsContext {
            metrics: metrics.clone(),
            max_message_bytes: config.max_message_bytes,
            rate_limit: config.rate_limit,
            connection_queue: config.connection_queue,
            write_timeout: std::time::Duration::from_secs(config.write_timeout_secs.max(1)),
            next_conn: AtomicU64::new(1),
            tasks: TaskTracker::new(),
            closing: tokio_util::sync::CancellationToken::new(),
        });
        Ok(AppState {
            config: Arc::new(config),
            store,
            registry,
            metrics,
            ws,
        })
    }
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
/// database.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    tracing::info!("listening on http://{addr}");
    let router = app(state.clone());
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down: no new connections");
        })
        .await?;
    let timeout = state.config.shutdown_timeout();
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
