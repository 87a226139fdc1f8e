//! Game records (NOTATION §4): export as JSON (with the metadata the server knows) and as
//! readable text, and import validated by replay.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use djambi_core::GameRecord;

use super::{ApiJson, LinkBase, parse_game_id, record_text};
use crate::AppState;
use crate::error::AppError;
use crate::net::ClientIp;
use crate::protocol::http::CreatedGame;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/record", get(export))
        .route("/api/games/{id}/record.txt", get(export_text))
        .route("/api/games/import", post(import))
}

async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
) -> Result<impl IntoResponse, AppError> {
    let id = parse_game_id(&id)?;
    super::charge_load(&state, client.key(), id)?;
    let record = state
        .registry
        .with_game(id, |game| async move { game.record_json().await })
        .await?;
    let disposition = format!("attachment; filename=\"djambi-{id}.json\"");
    Ok((
        [
            (header::CONTENT_DISPOSITION, disposition),
            (header::CONTENT_TYPE, "application/json".to_string()),
        ],
        record,
    ))
}

async fn export_text(
    State(state): State<AppState>,
    Path(id): Path<String>,
    LinkBase(base): LinkBase,
    client: ClientIp,
) -> Result<impl IntoResponse, AppError> {
    let id = parse_game_id(&id)?;
    super::charge_load(&state, client.key(), id)?;
    let json = state
        .registry
        .with_game(id, |game| async move { game.record_json().await })
        .await?;
    let record: GameRecord = serde_json::from_str(&json).map_err(|_| AppError::Internal)?;
    let text = record_text::render(&record, &format!("{base}/game/{id}"));
    let disposition = format!("attachment; filename=\"djambi-{id}.txt\"");
    Ok((
        [
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
        ],
        text,
    ))
}

async fn import(
    State(state): State<AppState>,
    client: ClientIp,
    LinkBase(base): LinkBase,
    ApiJson(record): ApiJson<GameRecord>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    state
        .budgets
        .create
        .take(client.key())
        .map_err(|wait| AppError::rate_limited("too many imports from your address", wait))?;
    // Stored bytes: each event a row of about 128 bytes, finished games included.
    let kib = u32::try_from(record.events.len().div_ceil(8)).unwrap_or(u32::MAX);
    state
        .budgets
        .import_kib
        .take_n(client.key(), kib)
        .map_err(|wait| {
            AppError::rate_limited("your address has imported too much lately", wait)
        })?;
    let created = state
        .registry
        .import(&record, Some(client.key()), Some(base))
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}
