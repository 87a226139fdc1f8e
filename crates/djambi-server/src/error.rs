//! The HTTP API's one error type: every failure becomes `{"error": {"code", "message"}}` with a
//! stable code, and database errors are logged, never shown. The domain's and the registry's
//! typed errors become these here, at the edge, and nowhere else.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use crate::analysis::AnalysisError;
use crate::circle::CircleError;
use crate::game::GameError;
use crate::protocol::http::{ErrorBody, ErrorDetail};
use crate::store::StoreError;
use crate::table::{AdminError, ClaimError, HintRefusal};

/// An HTTP API failure (PROTOCOL §1).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: malformed JSON or fields.
    #[error("{0}")]
    BadRequest(String),
    /// 413: the body is larger than allowed.
    #[error("the request body is too large")]
    TooLarge,
    /// 403: the seat token does not match.
    #[error("the seat token does not match")]
    BadToken,
    /// 401: the request needs a key (`Authorization: Bearer KEY`: a circle's member key).
    #[error("{0}")]
    Unauthorized(String),
    /// 403: the key or invite does not open this (`bad_key`, `bad_invite`), or it is for
    /// someone else to do (`forbidden`).
    #[error("{message}")]
    Forbidden {
        /// The code.
        code: &'static str,
        /// For people.
        message: String,
    },
    /// 409: the name is already taken (a circle's members).
    #[error("{0}")]
    NameTaken(String),
    /// 409: the circle has as many members as it may.
    #[error("{0}")]
    CircleFull(String),
    /// 409: the member already has a seat in this game.
    #[error("{0}")]
    MemberSeated(String),
    /// 403 `bad_token`, said for an invite: its token is no seat's (any more).
    #[error("{0}")]
    BadInvite(String),
    /// 404: no such game or route.
    #[error("{0}")]
    NotFound(String),
    /// 405: the route exists, not with this method.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409: the seat is someone else's (claimed, or kept for the holder of its invite).
    #[error("{0}")]
    SeatTaken(String),
    /// 409: the invite's token is right, but its seat is already held with it (another device).
    #[error("{0}")]
    SeatHeld(String),
    /// 409: no seat is free to claim.
    #[error("{0}")]
    NoOpenSeat(String),
    /// 409: the game has started; what was asked is for before the start.
    #[error("{0}")]
    Started(String),
    /// 409: what was asked is for a finished game (an analysis).
    #[error("{0}")]
    NotFinished(String),
    /// 409: what was asked is for the seat to move (a hint).
    #[error("{0}")]
    NotYourTurn(String),
    /// 403: the game does not allow hints (PROTOCOL §2.4).
    #[error("{0}")]
    HintsOff(String),
    /// 422: the imported record is not a valid game.
    #[error("{0}")]
    InvalidRecord(String),
    /// 422: the turn is not legal in the position; the message is the core's reason, which
    /// cites the rule (`e5: only a chief may end a move on the maze (R3.5)`).
    #[error("{0}")]
    Illegal(String),
    /// 503: the server cannot take this now (database down, too many games, shutting down).
    #[error("{0}")]
    Unavailable(String),
    /// 503: the server is busy with this kind of work; it may be asked again after
    /// `retry_after` (a full queue of analyses).
    #[error("{message}")]
    Busy {
        /// For people.
        message: String,
        /// How long until it is worth asking again.
        retry_after: Duration,
    },
    /// 429: this client asked for too much; it may try again after `retry_after`.
    #[error("{message}")]
    RateLimited {
        /// For people.
        message: String,
        /// How long until it may try again.
        retry_after: Duration,
    },
    /// 500: something failed inside; the details are in the log only.
    #[error("internal error")]
    Internal,
}

impl AppError {
    /// The stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::TooLarge => "too_large",
            AppError::BadToken | AppError::BadInvite(_) => "bad_token",
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden { code, .. } => code,
            AppError::NameTaken(_) => "name_taken",
            AppError::CircleFull(_) => "circle_full",
            AppError::MemberSeated(_) => "member_seated",
            AppError::NotFound(_) => "not_found",
            AppError::MethodNotAllowed => "method_not_allowed",
            AppError::SeatTaken(_) => "seat_taken",
            AppError::SeatHeld(_) => "seat_held",
            AppError::NoOpenSeat(_) => "no_open_seat",
            AppError::Started(_) => "started",
            AppError::NotFinished(_) => "not_finished",
            AppError::NotYourTurn(_) => "not_your_turn",
            AppError::HintsOff(_) => "hints_off",
            AppError::InvalidRecord(_) => "invalid_record",
            AppError::Illegal(_) => "illegal",
            AppError::Unavailable(_) | AppError::Busy { .. } => "unavailable",
            AppError::RateLimited { .. } => "rate_limited",
            AppError::Internal => "internal",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::BadToken | AppError::BadInvite(_) | AppError::Forbidden { .. } => {
                StatusCode::FORBIDDEN
            }
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::SeatTaken(_)
            | AppError::SeatHeld(_)
            | AppError::NoOpenSeat(_)
            | AppError::Started(_)
            | AppError::NotFinished(_)
            | AppError::NotYourTurn(_)
            | AppError::NameTaken(_)
            | AppError::CircleFull(_)
            | AppError::MemberSeated(_) => StatusCode::CONFLICT,
            AppError::HintsOff(_) => StatusCode::FORBIDDEN,
            AppError::InvalidRecord(_) | AppError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Unavailable(_) | AppError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            AppError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A 403 with its code and the error's words.
    pub fn forbidden(code: &'static str, e: &impl std::fmt::Display) -> AppError {
        AppError::Forbidden {
            code,
            message: e.to_string(),
        }
    }

    /// The "no such game" error.
    pub fn no_game(id: impl std::fmt::Display) -> AppError {
        AppError::NotFound(format!("no game {id}"))
    }

    /// The "too much; wait" error: `what` and when to try again.
    pub fn rate_limited(what: &str, wait: Duration) -> AppError {
        let secs = wait.as_secs().max(1);
        AppError::RateLimited {
            message: format!("{what}; try again in {secs} s"),
            retry_after: Duration::from_secs(secs),
        }
    }
}

impl From<GameError> for AppError {
    fn from(e: GameError) -> AppError {
        match e {
            GameError::NoGame(id) => AppError::no_game(id),
            GameError::Invalid(message) => AppError::BadRequest(message),
            GameError::InvalidRecord(message) => AppError::InvalidRecord(message),
            GameError::Unavailable(message) => AppError::Unavailable(message),
            GameError::RateLimited {
                message,
                retry_after,
            } => AppError::RateLimited {
                message,
                retry_after,
            },
            GameError::Store(e) => e.into(),
            GameError::Internal => AppError::Internal,
        }
    }
}

impl From<ClaimError> for AppError {
    fn from(e: ClaimError) -> AppError {
        match e {
            ClaimError::BadToken | ClaimError::InviteOnly => AppError::BadInvite(e.to_string()),
            ClaimError::NoSuchSeat(_) | ClaimError::Name(_) | ClaimError::NameRequired => {
                AppError::BadRequest(e.to_string())
            }
            ClaimError::Kept { .. } | ClaimError::Taken(_) => AppError::SeatTaken(e.to_string()),
            ClaimError::AlreadyClaimed(_) => AppError::SeatHeld(e.to_string()),
            ClaimError::AllTaken | ClaimError::Over => AppError::NoOpenSeat(e.to_string()),
            ClaimError::NotCircleGame => AppError::forbidden("forbidden", &e),
            ClaimError::MemberSeated => AppError::MemberSeated(e.to_string()),
            ClaimError::Internal => AppError::Internal,
        }
    }
}

impl From<AdminError> for AppError {
    fn from(e: AdminError) -> AppError {
        match e {
            AdminError::BadToken => AppError::BadToken,
            AdminError::Started => AppError::Started(e.to_string()),
            AdminError::NoSeat(_) => AppError::BadRequest(e.to_string()),
            AdminError::Internal => AppError::Internal,
        }
    }
}

impl From<HintRefusal> for AppError {
    fn from(e: HintRefusal) -> AppError {
        match e {
            HintRefusal::BadToken => AppError::BadToken,
            HintRefusal::NotLive | HintRefusal::NotYourTurn => AppError::NotYourTurn(e.to_string()),
            HintRefusal::Off => AppError::HintsOff(e.to_string()),
        }
    }
}

impl From<AnalysisError> for AppError {
    fn from(e: AnalysisError) -> AppError {
        match e {
            AnalysisError::NoGame(id) => AppError::no_game(id),
            AnalysisError::NotFinished(_) => AppError::NotFinished(e.to_string()),
            AnalysisError::YourShare(wait) => AppError::rate_limited(&e.to_string(), wait),
            AnalysisError::Busy(retry_after) => AppError::Busy {
                message: e.to_string(),
                retry_after,
            },
            AnalysisError::Store(e) => e.into(),
        }
    }
}

impl From<CircleError> for AppError {
    fn from(e: CircleError) -> AppError {
        match e {
            CircleError::BadKey => AppError::forbidden("bad_key", &e),
            CircleError::BadInvite => AppError::forbidden("bad_invite", &e),
            CircleError::NotCreator => AppError::forbidden("forbidden", &e),
            CircleError::BadName(message) => AppError::BadRequest(message),
            CircleError::NameTaken(_) => AppError::NameTaken(e.to_string()),
            CircleError::Full(_) => AppError::CircleFull(e.to_string()),
            CircleError::NoMember(_) => AppError::NotFound(e.to_string()),
            CircleError::Store(e) => e.into(),
        }
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        // The database's words stay in the log.
        tracing::error!(error = %e, "database error");
        AppError::Internal
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().to_string(),
                message: self.to_string(),
            },
        };
        let mut response = (self.status(), Json(body)).into_response();
        if let AppError::RateLimited { retry_after, .. } | AppError::Busy { retry_after, .. } =
            &self
            && let Ok(value) = HeaderValue::from_str(&retry_after.as_secs().to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// A game id from a path; anything else is an unknown game.
pub fn parse_game_id(s: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(s).map_err(|_| {
        let shown: String = s.chars().take(40).collect();
        AppError::no_game(shown)
    })
}
