//! The handle to a game's actor: each method sends one command into the actor's inbox and
//! awaits its `oneshot` answer.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use djambi_core::{GameRecord, Player, Turn};
use djambi_engine::Level;
use tokio::sync::{broadcast, mpsc, oneshot};
use uuid::Uuid;

use super::remote::mirror::Mirror;
use super::{Action, Outbound, Presence, Viewer};
use crate::error::AppError;
use crate::protocol::GameView;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};
use crate::token::SeatToken;

/// A command for an actor.
pub(super) enum Command {
    Join {
        request: JoinRequest,
        reply: oneshot::Sender<Result<Joined, JoinError>>,
    },
    Leave {
        viewer: Viewer,
    },
    /// A socket of another node left (known by its connection id only).
    Depart {
        conn: u64,
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
    /// Cancel the game if it waits for players and was last touched before `before` (ms).
    Expire {
        before: i64,
        reply: oneshot::Sender<bool>,
    },
    /// The creator's action, with the admin token it presented.
    Admin {
        action: AdminAction,
        reply: oneshot::Sender<Result<AdminAnswer, AppError>>,
    },
    /// A bot's turn, chosen at version `v`.
    BotTurn {
        v: u64,
        player: Player,
        turn: Turn,
    },
    /// A bot offers a draw (the game goes nowhere), decided at version `v`.
    BotOffer {
        v: u64,
        player: Player,
    },
    /// A bot's answer to the draw offer made at version `offer`.
    BotDraw {
        offer: u64,
        player: Player,
        accept: bool,
    },
    Shutdown,
}

/// What the creator of a game may do before it starts (with its admin token).
#[derive(Clone, Debug)]
pub struct AdminAction {
    /// The admin token presented.
    pub token: String,
    /// What to do.
    pub what: AdminWhat,
}

/// The creator's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdminWhat {
    /// Cancel the game.
    Cancel,
    /// A new invite for a seat (sockets on the old token lose it).
    Reinvite(Player),
    /// A bot of this level plays the seat.
    Bot(Player, Level),
}

/// What an admin action gave.
#[derive(Clone, Debug)]
pub enum AdminAnswer {
    /// The game is cancelled.
    Cancelled,
    /// The seat's new token.
    Invite(Player, SeatToken),
    /// A bot plays the seat.
    Bot,
}

/// What a connection says to join a game (its `hello`), with its id.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JoinRequest {
    /// A seat token (a player), or none (a spectator).
    pub token: Option<String>,
    /// A spectator's display name.
    pub name: Option<String>,
    /// The connection's id (with several nodes, its node's tag in the high bits).
    pub conn: u64,
    /// The last version it saw: the missed events instead of a snapshot when possible.
    pub since: Option<u64>,
    /// The last chat id it saw.
    pub chat_since: Option<u64>,
}

/// A connection joined a game.
pub struct Joined {
    /// Who it is.
    pub viewer: Viewer,
    /// The game's broadcast, subscribed at the moment `initial` was taken.
    pub events: broadcast::Receiver<Outbound>,
    /// What to send first: a snapshot, or `resume` and the missed events.
    pub initial: Vec<Outbound>,
    /// For a game another node owns: the mirror `events` comes from, kept while the
    /// connection lives.
    pub mirror: Option<Arc<Mirror>>,
}

/// Why a connection could not join.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    pub async fn join(&self, request: JoinRequest) -> Result<Result<Joined, JoinError>, Gone> {
        self.ask(|reply| Command::Join { request, reply }).await
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

    /// Cancels the game if it still waits for players and nobody touched it since `before`
    /// (milliseconds since the epoch); whether it did.
    pub async fn expire(&self, before: i64) -> Result<bool, Gone> {
        self.ask(|reply| Command::Expire { before, reply }).await
    }

    /// The creator's action.
    pub async fn admin(&self, action: AdminAction) -> Result<Result<AdminAnswer, AppError>, Gone> {
        self.ask(|reply| Command::Admin { action, reply }).await
    }

    /// Asks the actor to finish what it was sent before, tell its connections that the server
    /// restarts, and stop.
    pub async fn shutdown(&self) {
        let _ = self.inbox.send(Command::Shutdown).await;
    }
}
