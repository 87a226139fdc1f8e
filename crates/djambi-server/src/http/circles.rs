//! The circles' API (PROTOCOL §2.5, docs/CIRCLES.md): create a circle, join it with its
//! invite, read it with a member's key (`Authorization: Bearer KEY`), rename it, leave it or
//! remove a member, a new invite, and the exports. Every request spends the address's budget
//! of circle requests (creations their own); a wrong key or invite counts as a wrong seat
//! token does. Keys and invites are never logged.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use uuid::Uuid;

use super::{ApiJson, LinkBase};
use crate::AppState;
use crate::circle::{CircleError, CircleRow, MemberRow};
use crate::error::AppError;
use crate::net::{ClientIp, IpKey};
use crate::protocol::circle::{
    CircleView, CreateCircle, CreatedCircle, JoinCircle, JoinedCircle, MemberKey, RenameCircle,
};

/// The largest body of a circle request (names and secrets: well under 1 KiB).
pub(super) const MAX_BODY_BYTES: usize = 4096;

/// The longest key or invite read (they are 32 characters).
const MAX_SECRET: usize = 128;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/circles", post(create))
        .route("/api/circles/{id}", get(read).patch(rename))
        .route("/api/circles/{id}/members", post(join))
        .route("/api/circles/{id}/members/{member}", delete(depart))
        .route("/api/circles/{id}/invite", post(reinvite))
        .route("/api/circles/{id}/standings.csv", get(standings_csv))
        .route("/api/circles/{id}/games.csv", get(games_csv))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// The member key of `Authorization: Bearer KEY`: `401` without one.
pub(super) fn member_key(headers: &HeaderMap) -> Result<String, AppError> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            AppError::Unauthorized(
                "a circle is read with a member's key: Authorization: Bearer KEY".into(),
            )
        })
}

/// Spends one of the address's circle requests.
fn charge(state: &AppState, ip: IpKey) -> Result<(), AppError> {
    state
        .budgets
        .circle_read
        .take(ip)
        .map_err(|wait| AppError::rate_limited("too many circle requests from your address", wait))
}

/// Whether the address may present a secret now (its wrong ones have a budget).
fn may_try(state: &AppState, ip: IpKey) -> Result<(), AppError> {
    state
        .budgets
        .may_try_token(ip)
        .map_err(|wait| AppError::rate_limited("too many wrong keys", wait))
}

/// Counts a wrong key or invite against the address, and gives the refusal.
pub(super) fn wrong(state: &AppState, ip: IpKey, e: CircleError) -> AppError {
    tracing::debug!(%ip, "a wrong circle key or invite");
    match state.budgets.wrong_token(ip) {
        Ok(()) => e.into(),
        Err(wait) => AppError::rate_limited("too many wrong keys", wait),
    }
}

/// The circle and the member whose key the request carries: `401` without a key, `403
/// bad_key` (counted as a wrong token) for a key that is no present member's of the circle,
/// or for a circle that does not exist — the answer says nothing about the circle.
pub(super) async fn authorise(
    state: &AppState,
    ip: IpKey,
    id: &str,
    key: &str,
) -> Result<(CircleRow, MemberRow), AppError> {
    may_try(state, ip)?;
    if key.len() > MAX_SECRET {
        return Err(wrong(state, ip, CircleError::BadKey));
    }
    let Ok(id) = Uuid::parse_str(id) else {
        return Err(wrong(state, ip, CircleError::BadKey));
    };
    match state.circles.member(id, key).await {
        Ok(found) => Ok(found),
        Err(e @ CircleError::BadKey) => Err(wrong(state, ip, e)),
        Err(e) => Err(e.into()),
    }
}

/// `POST /api/circles` `{"name", "member_name"}` → 201 `{"id", "url", "invite_url", "member":
/// {"id", "key"}}`: the only time the invite and the creator's key are shown.
async fn create(
    State(state): State<AppState>,
    client: ClientIp,
    LinkBase(base): LinkBase,
    ApiJson(body): ApiJson<CreateCircle>,
) -> Result<(StatusCode, Json<CreatedCircle>), AppError> {
    state
        .budgets
        .circle_create
        .take(client.key())
        .map_err(|wait| AppError::rate_limited("too many new circles from your address", wait))?;
    let (circle, invite, member) = state.circles.create(&body.name, &body.member_name).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedCircle {
            id: circle.id,
            url: format!("{base}/circle/{}", circle.id),
            invite_url: invite_url(&base, circle.id, invite.as_str()),
            member: MemberKey {
                id: member.id,
                key: member.key.as_str().to_string(),
            },
        }),
    ))
}

/// The link that lets a friend join: the invite rides in the fragment, which browsers never
/// send to a server.
fn invite_url(base: &str, id: Uuid, invite: &str) -> String {
    format!("{base}/circle/{id}/join#{invite}")
}

/// `POST /api/circles/{id}/members` `{"invite", "name"}` → 201 `{"member": {"id", "key"},
/// "name"}`; a wrong invite `403 bad_invite` (counted as a wrong token), a name already in the
/// circle `409 name_taken`, a full circle `409 circle_full`.
async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<JoinCircle>,
) -> Result<(StatusCode, Json<JoinedCircle>), AppError> {
    let ip = client.key();
    charge(&state, ip)?;
    may_try(&state, ip)?;
    let id = match Uuid::parse_str(&id) {
        Ok(id) if body.invite.len() <= MAX_SECRET => id,
        _ => return Err(wrong(&state, ip, CircleError::BadInvite)),
    };
    let (circle, member) = match state.circles.join(id, &body.invite, &body.name).await {
        Ok(joined) => joined,
        Err(e @ CircleError::BadInvite) => return Err(wrong(&state, ip, e)),
        Err(e) => return Err(e.into()),
    };
    Ok((
        StatusCode::CREATED,
        Json(JoinedCircle {
            member: MemberKey {
                id: member.id,
                key: member.key.as_str().to_string(),
            },
            name: circle.name,
        }),
    ))
}

/// `GET /api/circles/{id}` with a member's key: the standings, games, head-to-head and the
/// ratings over time.
async fn read(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
) -> Result<Json<CircleView>, AppError> {
    let key = member_key(&headers)?;
    charge(&state, client.key())?;
    let (circle, you) = authorise(&state, client.key(), &id, &key).await?;
    Ok(Json(state.circles.view(&circle, you.id).await?))
}

/// `PATCH /api/circles/{id}` `{"name"}` with the creator's key → 200 `{"id", "name"}`.
async fn rename(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<RenameCircle>,
) -> Result<Json<serde_json::Value>, AppError> {
    let key = member_key(&headers)?;
    charge(&state, client.key())?;
    let (circle, you) = authorise(&state, client.key(), &id, &key).await?;
    let name = state.circles.rename(&circle, &you, &body.name).await?;
    Ok(Json(serde_json::json!({"id": circle.id, "name": name})))
}

/// `DELETE /api/circles/{id}/members/{member}` with a member's key: that member leaves (their
/// own key) or is removed (the creator's key) → 200 `{"member", "status"}`. Their games stay.
async fn depart(
    State(state): State<AppState>,
    Path((id, member)): Path<(String, String)>,
    client: ClientIp,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, AppError> {
    let key = member_key(&headers)?;
    charge(&state, client.key())?;
    let (circle, you) = authorise(&state, client.key(), &id, &key).await?;
    let member = Uuid::parse_str(&member)
        .map_err(|_| AppError::NotFound("no such member in this circle".into()))?;
    let status = state.circles.depart(&circle, &you, member).await?;
    Ok(Json(
        serde_json::json!({"member": member, "status": status.as_str()}),
    ))
}

/// `POST /api/circles/{id}/invite` with the creator's key → 200 `{"invite_url"}`: a new
/// invite; the old link stops working.
async fn reinvite(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    LinkBase(base): LinkBase,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, AppError> {
    let key = member_key(&headers)?;
    charge(&state, client.key())?;
    let (circle, you) = authorise(&state, client.key(), &id, &key).await?;
    let invite = state.circles.reinvite(&circle, &you).await?;
    Ok(Json(
        serde_json::json!({"invite_url": invite_url(&base, circle.id, invite.as_str())}),
    ))
}

/// The circle's page, for the exports.
async fn view_for_export(
    state: &AppState,
    id: &str,
    client: ClientIp,
    headers: &HeaderMap,
) -> Result<CircleView, AppError> {
    let key = member_key(headers)?;
    charge(state, client.key())?;
    let (circle, you) = authorise(state, client.key(), id, &key).await?;
    Ok(state.circles.view(&circle, you.id).await?)
}

/// A CSV download.
fn csv_file(id: &str, what: &str, text: String) -> impl IntoResponse + use<> {
    let id: String = id
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(32)
        .collect();
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"circle-{id}-{what}.csv\""),
            ),
        ],
        text,
    )
}

/// `GET /api/circles/{id}/standings.csv` with a member's key.
async fn standings_csv(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let view = view_for_export(&state, &id, client, &headers).await?;
    Ok(csv_file(
        &id,
        "standings",
        super::circle_csv::standings(&view),
    ))
}

/// `GET /api/circles/{id}/games.csv` with a member's key.
async fn games_csv(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    headers: HeaderMap,
) -> Result<impl IntoResponse, AppError> {
    let view = view_for_export(&state, &id, client, &headers).await?;
    Ok(csv_file(&id, "games", super::circle_csv::games(&view)))
}
