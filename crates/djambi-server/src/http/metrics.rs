//! `/metrics`: the text exposition format, as OpenMetrics to a scraper that asks for it (a
//! Prometheus server does), else labelled as Prometheus's classic text format, which reads it
//! alike.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::AppState;

/// The OpenMetrics text format's media type.
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// Prometheus's classic text format's media type.
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(metrics))
}

async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> impl IntoResponse {
    if let Some(valid) = state.registry.site().lease_valid() {
        state.metrics.cluster_lease_valid.set(i64::from(valid));
    }
    let openmetrics = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/openmetrics-text"));
    let kind = if openmetrics {
        OPENMETRICS
    } else {
        PROMETHEUS_TEXT
    };
    ([(header::CONTENT_TYPE, kind)], state.metrics.render())
}
