//! Web Push's endpoints (PROTOCOL §2, "Push notifications"): the server's public VAPID key, and
//! a seat's browsers subscribing (and unsubscribing) with the seat's token.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use djambi_core::Player;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{ApiJson, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::net::ClientIp;
use crate::push::{Lang, PushError};

/// The largest subscription request (a browser's PushSubscription is well under 1 KiB).
pub(super) const MAX_BODY_BYTES: usize = 4096;

/// The longest seat token, browser key, secret and language tag read.
const MAX_TOKEN: usize = 128;
pub(super) const MAX_KEY: usize = 128;
pub(super) const MAX_LANG: usize = 35;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/api/push/key", get(key)).route(
        "/api/games/{id}/push",
        post(subscribe)
            .delete(unsubscribe)
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
    )
}

/// `GET /api/push/key`'s answer.
#[derive(Serialize)]
struct PushKey {
    /// The server's VAPID public key: an uncompressed P-256 point, base64url.
    key: String,
}

/// `POST`/`DELETE /api/games/{id}/push`'s body.
#[derive(Clone, Deserialize)]
struct PushRequest {
    /// The seat's token.
    token: String,
    /// The browser's `PushSubscription`, as its `toJSON()` gives it.
    subscription: BrowserSubscription,
    /// The language of the notifications (`en`, `fr`, `it`; default `en`).
    #[serde(default)]
    lang: Option<String>,
}

/// A browser's `PushSubscription.toJSON()` (its other fields ignored).
#[derive(Clone, Deserialize)]
pub(super) struct BrowserSubscription {
    pub(super) endpoint: String,
    /// Needed to subscribe; a DELETE may leave them out.
    #[serde(default)]
    pub(super) keys: Option<BrowserKeys>,
}

/// Its keys.
#[derive(Clone, Deserialize)]
pub(super) struct BrowserKeys {
    pub(super) p256dh: String,
    pub(super) auth: String,
}

/// The answer to a subscription.
#[derive(Serialize)]
struct Subscribed {
    game: Uuid,
    player: Player,
}

impl From<PushError> for AppError {
    fn from(e: PushError) -> AppError {
        match e {
            PushError::Endpoint(e) => AppError::BadRequest(e.to_string()),
            PushError::Keys(message) => AppError::BadRequest(message.into()),
            PushError::Store(e) => e.into(),
        }
    }
}

/// `GET /api/push/key`: `{"key": "<base64url public key>"}`.
async fn key(State(state): State<AppState>) -> Json<PushKey> {
    Json(PushKey {
        key: state.push.public_key().to_string(),
    })
}

/// Checks the request's sizes and token: the seat it holds. Spends the address's budgets
/// (subscriptions; wrong tokens, like claims).
async fn seat(
    state: &AppState,
    client: &ClientIp,
    id: Uuid,
    body: &PushRequest,
) -> Result<Player, AppError> {
    let ip = client.key();
    state
        .push
        .may_subscribe(ip)
        .map_err(|wait| AppError::rate_limited("too many push subscriptions", wait))?;
    let long =
        |what: &str, max: usize| AppError::BadRequest(format!("{what}: at most {max} bytes"));
    if body.token.len() > MAX_TOKEN {
        return Err(long("token", MAX_TOKEN));
    }
    if body.lang.as_ref().is_some_and(|l| l.len() > MAX_LANG) {
        return Err(long("lang", MAX_LANG));
    }
    if let Some(keys) = &body.subscription.keys
        && (keys.p256dh.len() > MAX_KEY || keys.auth.len() > MAX_KEY)
    {
        return Err(long("subscription.keys", MAX_KEY));
    }
    let budgets = &state.budgets;
    budgets
        .may_try_token(ip)
        .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
    let token = body.token.clone();
    let seat = state
        .registry
        .with_game(id, |game| {
            let token = token.clone();
            async move { game.seat_of(token).await }
        })
        .await?;
    match seat {
        Some(player) => Ok(player),
        None => {
            tracing::debug!(%ip, game = %id, "push subscription with a wrong seat token");
            budgets
                .wrong_token(ip)
                .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
            Err(AppError::BadToken)
        }
    }
}

/// `POST /api/games/{id}/push` with `{"token", "subscription", "lang"}`: this browser gets the
/// seat's notifications (201 `{"game", "player"}`).
async fn subscribe(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<PushRequest>,
) -> Result<(StatusCode, Json<Subscribed>), AppError> {
    let id = parse_game_id(&id)?;
    let player = seat(&state, &client, id, &body).await?;
    let keys = body.subscription.keys.as_ref().ok_or_else(|| {
        AppError::BadRequest("subscription.keys: the browser's p256dh and auth are needed".into())
    })?;
    let lang = Lang::of_tag(body.lang.as_deref().unwrap_or("en"));
    let sub = state
        .push
        .check(&body.subscription.endpoint, &keys.p256dh, &keys.auth, lang)
        .await?;
    state.push.subscribe(id, player, &sub, client.key()).await?;
    tracing::info!(game = %id, seat = %player, "push subscription kept");
    Ok((StatusCode::CREATED, Json(Subscribed { game: id, player })))
}

/// `DELETE /api/games/{id}/push` with the same body: this browser no longer gets the seat's
/// notifications (204, whether it had subscribed or not).
async fn unsubscribe(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<PushRequest>,
) -> Result<StatusCode, AppError> {
    let id = parse_game_id(&id)?;
    let player = seat(&state, &client, id, &body).await?;
    if body.subscription.endpoint.len() > crate::push::guard::MAX_ENDPOINT_BYTES {
        return Err(AppError::BadRequest(
            crate::push::EndpointError::NotUrl.to_string(),
        ));
    }
    let removed = state
        .push
        .unsubscribe(id, player, &body.subscription.endpoint)
        .await?;
    tracing::info!(game = %id, seat = %player, removed, "push subscription stopped");
    Ok(StatusCode::NO_CONTENT)
}
