//! `GET /api/games/{id}/events?since=N&limit=M`: a page of a game's events after version `N`,
//! rebuilt from the stored log off the game's actor, for replays and turn lists. Each address
//! has a budget of pages.

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Deserialize;

use super::pages::MAX_PAGE;
use super::parse_game_id;
use crate::AppState;
use crate::error::AppError;
use crate::net::ClientIp;

/// Events in a page when no `limit` is given.
const DEFAULT_PAGE: u64 = 200;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/events", get(events))
}

/// The query of a page.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    /// The last version the client has (default 0: from the start).
    #[serde(default)]
    since: u64,
    /// At most this many events (default 200, at most 500).
    #[serde(default)]
    limit: Option<u64>,
}

async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<impl IntoResponse, AppError> {
    let id = parse_game_id(&id)?;
    let Query(query) = query.map_err(|e| AppError::BadRequest(e.body_text()))?;
    state
        .budgets
        .history
        .take(client.key())
        .map_err(|wait| AppError::rate_limited("too many history pages from your address", wait))?;
    let stored = state
        .store
        .load_game(id, 0)
        .await?
        .ok_or_else(|| AppError::no_game(id))?;
    let limit = query.limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let page = state
        .history
        .page(stored, query.since, limit)
        .await
        .ok_or(AppError::Internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], page))
}
