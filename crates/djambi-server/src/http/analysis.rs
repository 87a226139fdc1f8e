//! `GET /api/games/{id}/analysis`: the engine's analysis of a finished game (PROTOCOL §2.3).
//! The first request starts it (`202` with its progress while it waits or runs); once stored,
//! `200` with the analysis. With `?start=false` it only looks (`200` `not_started` when nobody
//! asked yet): what the replay page does when it opens, so that only a person's click starts
//! an analysis. Each address has a budget of analysis requests, of which starting one spends
//! [`START_COST`] units.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use super::parse_game_id;
use crate::AppState;
use crate::analysis::Status;
use crate::error::AppError;
use crate::net::ClientIp;
use crate::protocol::analysis::AnalysisStatus;

/// Units of the analysis budget a request that starts an analysis spends (one that reads or
/// polls spends 1): loading a whole game and queueing it costs more than reading a row.
pub const START_COST: u32 = 10;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/analysis", get(analysis))
}

/// The query: `start=false` only looks.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisQuery {
    /// Whether to start the analysis if nobody has yet (default true).
    #[serde(default)]
    start: Option<bool>,
}

async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, AppError> {
    let id = parse_game_id(&id)?;
    let Query(query) = query.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let budget = &state.budgets.analysis;
    let limited =
        |wait| AppError::rate_limited("too many analysis requests from your address", wait);
    budget.take(client.key()).map_err(limited)?;
    if query.start == Some(false) {
        return Ok(answer(state.analyses.peek(id).await?));
    }
    let status = match state.analyses.status(id).await? {
        Some(status) => status,
        None => {
            budget
                .take_n(client.key(), START_COST - 1)
                .map_err(limited)?;
            state.analyses.start(id, Some(client.key())).await?
        }
    };
    Ok(answer(status))
}

/// The analysis as stored (`200`), or its progress (`202`; `200` when not started).
fn answer(status: Status) -> Response {
    match status {
        Status::Done(stored) => {
            ([(header::CONTENT_TYPE, "application/json")], stored.body).into_response()
        }
        Status::InProgress(progress) if progress.status == AnalysisStatus::NotStarted => {
            Json(progress).into_response()
        }
        Status::InProgress(progress) => (StatusCode::ACCEPTED, Json(progress)).into_response(),
    }
}
