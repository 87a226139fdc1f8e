//! The puzzles (PROTOCOL §2.2): the list, one puzzle to solve (its position and legal turns,
//! not its solution), an answer judged against the solution, and the solution for whoever
//! gives up. The puzzles are the embedded `data/puzzles.json` (crate::puzzles).

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use djambi_core::Player;
use serde::{Deserialize, Serialize};

use super::ApiJson;
use super::positions::{MAX_BODY, PositionView, read_turn, spend};
use crate::AppState;
use crate::error::AppError;
use crate::net::ClientIp;
use crate::puzzles::{Puzzle, PuzzleSummary, puzzles};
use djambi_engine::puzzle::Theme;

pub(super) fn router() -> Router<AppState> {
    // Read (and checked) now: a broken puzzle file stops the server at its start.
    let count = puzzles().len();
    tracing::debug!(puzzles = count, "puzzles loaded");
    Router::new()
        .route("/api/puzzles", get(list))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/solution", get(solution))
        .route("/api/puzzles/{id}/answer", post(answer))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// `{"puzzles": [...]}`.
#[derive(Debug, Serialize)]
struct PuzzleList {
    puzzles: Vec<PuzzleSummary>,
}

/// One puzzle to solve.
#[derive(Debug, Serialize)]
struct PuzzleView {
    id: String,
    theme: Theme,
    difficulty: u8,
    player: Player,
    #[serde(flatten)]
    position: PositionView,
}

/// `{"turn": TEXT}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    turn: String,
}

/// The judgement of an answer.
#[derive(Debug, Serialize)]
struct AnswerView {
    /// Whether it is the solution.
    correct: bool,
    /// The answer, canonical.
    turn: String,
    /// The solution.
    solution: String,
    /// The engine's continuation after the solution.
    line: Vec<String>,
}

/// The solution of a puzzle.
#[derive(Debug, Serialize)]
struct SolutionView {
    solution: String,
    line: Vec<String>,
}

/// The puzzle of a path's id (`not_found` for any other text).
fn find(id: &str) -> Result<&'static Puzzle, AppError> {
    puzzles().get(id).ok_or_else(|| {
        let shown: String = id.chars().take(20).collect();
        AppError::NotFound(format!("no puzzle {shown}"))
    })
}

/// `GET /api/puzzles`: every puzzle's id, theme, difficulty and solver, in order.
async fn list(
    State(state): State<AppState>,
    client: ClientIp,
) -> Result<Json<PuzzleList>, AppError> {
    spend(&state, client)?;
    Ok(Json(PuzzleList {
        puzzles: puzzles().all().iter().map(Puzzle::summary).collect(),
    }))
}

/// `GET /api/puzzles/{id}`: the puzzle to solve.
async fn one(
    State(state): State<AppState>,
    client: ClientIp,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, AppError> {
    spend(&state, client)?;
    let p = find(&id)?;
    Ok(Json(PuzzleView {
        id: p.id.clone(),
        theme: p.theme,
        difficulty: p.difficulty,
        player: p.player,
        position: PositionView::of(&p.position),
    }))
}

/// `GET /api/puzzles/{id}/solution`: the solution and its line.
async fn solution(
    State(state): State<AppState>,
    client: ClientIp,
    Path(id): Path<String>,
) -> Result<Json<SolutionView>, AppError> {
    spend(&state, client)?;
    let p = find(&id)?;
    Ok(Json(SolutionView {
        solution: p.solution.to_string(),
        line: p.line.clone(),
    }))
}

/// `POST /api/puzzles/{id}/answer`: whether the turn is the solution (an illegal turn is
/// `illegal`, with the core's reason).
async fn answer(
    State(state): State<AppState>,
    client: ClientIp,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AnswerBody>,
) -> Result<Json<AnswerView>, AppError> {
    spend(&state, client)?;
    let p = find(&id)?;
    let turn = read_turn(&p.position, &body.turn)?;
    Ok(Json(AnswerView {
        correct: turn == p.solution,
        turn: turn.to_string(),
        solution: p.solution.to_string(),
        line: p.line.clone(),
    }))
}
