//! `/metrics` in the Prometheus text format.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(metrics))
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    if let Some(remote) = state.registry.remote() {
        let valid = i64::from(remote.cluster.lease().is_valid());
        state
            .metrics
            .cluster_lease_valid
            .store(valid, std::sync::atomic::Ordering::Relaxed);
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}
