//! Writing to a socket: one task drains the connection's queue, writing everything already
//! queued with one flush.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::SinkExt;
use futures_util::stream::SplitSink;
use tokio::sync::mpsc;

/// Writes queued frames to the socket; stops after a close frame, a failure, or a write that
/// takes too long (a dead or stuck peer).
pub(super) async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Message>,
    timeout: Duration,
) {
    let mut batch = Vec::new();
    while rx.recv_many(&mut batch, 32).await > 0 {
        // Everything already queued goes out with one flush (one write on the socket).
        let closing = batch.iter().any(|m| matches!(m, Message::Close(_)));
        let write = async {
            for message in batch.drain(..) {
                sink.feed(message).await?;
            }
            sink.flush().await
        };
        match tokio::time::timeout(timeout, write).await {
            Ok(Ok(())) if !closing => {}
            _ => break,
        }
    }
    let _ = tokio::time::timeout(timeout, sink.close()).await;
}
