//! Positions outside any game, for lessons and puzzles (PROTOCOL §2.1): the legal turns of a
//! position, a turn tried on it (judged by the core: an illegal one is refused with the core's
//! reason, which cites the rule), and the engine's hint, thought on the bots' threads. Nothing
//! is stored; each address has a budget of requests and a smaller one of hints.

use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::routing::post;
use axum::{Json, Router};
use djambi_core::{MAX_DPN_LEN, MAX_TURN_LEN, Player, Position, ResultRecord, Rules, Turn};
use serde::{Deserialize, Serialize};

use super::ApiJson;
use crate::AppState;
use crate::error::AppError;
use crate::game::bots::{Charge, Refused};
use crate::net::ClientIp;
use crate::protocol::{EffectsView, LegalView};

/// The largest body these routes read: a position and a turn are far smaller.
pub(super) const MAX_BODY: usize = 4 * 1024;

/// How long the engine thinks about a hint (here and in games): a fixed, modest effort.
pub(super) const HINT_MOVETIME: Duration = Duration::from_millis(500);

/// The hint's engine seed: the same position gets the same hint while the engine is not rushed.
const HINT_SEED: u64 = 0x1e55_0a5d;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/api/positions", post(legal))
        .route("/api/positions/play", post(play))
        .route("/api/positions/try", post(try_turn))
        .route("/api/positions/hint", post(hint))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// `{"position": DPN}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: String,
}

/// `{"position": DPN, "turn": TEXT}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    position: String,
    turn: String,
}

/// A position as the page needs it: canonical DPN, who moves, the legal turns (compact, as in
/// the socket's `legal` message), and the result once the game is over.
#[derive(Debug, Serialize)]
pub(super) struct PositionView {
    /// The position, canonical.
    position: String,
    /// The player to move; none when the game is over.
    to_move: Option<Player>,
    /// The legal turns of the player to move (PROTOCOL §3.4).
    legal: LegalView,
    /// The result once the game is over.
    result: Option<ResultRecord>,
}

impl PositionView {
    /// The view of `pos`.
    pub(super) fn of(pos: &Position) -> PositionView {
        PositionView {
            position: pos.to_dpn(),
            to_move: pos.to_move(),
            legal: LegalView::new(pos.legal_turns()),
            result: ResultRecord::from_outcome(pos.outcome()),
        }
    }
}

/// A turn played: the turn, who played it, what it changed, and the position after it.
#[derive(Debug, Serialize)]
pub(super) struct PlayedView {
    /// The canonical turn text.
    turn: String,
    /// Who played it.
    player: Player,
    /// What it changed, in order (as in a turn event).
    effects: EffectsView,
    /// The position after it.
    #[serde(flatten)]
    after: PositionView,
}

/// A turn tried: played, or refused with the core's reason (an expected answer for a lesson
/// that asks to see a rule refuse a turn, hence not an HTTP error).
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum TriedView {
    /// Legal: as `/api/positions/play` answers.
    Played(Box<PlayedView>),
    /// Not legal: the core's reason, which cites the rule.
    Refused {
        /// The reason.
        refused: String,
    },
}

/// The engine's suggestion.
#[derive(Debug, Serialize)]
struct HintView {
    /// The turn, canonical.
    turn: String,
    /// The player it is for (the player to move).
    player: Player,
}

/// Reads a position sent by a client (standard rules), or says what is wrong with it.
pub(super) fn read_position(dpn: &str) -> Result<Position, AppError> {
    if dpn.len() > MAX_DPN_LEN {
        return Err(AppError::BadRequest(format!(
            "position: at most {MAX_DPN_LEN} bytes"
        )));
    }
    Position::from_dpn(dpn, Rules::default())
        .map_err(|e| AppError::BadRequest(format!("position: {e}")))
}

/// Resolves a turn text in `pos`: the turn if it is legal, else `illegal` with the core's
/// reason.
pub(super) fn read_turn(pos: &Position, text: &str) -> Result<Turn, AppError> {
    if text.len() > MAX_TURN_LEN {
        return Err(AppError::BadRequest(format!(
            "turn: at most {MAX_TURN_LEN} bytes"
        )));
    }
    pos.parse_turn(text)
        .map_err(|e| AppError::Illegal(e.to_string()))
}

/// Plays `turn` (legal) on `pos`: what the page shows of it.
fn played(mut pos: Position, turn: Turn) -> Result<PlayedView, AppError> {
    let player = pos.to_move().ok_or(AppError::Internal)?;
    let effects = pos
        .play_with_effects(&turn)
        .map_err(|e| AppError::Illegal(e.to_string()))?;
    Ok(PlayedView {
        turn: turn.to_string(),
        player,
        effects: EffectsView(effects),
        after: PositionView::of(&pos),
    })
}

/// Spends one unit of the address's position budget.
pub(super) fn spend(state: &AppState, client: ClientIp) -> Result<(), AppError> {
    state.budgets.positions.take(client.key()).map_err(|wait| {
        AppError::rate_limited("too many position requests from your address", wait)
    })
}

/// `POST /api/positions`: the position, canonical, with its legal turns.
async fn legal(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<PositionBody>,
) -> Result<Json<PositionView>, AppError> {
    spend(&state, client)?;
    let pos = read_position(&body.position)?;
    Ok(Json(PositionView::of(&pos)))
}

/// `POST /api/positions/play`: the turn judged by the core, and the position after it.
async fn play(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<PlayBody>,
) -> Result<Json<PlayedView>, AppError> {
    spend(&state, client)?;
    let pos = read_position(&body.position)?;
    let turn = read_turn(&pos, &body.turn)?;
    Ok(Json(played(pos, turn)?))
}

/// `POST /api/positions/try`: the turn judged by the core, answered 200 either way: the turn
/// played and the position after it, or `{"refused": reason}`.
async fn try_turn(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<PlayBody>,
) -> Result<Json<TriedView>, AppError> {
    spend(&state, client)?;
    let pos = read_position(&body.position)?;
    match read_turn(&pos, &body.turn) {
        Ok(turn) => Ok(Json(TriedView::Played(Box::new(played(pos, turn)?)))),
        Err(AppError::Illegal(reason)) => Ok(Json(TriedView::Refused { refused: reason })),
        Err(e) => Err(e),
    }
}

/// `POST /api/positions/hint`: the engine's turn for the player to move.
/// A hint the bot pool would not think about, as the client is told: its own hint still on its
/// way (429, retry in a moment), or the hint queue full of others' (503, retry).
pub(super) fn refused(why: Refused) -> AppError {
    match why {
        Refused::Yours => AppError::rate_limited(&why.to_string(), Duration::from_secs(1)),
        Refused::Busy => AppError::Busy {
            message: why.to_string(),
            retry_after: Duration::from_secs(5),
        },
        Refused::Stopped => AppError::Unavailable(why.to_string()),
    }
}

async fn hint(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<PositionBody>,
) -> Result<Json<HintView>, AppError> {
    let pos = read_position(&body.position)?;
    let player = pos
        .to_move()
        .ok_or_else(|| AppError::BadRequest("position: the game is over".into()))?;
    state
        .budgets
        .hint
        .take(client.key())
        .map_err(|wait| AppError::rate_limited("too many hints asked from your address", wait))?;
    let turn = state
        .registry
        .bots()
        .hint(
            pos,
            HINT_MOVETIME,
            HINT_SEED,
            Charge::new(Some(client.key()), None),
        )
        .await
        .map_err(refused)?;
    Ok(Json(HintView {
        turn: turn.to_string(),
        player,
    }))
}
