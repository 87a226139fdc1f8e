//! One WebSocket connection: `hello` first, then client frames become commands for the game's
//! actor, and the game's broadcast is filtered (whispers) and forwarded through a bounded
//! per-connection queue to a writer task. The socket never applies rules.
//!
//! A slow client never delays anyone else: the actor's broadcast does not wait for it, and when
//! the connection falls behind by more than the broadcast holds, it is resynced (a snapshot for
//! a spectator, the missed events for a player).

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::{broadcast, mpsc};

use super::WsContext;
use super::inbound::{self, RateLimit, Refused};
use crate::game::{Audience, GameHandle, JoinError, Joined, Outbound, Registry, Role, Seq, Viewer};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};

/// How long a client has to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves one connection to one game until either side closes.
pub(super) async fn run(
    socket: WebSocket,
    game: GameHandle,
    registry: Arc<Registry>,
    ctx: Arc<WsContext>,
) {
    let conn = ctx.next_conn.fetch_add(1, Relaxed);
    let (sink, stream) = socket.split();
    let (out, out_rx) = mpsc::channel(ctx.connection_queue.max(4));
    let writer = tokio::spawn(write_loop(sink, out_rx, ctx.write_timeout));
    let mut connection = Connection {
        ctx: ctx.clone(),
        game,
        registry,
        out,
        stream,
        last_v: 0,
        rate: RateLimit::new(ctx.rate_limit),
    };
    if let Some(joined) = connection.hello(conn).await {
        tracing::debug!(conn, role = ?joined.viewer.role, "connected");
        let metrics = &ctx.metrics;
        let gauge = match joined.viewer.role {
            Role::Player(_) => &metrics.player_connections,
            Role::Spectator => &metrics.spectator_connections,
        };
        gauge.fetch_add(1, Relaxed);
        let viewer = joined.viewer.clone();
        connection.play(joined).await;
        connection.game.leave(viewer).await;
        gauge.fetch_sub(1, Relaxed);
        tracing::debug!(conn, "disconnected");
    }
    drop(connection);
    let _ = tokio::time::timeout(ctx.write_timeout, writer).await;
}

/// Writes queued frames to the socket; stops after a close frame, a failure, or a write that
/// takes too long (a dead or stuck peer).
async fn write_loop(
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

struct Connection {
    ctx: Arc<WsContext>,
    game: GameHandle,
    registry: Arc<Registry>,
    out: mpsc::Sender<Message>,
    stream: SplitStream<WebSocket>,
    /// The last version sent to this client (events and snapshots).
    last_v: u64,
    rate: RateLimit,
}

/// What to do after handling something.
enum Flow {
    Continue,
    Stop,
}

impl Connection {
    /// Queues a frame; `false` when the writer is gone.
    async fn send(&self, text: Utf8Bytes) -> bool {
        self.out.send(Message::Text(text)).await.is_ok()
    }

    async fn send_message(&self, message: &ServerMessage) -> bool {
        let text = serde_json::to_string(message).expect("protocol messages serialise");
        self.send(Utf8Bytes::from(text)).await
    }

    async fn error(&self, ack: Option<u64>, code: ErrorCode, message: impl Into<String>) -> bool {
        self.send_message(&ServerMessage::Error {
            ack,
            code,
            message: message.into(),
            kind: None,
            v: self.last_v,
        })
        .await
    }

    async fn close(&self, code: u16, reason: &'static str) {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        };
        let _ = self.out.send(Message::Close(Some(frame))).await;
    }

    /// Reads the next text frame through the rate limit; `None` when the client is gone.
    async fn next_text(&mut self) -> Option<Result<ClientMessage, Refused>> {
        loop {
            match self.stream.next().await? {
                Ok(Message::Text(text)) => {
                    if !self.rate.allow() {
                        return Some(Err(Refused {
                            ack: inbound::ack_of(text.as_str(), self.ctx.max_message_bytes),
                            code: ErrorCode::RateLimited,
                            message: "too many messages; slow down".into(),
                        }));
                    }
                    return Some(inbound::parse(text.as_str(), self.ctx.max_message_bytes));
                }
                Ok(Message::Binary(_)) => {
                    return Some(Err(Refused {
                        ack: None,
                        code: ErrorCode::Malformed,
                        message: "messages are JSON in text frames".into(),
                    }));
                }
                Ok(Message::Ping(_) | Message::Pong(_)) => continue,
                Ok(Message::Close(_)) | Err(_) => return None,
            }
        }
    }

    /// Waits for `hello` and joins the game; `None` if the connection ends first.
    async fn hello(&mut self, conn: u64) -> Option<Joined> {
        let deadline = tokio::time::sleep(HELLO_TIMEOUT);
        tokio::pin!(deadline);
        loop {
            let closing = self.ctx.closing.clone();
            let frame = tokio::select! {
                _ = closing.cancelled() => {
                    self.close(close_code::RESTART, "server restarting").await;
                    return None;
                }
                _ = &mut deadline => {
                    self.error(None, ErrorCode::HelloFirst, "say hello first").await;
                    self.close(close_code::POLICY, "no hello").await;
                    return None;
                }
                frame = self.next_text() => frame?,
            };
            let message = match frame {
                Ok(message) => message,
                Err(refused) => {
                    self.error(refused.ack, refused.code, refused.message).await;
                    continue;
                }
            };
            let ClientMessage::Hello {
                token,
                since,
                chat_since,
                name,
            } = message
            else {
                if matches!(message, ClientMessage::Ping) {
                    self.send_message(&ServerMessage::Pong).await;
                } else {
                    self.error(message.ack(), ErrorCode::HelloFirst, "say hello first")
                        .await;
                }
                continue;
            };
            let mut answer = self
                .game
                .join(token.clone(), name.clone(), conn, since, chat_since)
                .await;
            if answer.is_err() {
                // The game's actor stopped in between (a finished game unloaded when idle):
                // load it again once.
                if let Ok(Some(game)) = self.registry.get(self.game.id()).await {
                    self.game = game;
                    answer = self.game.join(token, name, conn, since, chat_since).await;
                }
            }
            match answer {
                Ok(Ok(joined)) => return Some(joined),
                Ok(Err(JoinError::BadToken)) => {
                    self.error(
                        None,
                        ErrorCode::BadToken,
                        "this is not a seat token of this game",
                    )
                    .await;
                    self.close(close_code::POLICY, "bad token").await;
                    return None;
                }
                Ok(Err(JoinError::BadName(why))) => {
                    self.error(None, ErrorCode::Malformed, format!("name: {why}"))
                        .await;
                }
                Ok(Err(JoinError::Full)) => {
                    self.error(None, ErrorCode::Full, "this game has too many connections")
                        .await;
                    self.close(close_code::AGAIN, "game full").await;
                    return None;
                }
                Err(_) => {
                    self.close(close_code::RESTART, "game restarting").await;
                    return None;
                }
            }
        }
    }

    /// The joined connection's loop.
    async fn play(&mut self, joined: Joined) {
        let Joined {
            viewer,
            mut events,
            initial,
        } = joined;
        for outbound in initial {
            if let Flow::Stop = self.forward(&viewer, outbound, true).await {
                return;
            }
        }
        loop {
            let flow = tokio::select! {
                frame = self.next_text() => match frame {
                    None => Flow::Stop,
                    Some(frame) => self.on_frame(&viewer, &mut events, frame).await,
                },
                received = events.recv() => self.on_broadcast(&viewer, received).await,
            };
            if let Flow::Stop = flow {
                return;
            }
        }
    }

    async fn on_frame(
        &mut self,
        viewer: &Viewer,
        events: &mut broadcast::Receiver<Outbound>,
        frame: Result<ClientMessage, Refused>,
    ) -> Flow {
        let message = match frame {
            Ok(message) => message,
            Err(refused) => {
                return self.flow(self.error(refused.ack, refused.code, refused.message).await);
            }
        };
        match message {
            ClientMessage::Ping => self.flow(self.send_message(&ServerMessage::Pong).await),
            ClientMessage::Hello { .. } => self.flow(
                self.error(None, ErrorCode::Malformed, "hello was already said")
                    .await,
            ),
            ClientMessage::Sync { since } => self.send_sync(viewer, since).await,
            command => {
                let Some((ack, action)) = inbound::action(command) else {
                    return Flow::Continue;
                };
                let Ok(reply) = self.game.act(viewer.clone(), ack, action).await else {
                    self.error(Some(ack), ErrorCode::Internal, "the server is restarting")
                        .await;
                    self.close(close_code::RESTART, "game restarting").await;
                    return Flow::Stop;
                };
                // The events a command made go out before its ack.
                while self.last_v < reply.v {
                    match events.try_recv() {
                        Ok(outbound) => {
                            if let Flow::Stop = self.forward(viewer, outbound, false).await {
                                return Flow::Stop;
                            }
                        }
                        Err(TryRecvError::Lagged(_)) => {
                            if let Flow::Stop = self.resync(viewer).await {
                                return Flow::Stop;
                            }
                        }
                        Err(_) => break,
                    }
                }
                self.flow(self.send(reply.text).await)
            }
        }
    }

    async fn on_broadcast(
        &mut self,
        viewer: &Viewer,
        received: Result<Outbound, RecvError>,
    ) -> Flow {
        match received {
            Ok(outbound) => self.forward(viewer, outbound, false).await,
            Err(RecvError::Lagged(_)) => self.resync(viewer).await,
            Err(RecvError::Closed) => {
                self.close(close_code::RESTART, "game restarting").await;
                Flow::Stop
            }
        }
    }

    /// The connection fell behind the broadcast: a spectator gets a snapshot, a player the
    /// events it missed (or a snapshot if they are too many).
    async fn resync(&mut self, viewer: &Viewer) -> Flow {
        self.ctx.metrics.lagged.fetch_add(1, Relaxed);
        let since = match viewer.role {
            Role::Player(_) => Some(self.last_v),
            Role::Spectator => None,
        };
        self.send_sync(viewer, since).await
    }

    /// Sends what the game answers to a sync from `since`: the missed events, or a snapshot
    /// (`None`, or too far behind). A game that is restarting closes the connection.
    async fn send_sync(&mut self, viewer: &Viewer, since: Option<u64>) -> Flow {
        let Ok(messages) = self.game.sync(viewer.clone(), since).await else {
            self.close(close_code::RESTART, "game restarting").await;
            return Flow::Stop;
        };
        for outbound in messages {
            if let Flow::Stop = self.forward(viewer, outbound, true).await {
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    /// Sends a game message if this connection may see it and has not seen it; `direct`
    /// messages (answers to this connection) are never filtered by audience.
    async fn forward(&mut self, viewer: &Viewer, outbound: Outbound, direct: bool) -> Flow {
        if !direct && !outbound.audience.admits(viewer.role) {
            return Flow::Continue;
        }
        match outbound.seq {
            Seq::Event(v) if v <= self.last_v => return Flow::Continue,
            Seq::Event(v) | Seq::Snapshot(v) => self.last_v = v,
            Seq::None => {}
        }
        if !self.send(outbound.text).await {
            return Flow::Stop;
        }
        if outbound.audience == Audience::AllThenClose {
            self.close(close_code::RESTART, "server restarting").await;
            return Flow::Stop;
        }
        Flow::Continue
    }

    fn flow(&self, sent: bool) -> Flow {
        if sent { Flow::Continue } else { Flow::Stop }
    }
}
