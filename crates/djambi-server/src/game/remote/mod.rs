//! Games over several nodes (docs/SCALING.md). The node that owns a game runs its actor as a
//! node alone does; every other node reaches it through NATS:
//! - [`RemoteGame`]: the handle of a game another node owns; each call is a request on the
//!   game's commands subject, answered by the owner after its commit ([`owner`]);
//! - [`mirror`]: the owner's events, received once per node and re-broadcast to its sockets;
//! - [`digest`]: who is connected to each game, for the lists of every node;
//! - [`wire`]: the messages.

pub mod digest;
pub mod mirror;
pub(super) mod owner;
pub mod wire;

use std::sync::Arc;

use uuid::Uuid;

use super::handle::{AdminAction, AdminAnswer, Gone, JoinError, JoinRequest, Joined, Reply};
use super::{Action, Outbound, Viewer};
use crate::cluster::{Cluster, RequestFailed, commands_subject};
use crate::error::AppError;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};
use digest::Digests;
use mirror::Mirrors;
use wire::{Answer, Call, WireViewer, decode, encode};

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
    /// The handle of game `id`, owned by another node.
    pub fn game(self: &Arc<Self>, id: Uuid) -> RemoteGame {
        RemoteGame {
            id,
            remote: self.clone(),
        }
    }
}

/// The handle of a game another node owns.
#[derive(Clone)]
pub struct RemoteGame {
    id: Uuid,
    remote: Arc<Remote>,
}

impl RemoteGame {
    /// The game's id.
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// Asks the owner. No responder, no answer in time, or an owner that no longer holds the
    /// game are all [`Gone`]: the caller asks the registry again.
    async fn call(&self, call: &Call) -> Result<Answer, Gone> {
        let asked = self
            .remote
            .cluster
            .request(commands_subject(self.id), encode(call))
            .await;
        match asked {
            Ok(bytes) => match decode::<Answer>(&bytes) {
                Some(Answer::Gone) | None => Err(Gone),
                Some(answer) => Ok(answer),
            },
            Err(RequestFailed::TimedOut) => {
                tracing::warn!(game = %self.id, "the game's owner did not answer in time");
                Err(Gone)
            }
            Err(_) => Err(Gone),
        }
    }

    /// Joins (see [`GameHandle::join`](super::GameHandle::join)): the mirror first, so that no
    /// event after the join's snapshot is missed.
    pub async fn join(&self, request: JoinRequest) -> Result<Result<Joined, JoinError>, Gone> {
        let mirror = self.remote.mirrors.get(self.id).await.map_err(|_| Gone)?;
        let events = mirror.subscribe();
        let conn = request.conn;
        match self.call(&Call::Join(request)).await {
            Ok(Answer::Joined { viewer, initial }) => {
                let Some(viewer) = viewer.into_viewer() else {
                    return Err(Gone);
                };
                Ok(Ok(Joined {
                    viewer,
                    events,
                    initial: initial.into_iter().map(|w| w.into_outbound()).collect(),
                    mirror: Some(mirror),
                }))
            }
            Ok(Answer::JoinRefused(refused)) => Ok(Err(refused)),
            Ok(_) => Err(Gone),
            Err(Gone) => {
                // The owner may have counted the connection before it went quiet.
                self.depart(conn);
                Err(Gone)
            }
        }
    }

    fn depart(&self, conn: u64) {
        let call = Call::Leave { conn };
        self.remote
            .cluster
            .publish(commands_subject(self.id), encode(&call));
    }

    /// The connection left (told without waiting for an answer).
    pub fn leave(&self, viewer: &Viewer) {
        self.depart(viewer.conn);
    }

    /// Runs a command on the owner; the answer comes after its commit there.
    pub async fn act(&self, viewer: &Viewer, ack: u64, action: Action) -> Result<Reply, Gone> {
        let call = Call::Act {
            viewer: WireViewer::from(viewer),
            ack,
            action,
        };
        match self.call(&call).await? {
            Answer::Reply { v, accepted, text } => Ok(Reply {
                v,
                accepted,
                text: text.into(),
            }),
            _ => Err(Gone),
        }
    }

    /// The events after `since` (with a `resume` first), or a snapshot.
    pub async fn sync(&self, viewer: &Viewer, since: Option<u64>) -> Result<Vec<Outbound>, Gone> {
        let call = Call::Sync {
            viewer: WireViewer::from(viewer),
            since,
        };
        match self.call(&call).await? {
            Answer::Messages(out) => Ok(out.into_iter().map(|w| w.into_outbound()).collect()),
            _ => Err(Gone),
        }
    }

    /// Claims a seat.
    pub async fn claim(&self, request: &ClaimSeat) -> Result<Result<ClaimedSeat, AppError>, Gone> {
        let request = serde_json::to_string(request).expect("a claim serialises");
        match self.call(&Call::Claim { request }).await? {
            Answer::Json(json) => Ok(serde_json::from_str(&json).map_err(|_| AppError::Internal)),
            Answer::Failed { code, message } => Ok(Err(AppError::from_code(&code, message))),
            _ => Err(Gone),
        }
    }

    /// The public snapshot, as JSON.
    pub async fn snapshot_json(&self) -> Result<String, Gone> {
        self.json(&Call::Snapshot).await
    }

    /// The game record, as JSON.
    pub async fn record_json(&self) -> Result<String, Gone> {
        self.json(&Call::Record).await
    }

    async fn json(&self, call: &Call) -> Result<String, Gone> {
        match self.call(call).await? {
            Answer::Json(json) => Ok(json),
            _ => Err(Gone),
        }
    }

    /// The creator's action.
    pub async fn admin(&self, action: &AdminAction) -> Result<Result<AdminAnswer, AppError>, Gone> {
        let call = Call::Admin {
            token: action.token.clone(),
            what: action.what.into(),
        };
        match self.call(&call).await? {
            Answer::Admin(answer) => Ok(Ok(answer.into())),
            Answer::Failed { code, message } => Ok(Err(AppError::from_code(&code, message))),
            _ => Err(Gone),
        }
    }
}
