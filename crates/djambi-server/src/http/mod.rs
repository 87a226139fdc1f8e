//! The HTTP API (PROTOCOL §2). Each feature owns a small router, merged here; handlers return
//! `Result<_, AppError>`, so every failure has the one JSON error shape.

mod analysis;
mod circle_csv;
mod circle_push;
mod circles;
mod games;
mod headers;
mod health;
mod hint;
mod history;
mod metrics;
mod pages;
mod positions;
mod push;
mod puzzles;
mod pwa;
mod record_text;
mod records;
mod seats;
mod static_files;

use axum::Router;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

pub use pages::History;

use crate::AppState;
use crate::error::AppError;

/// The HTTP routes: the API, health, metrics and the browser client, with the security headers
/// on every answer ([`headers`]), compressed (gzip or brotli, as the client accepts;
/// tower-http's compression layer).
pub fn router(state: &AppState) -> Router<AppState> {
    let router = Router::new()
        .merge(games::router())
        .merge(circles::router())
        .merge(circle_push::router())
        .merge(seats::router())
        .merge(records::router())
        .merge(history::router())
        .merge(analysis::router())
        .merge(positions::router())
        .merge(hint::router())
        .merge(puzzles::router())
        .merge(push::router())
        .merge(health::router())
        .merge(metrics::router())
        .merge(static_files::router(&state.config.web_dir()));
    headers::secure(router, &state.config.web_dir())
        .layer(tower_http::compression::CompressionLayer::new())
}

pub use crate::error::parse_game_id;

/// Spends one of `ip`'s game loads when game `id` is not in memory on this node (reading it
/// then loads and replays its whole log): 429 past the address's budget. A game already loaded
/// costs nothing.
pub(crate) fn charge_load(
    state: &AppState,
    ip: crate::net::IpKey,
    id: uuid::Uuid,
) -> Result<(), AppError> {
    if state.registry.runs(id) {
        return Ok(());
    }
    state.budgets.load.take(ip).map_err(|wait| {
        AppError::rate_limited(
            "too many games read from your address; try again later",
            wait,
        )
    })
}

/// The base of the links a request's answer gives (games, invites): the configured public URL,
/// else the address the client itself used (its `Host`), so that a server reached on the
/// local network gives links that work on the local network.
pub struct LinkBase(pub String);

impl axum::extract::FromRequestParts<AppState> for LinkBase {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<LinkBase, Self::Rejection> {
        if state.config.public_url.is_some() {
            return Ok(LinkBase(state.config.base_url()));
        }
        let host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
            });
        Ok(LinkBase(match host {
            Some(host) => format!("http://{host}"),
            None => state.config.base_url(),
        }))
    }
}

/// The creator's admin token from `Authorization: Bearer TOKEN` (`bad_token` without one).
pub struct Bearer(pub String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Bearer {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Bearer, AppError> {
        parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|t| Bearer(t.trim().to_string()))
            .filter(|b| !b.0.is_empty())
            .ok_or(AppError::BadToken)
    }
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
