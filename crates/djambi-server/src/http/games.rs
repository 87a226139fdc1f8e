//! Creating, listing and looking at games.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use super::{ApiJson, Bearer, LinkBase, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::game::NewGame;
use crate::net::ClientIp;
use crate::protocol::http::{CreateGame, CreatedGame, GameList, ListQuery};
use crate::table::{AdminWhat, BotLevel, GameStatus, table_level};

/// Games listed when no `limit` is given.
const DEFAULT_LIMIT: u32 = 50;
/// The most games one list holds.
const MAX_LIMIT: u32 = 200;
/// The most games a list by ids holds.
const MAX_IDS: usize = 50;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(snapshot).delete(cancel))
}

async fn create(
    State(state): State<AppState>,
    client: ClientIp,
    LinkBase(base): LinkBase,
    ApiJson(body): ApiJson<CreateGame>,
) -> Result<(StatusCode, Json<CreatedGame>), AppError> {
    state
        .budgets
        .create
        .take(client.key())
        .map_err(|wait| AppError::rate_limited("too many new games from your address", wait))?;
    // A circle's game: created by one of its members (their key checked like any).
    let circle = match &body.circle {
        Some(auth) => Some(
            super::circles::authorise(&state, client.key(), &auth.id.to_string(), &auth.key)
                .await?,
        ),
        None => None,
    };
    let mut new = match body.start.as_deref() {
        Some(_) if body.hostage.is_some() => {
            return Err(AppError::BadRequest(
                "hostage: a start position names its hostage army itself".into(),
            ));
        }
        Some(dpn) => NewGame::from_dpn(body.players, dpn, body.rules)?,
        None => NewGame::standard(body.players, body.hostage, body.rules)?,
    };
    new.names = body.names;
    new.open = body.open;
    new.listed = body.listed;
    new.creator = Some(client.key());
    new.base_url = Some(base);
    new.bots = body.bots.into_iter().map(|(p, l)| (p, l.0)).collect();
    let min_per_turn = u32::try_from(state.config.games.min_turn_deadline_secs).unwrap_or(u32::MAX);
    new.settings = NewGame::settings(
        body.clock,
        body.on_timeout,
        body.takeover_level,
        body.bot_movetime_ms,
        min_per_turn,
        body.players_chat_public,
    )?;
    new.settings.hints = body.hints;
    // A seat handed over on a timeout gets a bot like the table's others, unless named.
    if body.takeover_level.is_none()
        && let Some(level) = table_level(new.bots.values().copied())
    {
        new.settings.takeover_level = BotLevel(level);
    }
    new.circle = circle.as_ref().map(|(c, _)| c.id);
    let created = state.registry.create(new).await?;
    if let Some((circle, by)) = &circle {
        tracing::info!(game = %created.id, circle = %circle.id, member = %by.id, "circle game created");
        state
            .push
            .circle_game(circle.id, &circle.name, created.id, by.id, &by.name)
            .await;
    }
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
            AppError::BadRequest("status: expected open, live, finished, cancelled or all".into())
        })?),
    };
    if let Some(ids) = query.ids.as_deref() {
        // A browser's own games: at most 50 ids; unknown or malformed ones are left out.
        let ids: Vec<uuid::Uuid> = ids
            .split(',')
            .filter_map(|id| uuid::Uuid::parse_str(id.trim()).ok())
            .take(MAX_IDS)
            .collect();
        return Ok(Json(state.registry.list_ids(&ids).await?));
    }
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    Ok(Json(state.registry.list(status, limit).await?))
}

/// `DELETE /api/games/{id}` with the creator's admin token: cancels a game that has not
/// started.
async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Json<serde_json::Value>, AppError> {
    let id = parse_game_id(&id)?;
    state.registry.admin(id, token, AdminWhat::Cancel).await??;
    Ok(Json(serde_json::json!({"id": id, "status": "cancelled"})))
}

/// `GET /api/games/{id}`: the public snapshot ([`GameView`](crate::protocol::GameView)), as
/// its actor serialised it (here, or on the node that owns the game).
async fn snapshot(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
) -> Result<impl IntoResponse, AppError> {
    let id = parse_game_id(&id)?;
    super::charge_load(&state, client.key(), id)?;
    let view = state
        .registry
        .with_game(id, |game| async move { game.snapshot_json().await })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], view))
}
