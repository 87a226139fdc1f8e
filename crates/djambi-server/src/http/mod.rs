//! The HTTP API (PROTOCOL §2). Each feature owns a small router, merged here; handlers return
//! `Result<_, AppError>`, so every failure has the one JSON error shape.

mod games;
mod health;
mod metrics;
mod records;
mod seats;
mod static_files;

use axum::Router;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::AppState;
use crate::error::AppError;

/// The HTTP routes: the API, health, metrics and the browser client.
pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .merge(games::router())
        .merge(seats::router())
        .merge(records::router())
        .merge(health::router())
        .merge(metrics::router())
        .merge(static_files::router(&state.config.web_dir()))
}

/// A game id from a path; anything else is an unknown game.
pub fn parse_game_id(s: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(s).map_err(|_| {
        let shown: String = s.chars().take(40).collect();
        AppError::no_game(shown)
    })
}

/// `Json` whose rejections are [`AppError`]s (`bad_request`, or `too_large` past the body limit).
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(AppError::TooLarge)
            }
            Err(rejection) => Err(AppError::BadRequest(rejection.body_text())),
        }
    }
}
