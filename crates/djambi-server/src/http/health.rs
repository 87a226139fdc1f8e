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

/// The database answers.
async fn readyz(State(state): State<AppState>) -> Result<&'static str, AppError> {
    match state.store.ping().await {
        Ok(()) => Ok("ok"),
        Err(e) => {
            tracing::warn!(error = %e, "database not ready");
            Err(AppError::Unavailable("the database does not answer".into()))
        }
    }
}
