//! The way to a game, wherever its actor runs: on this node ([`GameHandle`]), or on the node
//! that owns it ([`RemoteGame`], several nodes). Sockets and HTTP handlers use this and never
//! know which.

use uuid::Uuid;

use super::handle::{
    AdminAction, AdminAnswer, GameHandle, Gone, JoinError, JoinRequest, Joined, Reply,
};
use super::remote::RemoteGame;
use super::{Action, Outbound, Viewer};
use crate::error::AppError;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};

/// A game, local or on another node.
#[derive(Clone)]
pub enum GameLink {
    /// Its actor runs here.
    Local(GameHandle),
    /// Another node owns it.
    Remote(RemoteGame),
}

impl GameLink {
    /// The game's id.
    pub fn id(&self) -> Uuid {
        match self {
            GameLink::Local(game) => game.id(),
            GameLink::Remote(game) => game.id(),
        }
    }

    /// Whether another node owns the game.
    pub fn is_remote(&self) -> bool {
        matches!(self, GameLink::Remote(_))
    }

    /// Joins with a seat token (a player) or without (a spectator). With `since`, the missed
    /// events are sent instead of a snapshot when possible.
    pub async fn join(&self, request: JoinRequest) -> Result<Result<Joined, JoinError>, Gone> {
        match self {
            GameLink::Local(game) => game.join(request).await,
            GameLink::Remote(game) => game.join(request).await,
        }
    }

    /// The connection left.
    pub async fn leave(&self, viewer: Viewer) {
        match self {
            GameLink::Local(game) => game.leave(viewer).await,
            GameLink::Remote(game) => game.leave(&viewer),
        }
    }

    /// Runs a command; the reply comes after its commit.
    pub async fn act(&self, viewer: Viewer, ack: u64, action: Action) -> Result<Reply, Gone> {
        match self {
            GameLink::Local(game) => game.act(viewer, ack, action).await,
            GameLink::Remote(game) => game.act(&viewer, ack, action).await,
        }
    }

    /// The events after `since` (with a `resume` first), or a snapshot.
    pub async fn sync(&self, viewer: Viewer, since: Option<u64>) -> Result<Vec<Outbound>, Gone> {
        match self {
            GameLink::Local(game) => game.sync(viewer, since).await,
            GameLink::Remote(game) => game.sync(&viewer, since).await,
        }
    }

    /// Claims a seat.
    pub async fn claim(&self, request: ClaimSeat) -> Result<Result<ClaimedSeat, AppError>, Gone> {
        match self {
            GameLink::Local(game) => game.claim(request).await,
            GameLink::Remote(game) => game.claim(&request).await,
        }
    }

    /// The public snapshot (PROTOCOL §3.3), as JSON.
    pub async fn snapshot_json(&self) -> Result<String, Gone> {
        match self {
            GameLink::Local(game) => {
                let view = game.snapshot().await?;
                Ok(serde_json::to_string(&view).expect("a view serialises"))
            }
            GameLink::Remote(game) => game.snapshot_json().await,
        }
    }

    /// The game record (NOTATION §4), as JSON.
    pub async fn record_json(&self) -> Result<String, Gone> {
        match self {
            GameLink::Local(game) => {
                let record = game.record().await?;
                Ok(serde_json::to_string(&record).expect("a record serialises"))
            }
            GameLink::Remote(game) => game.record_json().await,
        }
    }

    /// The creator's action.
    pub async fn admin(&self, action: AdminAction) -> Result<Result<AdminAnswer, AppError>, Gone> {
        match self {
            GameLink::Local(game) => game.admin(action).await,
            GameLink::Remote(game) => game.admin(&action).await,
        }
    }
}
