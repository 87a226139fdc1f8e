//! Creating, listing and looking at games.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};

use super::{ApiJson, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::game::NewGame;
use crate::protocol::http::{CreateGame, CreatedGame, GameList, ListQuery};
use crate::protocol::{GameStatus, GameView};

/// Games listed when no `limit` is given.
const DEFAULT_LIMIT: u32 = 50;
/// The most games one list holds.
const MAX_LIMIT: u32 = 200;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(snapshot))
}

async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CreateGame>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    let mut new = NewGame::standard(body.players, body.hostage, body.rules)?;
    new.names = body.names;
    new.open = body.open;
    let created = state.registry.create(new).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<GameList>, AppError> {
    let Query(query) = query.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let status = match query.status.as_deref() {
        None | Some("") | Some("all") => None,
        Some(s) => Some(GameStatus::parse(s).ok_or_else(|| {
            AppError::BadRequest("status: expected open, live, finished or all".into())
        })?),
    };
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    Ok(Json(state.registry.list(status, limit).await?))
}

async fn snapshot(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, AppError> {
    let id = parse_game_id(&id)?;
    let view = state
        .registry
        .with_game(id, |game| async move { game.snapshot().await })
        .await?;
    Ok(Json(view))
}
