//! Claiming a seat.

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};

use djambi_core::{Army, Player};
use djambi_engine::Level;

use super::{ApiJson, Bearer, LinkBase, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::game::Registry;
use crate::net::ClientIp;
use crate::protocol::circle::MemberAuth;
use crate::protocol::http::{CheckInvite, CheckedInvite, ClaimSeat, ClaimedSeat};
use crate::protocol::http::{SeatBot, SeatInvite};
use crate::table::{AdminAnswer, AdminWhat, BotLevel, ClaimError, MemberSeat};

/// The longest token looked up: seat tokens are 32 characters (PROTOCOL §2).
const MAX_TOKEN: usize = 64;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/seats", post(claim))
        .route("/api/games/{id}/seats/check", post(check))
        .route("/api/games/{id}/seats/{player}/invite", post(reinvite))
        .route("/api/games/{id}/seats/{player}/bot", post(to_bot))
}

fn seat_of(player: &str) -> Result<Player, AppError> {
    let mut chars = player.chars();
    match (chars.next().and_then(Army::from_char), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(AppError::NotFound(format!(
            "no seat {:?}",
            player.chars().take(8).collect::<String>()
        ))),
    }
}

/// `POST /api/games/{id}/seats/{player}/invite` with the creator's admin token, before the
/// start: a new invite for the seat; sockets on its old token lose it at once.
async fn reinvite(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    LinkBase(base): LinkBase,
    Bearer(token): Bearer,
) -> Result<Json<SeatInvite>, AppError> {
    let id = parse_game_id(&id)?;
    let player = seat_of(&player)?;
    match state
        .registry
        .admin(id, token, AdminWhat::Reinvite(player))
        .await??
    {
        AdminAnswer::Invite(player, token) => {
            // The old invite's holder no longer holds the seat: nor its notifications.
            state.push.forget_seat(id, player).await?;
            Ok(Json(Registry::invite(&base, id, player, None, &token)))
        }
        _ => Err(AppError::Internal),
    }
}

/// The level of a bot given a seat without one named: the table's other bots' level (the most
/// common, the stronger on a tie), else medium.
async fn table_level(state: &AppState, id: uuid::Uuid) -> Result<Level, AppError> {
    let view = state
        .registry
        .with_game(id, |game| async move { game.snapshot_json().await })
        .await?;
    // The snapshot as its actor serialised it (here or on the game's owner): its seats' `bot`.
    let view: serde_json::Value = serde_json::from_str(&view).map_err(|_| AppError::Internal)?;
    let levels = view["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|seat| seat["bot"].as_str()?.parse::<Level>().ok());
    Ok(crate::table::table_level(levels).unwrap_or(Level::Medium))
}

/// `POST /api/games/{id}/seats/{player}/bot` with the creator's admin token, before the
/// start: a bot plays the seat (`{"level": "hard"}`; default: the level of the table's other
/// bots, else medium).
async fn to_bot(
    State(state): State<AppState>,
    client: ClientIp,
    Path((id, player)): Path<(String, String)>,
    Bearer(token): Bearer,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, AppError> {
    let id = parse_game_id(&id)?;
    let player = seat_of(&player)?;
    // The body is optional: no body, a medium bot.
    let body: SeatBot = if body.iter().all(u8::is_ascii_whitespace) {
        SeatBot::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest(e.to_string()))?
    };
    state.registry.let_bot_in(id, client.key())?;
    let level = match body.level {
        Some(level) => level.0,
        None => table_level(&state, id).await?,
    };
    state
        .registry
        .admin(id, token, AdminWhat::Bot(player, BotLevel(level)))
        .await??;
    Ok(Json(
        serde_json::json!({"player": player, "bot": level.name()}),
    ))
}

/// The member of a claim's `member`, checked against their circle: the seat they ask for, and
/// the name it gets. A wrong key counts as a wrong token.
async fn member_seat(
    state: &AppState,
    ip: crate::net::IpKey,
    auth: &MemberAuth,
) -> Result<(MemberSeat, String), AppError> {
    state
        .budgets
        .circle_read
        .take(ip)
        .map_err(|wait| AppError::rate_limited("too many circle requests", wait))?;
    let (circle, member) =
        super::circles::authorise(state, ip, &auth.circle.to_string(), &auth.key).await?;
    if member.id != auth.id {
        // A present member's key, another member's id: as wrong as a wrong key.
        return Err(super::circles::wrong(
            state,
            ip,
            crate::circle::CircleError::BadKey,
        ));
    }
    Ok((
        MemberSeat {
            circle: circle.id,
            member: member.id,
        },
        member.name,
    ))
}

/// `POST /api/games/{id}/seats/check`: the seat an invite's token opens (null: no seat's,
/// wrong or replaced), so that a page opening an invite link can tell a wrong link from a seat
/// held on another device before anyone claims anything. Answered 200 either way (an expected
/// answer, not an error), but a wrong token is charged to the address's budget of wrong tokens
/// as a claim's is: the check is no cheaper way to guess tokens.
async fn check(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<CheckInvite>,
) -> Result<Json<CheckedInvite>, AppError> {
    let id = parse_game_id(&id)?;
    let ip = client.key();
    let budgets = &state.budgets;
    budgets
        .may_try_token(ip)
        .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
    // A seat token is 32 characters: anything much longer is no seat's, without asking.
    let player = if body.token.len() > MAX_TOKEN {
        None
    } else {
        super::charge_load(&state, ip, id)?;
        let token = body.token;
        state
            .registry
            .with_game(id, |game| {
                let token = token.clone();
                async move { game.seat_of(token).await }
            })
            .await?
    };
    if player.is_none() {
        tracing::debug!(%ip, game = %id, "invite checked with a wrong seat token");
        budgets
            .wrong_token(ip)
            .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
    }
    Ok(Json(CheckedInvite { player }))
}

/// Claims the invited seat (with its token) or, in an open game, a free seat, or, for a member
/// of the game's circle, a free seat; the actor decides, so concurrent claims of one seat
/// cannot both win (nor two seats of one member).
/// A wrong token counts against the address's budget of wrong tokens; past it, the address's
/// claims with a token are refused (`rate_limited`) without looking at the token.
async fn claim(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<ClaimSeat>,
) -> Result<Json<ClaimedSeat>, AppError> {
    let id = parse_game_id(&id)?;
    let ip = client.key();
    let budgets = &state.budgets;
    if body.token.is_some() {
        budgets
            .may_try_token(ip)
            .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
    }
    let (member, name) = match &body.member {
        Some(_) if body.token.is_some() || body.name.is_some() => {
            return Err(AppError::BadRequest(
                "member: a member's claim has neither token nor name (the seat gets the member's name)"
                    .into(),
            ));
        }
        Some(auth) => {
            let (seat, name) = member_seat(&state, ip, auth).await?;
            (Some(seat), Some(name))
        }
        None => (None, body.name.clone()),
    };
    let claimed = state
        .registry
        .with_game(id, |game| {
            let (token, player, name) = (body.token.clone(), body.player, name.clone());
            async move { game.claim(token, player, name, member).await }
        })
        .await?;
    if let Err(ClaimError::BadToken) = &claimed
        && body.token.is_some()
    {
        tracing::debug!(%ip, game = %id, "claim with a wrong seat token");
        budgets
            .wrong_token(ip)
            .map_err(|wait| AppError::rate_limited("too many wrong seat tokens", wait))?;
    }
    let claimed = claimed?;
    // A seat claimed has its holder from now on: browsers subscribed before (with an invite's
    // token another holder had) are no longer told about it.
    state.push.forget_seat(id, claimed.player).await?;
    Ok(Json(claimed))
}
