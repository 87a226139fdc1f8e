//! The owner's side: the calls other nodes send on a game's commands subject become commands in
//! its actor's inbox, in the order they arrive, and each answer is published after the events
//! the command made (one ordered publisher), so a socket on another node gets them in the same
//! order as a local one.

use std::sync::Arc;

use async_nats::{Subject, Subscriber};
use futures_util::StreamExt;
use tokio::sync::oneshot;

use super::wire::{Answer, Call, WireOutbound, WireViewer, decode, encode};
use crate::cluster::Cluster;
use crate::error::AppError;
use crate::game::handle::{AdminAction, Command, GameHandle, JoinError, Joined, Reply};
use crate::game::{AdminAnswer, Outbound};
use crate::protocol::GameView;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};

/// A command sent to the actor, waiting for its answer.
enum Pending {
    Join(oneshot::Receiver<Result<Joined, JoinError>>),
    Reply(oneshot::Receiver<Reply>),
    Messages(oneshot::Receiver<Vec<Outbound>>),
    Claim(oneshot::Receiver<Result<ClaimedSeat, AppError>>),
    Snapshot(oneshot::Receiver<GameView>),
    Record(oneshot::Receiver<djambi_core::GameRecord>),
    Admin(oneshot::Receiver<Result<AdminAnswer, AppError>>),
    Nothing,
}

/// Serves the calls of other nodes for the game of `game` until its actor stops.
pub(in crate::game) async fn serve(mut calls: Subscriber, game: GameHandle, cluster: Arc<Cluster>) {
    loop {
        let message = tokio::select! {
            message = calls.next() => match message {
                Some(message) => message,
                None => break,
            },
            _ = game.inbox.closed() => break,
        };
        let reply_to = message.reply;
        let Some(call) = decode::<Call>(&message.payload) else {
            tracing::warn!(game = %game.id, "a call from another node does not read");
            answer(
                &cluster,
                reply_to,
                failed(&AppError::BadRequest("unreadable call".into())),
            );
            continue;
        };
        let (command, pending) = match command_of(call) {
            Ok(pair) => pair,
            Err(refused) => {
                answer(&cluster, reply_to, refused);
                continue;
            }
        };
        if game.inbox.send(command).await.is_err() {
            answer(&cluster, reply_to, Answer::Gone);
            continue;
        }
        let cluster = cluster.clone();
        tokio::spawn(async move {
            let done = wait(pending).await;
            answer(&cluster, reply_to, done);
        });
    }
    // Unsubscribed from here: later calls find no responder, and their nodes ask the registry
    // who runs the game now.
}

fn answer(cluster: &Cluster, reply_to: Option<Subject>, answer: Answer) {
    if let Some(to) = reply_to {
        cluster.publish(to, encode(&answer));
    }
}

fn failed(e: &AppError) -> Answer {
    Answer::Failed {
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

fn viewer(wire: WireViewer) -> Result<crate::game::Viewer, Answer> {
    wire.into_viewer()
        .ok_or_else(|| failed(&AppError::BadRequest("unreadable viewer".into())))
}

/// The actor's command for a call, and what to wait for.
fn command_of(call: Call) -> Result<(Command, Pending), Answer> {
    Ok(match call {
        Call::Join(request) => {
            let (reply, rx) = oneshot::channel();
            (Command::Join { request, reply }, Pending::Join(rx))
        }
        Call::Leave { conn } => (Command::Depart { conn }, Pending::Nothing),
        Call::Act {
            viewer: who,
            ack,
            action,
        } => {
            let (reply, rx) = oneshot::channel();
            let command = Command::Act {
                viewer: viewer(who)?,
                ack,
                action,
                reply,
            };
            (command, Pending::Reply(rx))
        }
        Call::Sync { viewer: who, since } => {
            let (reply, rx) = oneshot::channel();
            let command = Command::Sync {
                viewer: viewer(who)?,
                since,
                reply,
            };
            (command, Pending::Messages(rx))
        }
        Call::Claim { request } => {
            let request: ClaimSeat = serde_json::from_str(&request)
                .map_err(|e| failed(&AppError::BadRequest(e.to_string())))?;
            let (reply, rx) = oneshot::channel();
            (Command::Claim { request, reply }, Pending::Claim(rx))
        }
        Call::Snapshot => {
            let (reply, rx) = oneshot::channel();
            (Command::Snapshot { reply }, Pending::Snapshot(rx))
        }
        Call::Record => {
            let (reply, rx) = oneshot::channel();
            (Command::Record { reply }, Pending::Record(rx))
        }
        Call::Admin { token, what } => {
            let what = what
                .into_what()
                .ok_or_else(|| failed(&AppError::BadRequest("unknown bot level".into())))?;
            let (reply, rx) = oneshot::channel();
            let action = AdminAction { token, what };
            (Command::Admin { action, reply }, Pending::Admin(rx))
        }
    })
}

/// The actor's answer, for the calling node. A dropped reply (the actor stopped, or lost the
/// game mid-command) is [`Answer::Gone`]: the caller does not know what happened and asks
/// again where the game is now.
async fn wait(pending: Pending) -> Answer {
    let answer = match pending {
        Pending::Join(rx) => rx.await.map(|joined| match joined {
            Ok(joined) => Answer::Joined {
                viewer: WireViewer::from(&joined.viewer),
                initial: joined.initial.iter().map(WireOutbound::owned).collect(),
            },
            Err(refused) => Answer::JoinRefused(refused),
        }),
        Pending::Reply(rx) => rx.await.map(|reply| Answer::Reply {
            v: reply.v,
            accepted: reply.accepted,
            text: reply.text.as_str().to_string(),
        }),
        Pending::Messages(rx) => rx
            .await
            .map(|out| Answer::Messages(out.iter().map(WireOutbound::owned).collect())),
        Pending::Claim(rx) => rx.await.map(|claimed| match claimed {
            Ok(seat) => json(&seat),
            Err(e) => failed(&e),
        }),
        Pending::Snapshot(rx) => rx.await.map(|view| json(&view)),
        Pending::Record(rx) => rx.await.map(|record| json(&record)),
        Pending::Admin(rx) => rx.await.map(|done| match done {
            Ok(answer) => Answer::Admin(answer.into()),
            Err(e) => failed(&e),
        }),
        Pending::Nothing => Ok(Answer::Done),
    };
    answer.unwrap_or(Answer::Gone)
}

fn json(value: &impl serde::Serialize) -> Answer {
    Answer::Json(serde_json::to_string(value).expect("protocol values serialise"))
}
