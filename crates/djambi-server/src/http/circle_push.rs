//! A circle member's browser subscribing to the circle's news (a new circle game), with the
//! member's key: `POST`/`DELETE /api/circles/{id}/push` (PROTOCOL §2.5). The same checks and
//! budgets as a seat's subscription (`http/push.rs`): the address's budget of subscriptions,
//! the endpoint guard, the browser's keys, a small body, and a cap per member.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;

use super::ApiJson;
use super::circles::{authorise, member_key};
use super::push::{BrowserSubscription, MAX_BODY_BYTES, MAX_KEY, MAX_LANG};
use crate::AppState;
use crate::error::AppError;
use crate::net::ClientIp;
use crate::push::Lang;

pub(super) fn router() -> Router<AppState> {
    Router::new().route(
        "/api/circles/{id}/push",
        post(subscribe)
            .delete(unsubscribe)
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
    )
}

/// The body: the browser's subscription and the notifications' language.
#[derive(Clone, Deserialize)]
struct MemberPush {
    subscription: BrowserSubscription,
    #[serde(default)]
    lang: Option<String>,
}

/// Checks the sizes and spends the address's subscriptions.
fn check(state: &AppState, client: ClientIp, body: &MemberPush) -> Result<(), AppError> {
    state
        .push
        .may_subscribe(client.key())
        .map_err(|wait| AppError::rate_limited("too many push subscriptions", wait))?;
    let long =
        |what: &str, max: usize| AppError::BadRequest(format!("{what}: at most {max} bytes"));
    if body.lang.as_ref().is_some_and(|l| l.len() > MAX_LANG) {
        return Err(long("lang", MAX_LANG));
    }
    if let Some(keys) = &body.subscription.keys
        && (keys.p256dh.len() > MAX_KEY || keys.auth.len() > MAX_KEY)
    {
        return Err(long("subscription.keys", MAX_KEY));
    }
    if body.subscription.endpoint.len() > crate::push::guard::MAX_ENDPOINT_BYTES {
        return Err(AppError::BadRequest(
            crate::push::EndpointError::NotUrl.to_string(),
        ));
    }
    Ok(())
}

/// `POST /api/circles/{id}/push` with a member's key: this browser is told when a game of the
/// circle is created (201 `{"circle", "member"}`).
async fn subscribe(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<MemberPush>,
) -> Result<(StatusCode, Json<serde_json::Value>), AppError> {
    let key = member_key(&headers)?;
    check(&state, client, &body)?;
    let (circle, member) = authorise(&state, client.key(), &id, &key).await?;
    let keys = body.subscription.keys.as_ref().ok_or_else(|| {
        AppError::BadRequest("subscription.keys: the browser's p256dh and auth are needed".into())
    })?;
    let lang = Lang::of_tag(body.lang.as_deref().unwrap_or("en"));
    let sub = state
        .push
        .check(&body.subscription.endpoint, &keys.p256dh, &keys.auth, lang)
        .await?;
    state
        .push
        .subscribe_member(circle.id, member.id, &sub, client.key())
        .await?;
    tracing::info!(circle = %circle.id, member = %member.id, "member push subscription kept");
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({"circle": circle.id, "member": member.id})),
    ))
}

/// `DELETE /api/circles/{id}/push` with a member's key and the same body: no more news of the
/// circle to this browser (204, whether it had subscribed or not).
async fn unsubscribe(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<MemberPush>,
) -> Result<StatusCode, AppError> {
    let key = member_key(&headers)?;
    check(&state, client, &body)?;
    let (circle, member) = authorise(&state, client.key(), &id, &key).await?;
    let removed = state
        .push
        .unsubscribe_member(member.id, &body.subscription.endpoint)
        .await?;
    tracing::info!(circle = %circle.id, member = %member.id, removed, "member push subscription stopped");
    Ok(StatusCode::NO_CONTENT)
}
