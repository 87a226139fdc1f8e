//! Liveness and readiness.

use axum::Router;
use axum::extract::State;
use axum::routing::get;

use crate::AppState;
use crate::error::AppError;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The process is up.
async fn healthz() -> &'static str {
    "ok"
}

/// The database answers; with several nodes, NATS is connected and the node holds its lease
/// (a load balancer then sends nobody to a node cut off from the others).
async fn readyz(State(state): State<AppState>) -> Result<&'static str, AppError> {
    if let Err(e) = state.store.ping().await {
        tracing::warn!(error = %e, "database not ready");
        return Err(AppError::Unavailable("the database does not answer".into()));
    }
    state
        .registry
        .site()
        .ready()
        .map_err(|why| AppError::Unavailable(why.into()))?;
    Ok("ok")
}
