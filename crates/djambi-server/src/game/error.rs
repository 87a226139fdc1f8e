//! Why the registry could not do what was asked of a game; the HTTP edge turns each into its
//! error body.

use std::time::Duration;

use uuid::Uuid;

use crate::store::StoreError;

/// A registry failure.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No such game.
    #[error("no game {0}")]
    NoGame(Uuid),
    /// A request to create or import a game that is not acceptable (what is wrong, in words).
    #[error("{0}")]
    Invalid(String),
    /// An imported record that is not a valid game.
    #[error("{0}")]
    InvalidRecord(String),
    /// The server cannot do it now (shutting down, too many games, cut off from the database).
    #[error("{0}")]
    Unavailable(String),
    /// The address asked for too much; it may try again after `retry_after`.
    #[error("{message}")]
    RateLimited {
        /// For people.
        message: String,
        /// How long until it may try again.
        retry_after: Duration,
    },
    /// The database failed (its words are logged, never shown).
    #[error("{0}")]
    Store(#[from] StoreError),
    /// Something failed inside (the details are in the log).
    #[error("internal error")]
    Internal,
}

impl GameError {
    /// The "too much; wait" error: `what` and when to try again.
    pub fn rate_limited(what: &str, wait: Duration) -> GameError {
        let secs = wait.as_secs().max(1);
        GameError::RateLimited {
            message: format!("{what}; try again in {secs} s"),
            retry_after: Duration::from_secs(secs),
        }
    }
}
