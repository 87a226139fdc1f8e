//! The handle to a game's actor: each method sends one command into the actor's inbox and
//! awaits its `oneshot` answer.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use djambi_core::GameRecord;
use tokio::sync::{broadcast, mpsc, oneshot};
use uuid::Uuid;

use super::{Action, Outbound, Presence, Viewer};
use crate::error::AppError;
use crate::protocol::GameView;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};

/// A command for an actor.
pub(super) enum Command {
    Join {
        token: Option<String>,
        name: Option<String>,
        conn: u64,
        since: Option<u64>,
        chat_since: Option<u64>,
        reply: oneshot::Sender<Result<Joined, JoinError>>,
    },
    Leave {
        viewer: Viewer,
    },
    Act {
        viewer: Viewer,
        ack: u64,
        action: Action,
        reply: oneshot::Sender<Reply>,
    },
    Sync {
        viewer: Viewer,
        since: Option<u64>,
        reply: oneshot::Sender<Vec<Outbound>>,
    },
    Claim {
        request: ClaimSeat,
        reply: oneshot::Sender<Result<ClaimedSeat, AppError>>,
    },
    Snapshot {
        reply: oneshot::Sender<GameView>,
    },
    Record {
        reply: oneshot::Sender<GameRecord>,
    },
    Shutdown,
}

/// A connection joined a game.
pub struct Joined {
    /// Who it is.
    pub viewer: Viewer,
    /// The game's broadcast, subscribed at the moment `initial` was taken.
    pub events: broadcast::Receiver<Outbound>,
    /// What to send first: a snapshot, or `resume` and the missed events.
    pub initial: Vec<Outbound>,
}

/// Why a connection could not join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinError {
    /// The token is not one of this game's seat tokens.
    BadToken,
    /// The spectator name is not acceptable.
    BadName(String),
    /// The game has as many connections as allowed.
    Full,
}

/// The answer to a command: the serialised `ack` or `error`, and the version it refers to (the
/// connection sends the events up to it first).
#[derive(Clone, Debug)]
pub struct Reply {
    /// The version the answer refers to.
    pub v: u64,
    /// Whether the command was committed.
    pub accepted: bool,
    /// The JSON text.
    pub text: Utf8Bytes,
}

/// The actor is gone (the game was unloaded, or the server is stopping).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game's actor has stopped")]
pub struct Gone;

/// A cheap, cloneable handle to a game's actor.
#[derive(Clone)]
pub struct GameHandle {
    pub(super) id: Uuid,
    pub(super) generation: u64,
    pub(super) inbox: mpsc::Sender<Command>,
    pub(super) presence: Arc<Presence>,
}

impl GameHandle {
    /// The game's id.
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// Who is connected, without asking the actor.
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T, Gone> {
        let (tx, rx) = oneshot::channel();
        self.inbox.send(make(tx)).await.map_err(|_| Gone)?;
        rx.await.map_err(|_| Gone)
    }

    /// Joins with a seat token (a player) or without (a spectator). With `since`, the missed
    /// events are sent instead of a snapshot when possible.
    pub async fn join(
        &self,
        token: Option<String>,
        name: Option<String>,
        conn: u64,
        since: Option<u64>,
        chat_since: Option<u64>,
    ) -> Result<Result<Joined, JoinError>, Gone> {
        self.ask(|reply| Command::Join {
            token,
            name,
            conn,
            since,
            chat_since,
            reply,
        })
        .await
    }

    /// The connection left.
    pub async fn leave(&self, viewer: Viewer) {
        let _ = self.inbox.send(Command::Leave { viewer }).await;
    }

    /// Runs a command; the reply comes after its commit.
    pub async fn act(&self, viewer: Viewer, ack: u64, action: Action) -> Result<Reply, Gone> {
        self.ask(|reply| Command::Act {
            viewer,
            ack,
            action,
            reply,
        })
        .await
    }

    /// The events after `since` (with a `resume` first), or a snapshot.
    pub async fn sync(&self, viewer: Viewer, since: Option<u64>) -> Result<Vec<Outbound>, Gone> {
        self.ask(|reply| Command::Sync {
            viewer,
            since,
            reply,
        })
        .await
    }

    /// Claims a seat.
    pub async fn claim(&self, request: ClaimSeat) -> Result<Result<ClaimedSeat, AppError>, Gone> {
        self.ask(|reply| Command::Claim { request, reply }).await
    }

    /// The public snapshot.
    pub async fn snapshot(&self) -> Result<GameView, Gone> {
        self.ask(|reply| Command::Snapshot { reply }).await
    }

    /// The game record (NOTATION §4).
    pub async fn record(&self) -> Result<GameRecord, Gone> {
        self.ask(|reply| Command::Record { reply }).await
    }

    /// Asks the actor to finish what it was sent before, tell its connections that the server
    /// restarts, and stop.
    pub async fn shutdown(&self) {
        let _ = self.inbox.send(Command::Shutdown).await;
    }
}
