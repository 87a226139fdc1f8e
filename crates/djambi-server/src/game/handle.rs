//! A game this node runs, reached through its actor's inbox: each [`Call`] goes in with a
//! `oneshot` for its answer; the actor's own work (its bots' answers, the shutdown) goes through
//! the same inbox, so everything a game does is ordered.

use std::sync::Arc;

use djambi_core::{Player, Turn};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::{broadcast, mpsc, oneshot};
use uuid::Uuid;

use super::link::{GameLink, Joined, joined};
use super::outbound::Outbound;
use super::presence::Presence;
use super::vocabulary::{Answer, Call, Gone, JoinError, JoinRequest};

/// What an actor is sent.
pub(super) enum Command {
    /// A call, and where to answer (none: nobody waits).
    Call {
        call: Call,
        reply: Option<oneshot::Sender<Response>>,
    },
    /// A bot's turn, chosen at version `v`.
    BotTurn { v: u64, player: Player, turn: Turn },
    /// A bot offers a draw (the game goes nowhere), decided at version `v`.
    BotOffer { v: u64, player: Player },
    /// A bot's answer to the draw offer made at version `offer`.
    BotDraw {
        offer: u64,
        player: Player,
        accept: bool,
    },
    /// Finish what was sent before, tell the connections the server restarts, and stop.
    Shutdown,
    /// Unload if finished and unwatched (memory is needed for another finished game).
    Unload,
}

/// An actor's answer to a call: the answer, and (to a join) the game's messages from the
/// moment the join's first messages were taken.
pub struct Response {
    /// The answer.
    pub answer: Answer,
    /// A join's subscription to the game's messages.
    pub events: Option<broadcast::Receiver<Outbound>>,
}

/// A cheap, cloneable handle to a game's actor on this node.
#[derive(Clone)]
pub struct GameHandle {
    pub(super) id: Uuid,
    pub(super) generation: u64,
    pub(super) inbox: mpsc::Sender<Command>,
    pub(super) presence: Arc<Presence>,
}

impl GameHandle {
    /// Who is connected, without asking the actor.
    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// Sends a call into the inbox now (calls are handled in the order they are sent) and
    /// returns where its answer will come.
    pub async fn submit(&self, call: Call) -> Result<oneshot::Receiver<Response>, Gone> {
        let (reply, answer) = oneshot::channel();
        let command = Command::Call {
            call,
            reply: Some(reply),
        };
        self.inbox.send(command).await.map_err(|_| Gone)?;
        Ok(answer)
    }

    /// Resolves once the actor has stopped.
    pub async fn closed(&self) {
        self.inbox.closed().await;
    }

    /// Asks the actor to unload itself if its game is over and nobody watches it (it stops as
    /// when idle); without waiting.
    pub fn unload(&self) {
        let _ = self.inbox.try_send(Command::Unload);
    }

    /// Asks the actor to finish what it was sent before, tell its connections that the server
    /// restarts, and stop.
    pub async fn shutdown(&self) {
        let _ = self.inbox.send(Command::Shutdown).await;
    }
}

impl GameLink for GameHandle {
    fn id(&self) -> Uuid {
        self.id
    }

    fn call(&self, call: Call) -> BoxFuture<'_, Result<Answer, Gone>> {
        async move {
            let answer = self.submit(call).await?;
            answer.await.map(|r| r.answer).map_err(|_| Gone)
        }
        .boxed()
    }

    fn tell(&self, call: Call) -> BoxFuture<'_, ()> {
        async move {
            let _ = self.inbox.send(Command::Call { call, reply: None }).await;
        }
        .boxed()
    }

    fn join(&self, request: JoinRequest) -> BoxFuture<'_, Result<Result<Joined, JoinError>, Gone>> {
        async move {
            let answer = self.submit(Call::Join(request)).await?;
            let Response { answer, events } = answer.await.map_err(|_| Gone)?;
            match events {
                Some(events) => joined(answer, events, None),
                // Refused: no subscription.
                None => match answer {
                    Answer::Joined(Err(refused)) => Ok(Err(refused)),
                    _ => Err(Gone),
                },
            }
        }
        .boxed()
    }
}
