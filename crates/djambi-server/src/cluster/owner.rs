//! The owner's side: the calls other nodes send on a game's commands subject go into its
//! actor's inbox in the order they arrive, and each answer is published after the events the
//! call made (one ordered publisher), so a socket on another node gets them in the same order
//! as a local one.

use std::sync::Arc;

use async_nats::{Subject, Subscriber};
use futures_util::StreamExt;

use super::Cluster;
use super::wire::{decode, encode};
use crate::game::{Answer, Call, GameHandle, Gone};

/// Serves the calls of other nodes for `game` until its actor stops.
pub(super) async fn serve(mut calls: Subscriber, game: GameHandle, cluster: Arc<Cluster>) {
    loop {
        let message = tokio::select! {
            message = calls.next() => match message {
                Some(message) => message,
                None => break,
            },
            _ = game.closed() => break,
        };
        let reply_to = message.reply;
        let Some(call) = decode::<Call>(&message.payload) else {
            tracing::warn!("a call from another node does not read");
            answer(&cluster, reply_to, Err(Gone));
            continue;
        };
        let pending = match game.submit(call).await {
            Ok(pending) => pending,
            Err(Gone) => {
                answer(&cluster, reply_to, Err(Gone));
                continue;
            }
        };
        let cluster = cluster.clone();
        tokio::spawn(async move {
            // A dropped reply (the actor stopped, or lost the game mid-call) is `Gone`: the
            // caller does not know what happened and asks again where the game is now.
            let done = pending.await.map(|r| r.answer).map_err(|_| Gone);
            answer(&cluster, reply_to, done);
        });
    }
    // Unsubscribed from here: later calls find no responder, and their nodes ask again who
    // runs the game now.
}

fn answer(cluster: &Cluster, reply_to: Option<Subject>, answer: Result<Answer, Gone>) {
    if let Some(to) = reply_to {
        cluster.publish(to, encode(&answer));
    }
}
