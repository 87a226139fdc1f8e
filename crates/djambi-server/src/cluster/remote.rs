//! The games other nodes own, reached from this node: each call is a request on the game's
//! commands subject, answered by its owner after its commit ([`owner`](super::owner)); a
//! connection joins through the game's mirror here ([`mirror`](super::mirror)), so it gets the
//! owner's messages exactly as the owner's own sockets do.

use std::sync::Arc;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use uuid::Uuid;

use super::digest::Digests;
use super::mirror::Mirrors;
use super::wire::{decode, encode};
use super::{Cluster, RequestFailed, commands_subject};
use crate::game::{Answer, Call, Game, GameLink, Gone, JoinError, JoinRequest, Joined, joined};

/// What this node shares for the games other nodes own.
pub struct Remote {
    /// The link to the other nodes.
    pub cluster: Arc<Cluster>,
    /// The games mirrored here.
    pub mirrors: Mirrors,
    /// Every loaded game's presence.
    pub digests: Arc<Digests>,
}

impl Remote {
    /// The way to game `id`, owned by another node.
    pub fn game(self: &Arc<Self>, id: Uuid) -> Game {
        Game::new(RemoteGame {
            id,
            remote: self.clone(),
        })
    }
}

/// A game another node owns.
struct RemoteGame {
    id: Uuid,
    remote: Arc<Remote>,
}

impl RemoteGame {
    /// Asks the owner. No responder, no answer in time, or an owner that no longer holds the
    /// game are all [`Gone`]: the caller asks the registry again.
    async fn ask(&self, call: &Call) -> Result<Answer, Gone> {
        let asked = self
            .remote
            .cluster
            .request(commands_subject(self.id), encode(call))
            .await;
        match asked {
            Ok(bytes) => decode::<Result<Answer, Gone>>(&bytes).unwrap_or(Err(Gone)),
            Err(RequestFailed::TimedOut) => {
                tracing::warn!(game = %self.id, "the game's owner did not answer in time");
                Err(Gone)
            }
            Err(_) => Err(Gone),
        }
    }

    /// Tells the owner without waiting for an answer.
    fn publish(&self, call: &Call) {
        self.remote
            .cluster
            .publish(commands_subject(self.id), encode(call));
    }
}

impl GameLink for RemoteGame {
    fn id(&self) -> Uuid {
        self.id
    }

    fn call(&self, call: Call) -> BoxFuture<'_, Result<Answer, Gone>> {
        async move { self.ask(&call).await }.boxed()
    }

    fn tell(&self, call: Call) -> BoxFuture<'_, ()> {
        self.publish(&call);
        async {}.boxed()
    }

    /// Joins: the mirror first, so that no event after the join's snapshot is missed.
    fn join(&self, request: JoinRequest) -> BoxFuture<'_, Result<Result<Joined, JoinError>, Gone>> {
        async move {
            let mirror = self.remote.mirrors.get(self.id).await.map_err(|_| Gone)?;
            let events = mirror.subscribe();
            let conn = request.conn;
            match self.ask(&Call::Join(request)).await {
                Ok(answer) => joined(answer, events, Some(mirror)),
                Err(Gone) => {
                    // The owner may have counted the connection before it went quiet.
                    self.publish(&Call::Leave { conn });
                    Err(Gone)
                }
            }
        }
        .boxed()
    }
}
