//! `POST /api/games/{id}/hint` (PROTOCOL §2.4): "show a good turn" in a game, for the seat to
//! move, where the game allows it (every other living seat a bot, or hints allowed by its
//! creator). The game says whether the token's seat may ask and what position to think about;
//! the engine thinks on the bots' threads. A hint spends one unit of the address's hint budget
//! (the lessons' too); a wrong token counts against its wrong-token budget, as a claim does.

use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::routing::post;
use axum::{Json, Router};
use djambi_core::Position;

use super::positions::{HINT_MOVETIME, MAX_BODY, refused};
use super::{ApiJson, parse_game_id};
use crate::AppState;
use crate::error::AppError;
use crate::game::bots::Charge;
use crate::game::{Answer, Call, Gone};
use crate::net::ClientIp;
use crate::protocol::hint::{GameHint, HintRequest};
use crate::table::HintRefusal;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/hint", post(hint))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

fn wrong_tokens(wait: Duration) -> AppError {
    AppError::rate_limited("too many wrong seat tokens", wait)
}

async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    ApiJson(body): ApiJson<HintRequest>,
) -> Result<Json<GameHint>, AppError> {
    let id = parse_game_id(&id)?;
    let ip = client.key();
    let budgets = &state.budgets;
    budgets.may_try_token(ip).map_err(wrong_tokens)?;
    budgets
        .hint
        .take(ip)
        .map_err(|wait| AppError::rate_limited("too many hints asked from your address", wait))?;
    let asked = state
        .registry
        .with_game(id, |game| {
            let token = body.token.clone();
            async move {
                match game.call(Call::Hint { token }).await? {
                    Answer::Hint(asked) => Ok(asked),
                    _ => Err(Gone),
                }
            }
        })
        .await?;
    if let Err(HintRefusal::BadToken) = asked {
        tracing::debug!(%ip, game = %id, "hint with a wrong seat token");
        budgets.wrong_token(ip).map_err(wrong_tokens)?;
    }
    let asked = asked?;
    let pos = Position::from_dpn(&asked.position, asked.rules).map_err(|_| AppError::Internal)?;
    let turn = state
        .registry
        .bots()
        .hint(
            pos,
            HINT_MOVETIME,
            asked.seed,
            Charge::new(Some(ip), Some(id)),
        )
        .await
        .map_err(refused)?;
    Ok(Json(GameHint {
        turn: turn.to_string(),
        player: asked.player,
        v: asked.v,
    }))
}
