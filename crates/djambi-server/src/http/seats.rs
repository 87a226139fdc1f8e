//! Claiming a seat.

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};

use super::{ApiJson, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/seats", post(claim))
}

/// Claims the invited seat (with its token) or, in an open game, a free seat; the actor decides,
/// so concurrent claims of one seat cannot both win.
async fn claim(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ClaimSeat>,
) -> Result<Json<ClaimedSeat>, AppError> {
    let id = parse_game_id(&id)?;
    let claimed = state
        .registry
        .with_game(id, |game| {
            let body = body.clone();
            async move { game.claim(body).await }
        })
        .await??;
    Ok(Json(claimed))
}
