//! One WebSocket connection: `hello` first, then client frames become commands for the game's
//! actor, and the game's broadcast is filtered (whispers, messages for one seat or one socket)
//! and written straight to the socket by the connection's one task (a write that takes longer
//! than the write timeout ends the connection). The socket never applies rules.
//!
//! A slow client never delays anyone else: the actor's broadcast does not wait for it, and when
//! the connection falls behind by more than the broadcast holds, it is resynced (a snapshot for
//! a spectator, the missed events for a player). What a connection may cost is bounded: its
//! frames by the rate limit, its catch-ups by its address's budget, its chat by its own budget.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, RateLimiter};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::{Mutex, broadcast};

use super::WsContext;
use super::inbound;
use super::reader::{Read, Reader};
use crate::game::{CloseReason, Game, Joined, Outbound, Registry, Seq, Text, Viewer};
use crate::net::{ConnSlot, ConnState, IpKey};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};
use crate::table::{Action, Role};

/// How long a socket on one node waits for the events of its command from the game's owner
/// on another (they travel apart from the answer) before it catches up instead.
const EVENTS_WAIT: Duration = Duration::from_secs(2);

/// Who is on the other end.
pub(super) struct Peer {
    /// The client's address key (its budgets).
    pub ip: IpKey,
    /// Its connection's slot under the caps (none when served without the accept loop).
    pub slot: Option<Arc<ConnSlot>>,
    /// Set when the address had spent its WebSocket budget: only a seat's holder may join,
    /// and a spectator is told when to come back.
    pub over_budget: Option<Duration>,
}

/// Serves one connection to one game until either side closes.
pub(super) async fn run(
    socket: WebSocket,
    game: Game,
    registry: Arc<Registry>,
    ctx: Arc<WsContext>,
    peer: Peer,
) {
    let conn = ctx.next_conn.fetch_add(1, Relaxed);
    let (sink, stream) = socket.split();
    let killed = peer
        .slot
        .as_ref()
        .map(|s| s.killed().clone())
        .unwrap_or_default();
    let mut connection = Connection {
        ctx: ctx.clone(),
        game,
        registry,
        sink: Mutex::new(sink),
        unflushed: AtomicBool::new(false),
        reader: Reader::new(stream, ctx.clone(), killed),
        last_v: 0,
        chat: RateLimiter::direct_with_clock(ctx.chat.quota(), ctx.clock.clone()),
        peer,
    };
    // The large futures (hello, handling a frame or an event) are boxed while they run, so an
    // idle socket's task holds only its small waiting state (PROTOCOL: memory per socket).
    if let Some(joined) = Box::pin(connection.hello(conn)).await {
        tracing::debug!(conn, role = ?joined.viewer.role, "connected");
        if let Some(slot) = &connection.peer.slot {
            slot.set_state(ConnState::Socket);
        }
        let metrics = &ctx.metrics;
        let gauge = match joined.viewer.role {
            Role::Player(_) => &metrics.player_connections,
            Role::Spectator => &metrics.spectator_connections,
        };
        gauge.inc();
        let viewer = joined.viewer.clone();
        Box::pin(connection.play(joined)).await;
        connection.game.leave(&viewer).await;
        gauge.dec();
        tracing::debug!(conn, "disconnected");
    }
    let mut sink = connection.sink.lock().await;
    let _ = tokio::time::timeout(ctx.write_timeout, sink.close()).await;
}

pub(super) struct Connection {
    pub(super) ctx: Arc<WsContext>,
    pub(super) game: Game,
    pub(super) registry: Arc<Registry>,
    /// The socket's writing half: this task writes to it directly (the lock is never
    /// contended; it lets `&self` methods write).
    pub(super) sink: Mutex<SplitSink<WebSocket, Message>>,
    /// Whether frames were buffered since the last flush.
    pub(super) unflushed: AtomicBool,
    pub(super) reader: Reader,
    /// The last version sent to this client (events and snapshots).
    pub(super) last_v: u64,
    /// The chat this socket may still send.
    pub(super) chat: DefaultDirectRateLimiter,
    pub(super) peer: Peer,
}

/// What to do after handling something.
enum Flow {
    Continue,
    Stop,
}

impl Connection {
    /// Buffers a frame (written at the next [`flush`](Connection::flush)); `false` when the
    /// socket is gone or the write took longer than the write timeout (a dead or stuck peer).
    async fn write(&self, message: Message) -> bool {
        let mut sink = self.sink.lock().await;
        self.unflushed.store(true, Relaxed);
        matches!(
            tokio::time::timeout(self.ctx.write_timeout, sink.feed(message)).await,
            Ok(Ok(()))
        )
    }

    /// Writes what is buffered, in one write on the socket; `false` as for
    /// [`write`](Connection::write).
    pub(super) async fn flush(&self) -> bool {
        if !self.unflushed.swap(false, Relaxed) {
            return true;
        }
        let mut sink = self.sink.lock().await;
        matches!(
            tokio::time::timeout(self.ctx.write_timeout, sink.flush()).await,
            Ok(Ok(()))
        )
    }

    /// Writes a frame now.
    async fn write_now(&self, message: Message) -> bool {
        self.write(message).await && self.flush().await
    }

    /// Writes a text frame.
    pub(super) async fn send(&self, text: Utf8Bytes) -> bool {
        self.write(Message::Text(text)).await
    }

    /// Writes a game's message (its JSON text, shared by every recipient).
    async fn send_text(&self, text: &Text) -> bool {
        // The text is UTF-8 by construction: this check never fails.
        match Utf8Bytes::try_from(text.bytes()) {
            Ok(text) => self.send(text).await,
            Err(_) => true,
        }
    }

    pub(super) async fn send_message(&self, message: &ServerMessage) -> bool {
        let text = serde_json::to_string(message).expect("protocol messages serialise");
        self.send(Utf8Bytes::from(text)).await
    }

    pub(super) async fn error(
        &self,
        ack: Option<u64>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> bool {
        self.send_message(&ServerMessage::Error {
            ack,
            code,
            message: message.into(),
            kind: None,
            v: self.last_v,
        })
        .await
    }

    pub(super) async fn close(&self, code: u16, reason: &'static str) {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        };
        let _ = self.write_now(Message::Close(Some(frame))).await;
    }

    /// The next client message (refusals included); `None` when the connection is over (it
    /// was closed as it should be).
    pub(super) async fn next_message(&mut self) -> Option<Result<ClientMessage, inbound::Refused>> {
        loop {
            match self.reader.next().await {
                Read::Message(message) => return Some(message),
                Read::Ignored => continue,
                Read::Ping => {
                    if !self.write_now(Message::Ping(Default::default())).await {
                        return None;
                    }
                }
                Read::End(close) => {
                    if let Some((code, reason)) = close {
                        self.close(code, reason).await;
                    }
                    return None;
                }
            }
        }
    }

    /// Spends `bytes` of catch-up from the address's budget; past it, a spectator is told to
    /// come back later and the connection closes. Seats always get in: a player's catch-up
    /// counts, but is never refused (it is bounded by the WebSocket budget and the seat's
    /// socket cap).
    pub(super) async fn afford(&self, role: Role, bytes: usize) -> bool {
        let kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        match self.ctx.budgets.catchup_kib.take_n(self.peer.ip, kib) {
            Ok(()) => true,
            Err(_) if role != Role::Spectator => true,
            Err(wait) => {
                tracing::debug!(ip = %self.peer.ip, kib, "catch-up refused: over the address's budget");
                self.error(
                    None,
                    ErrorCode::RateLimited,
                    format!(
                        "too many catch-ups from your address; try again in {} s",
                        wait.as_secs().max(1)
                    ),
                )
                .await;
                self.close(close_code::AGAIN, "too many catch-ups").await;
                false
            }
        }
    }

    /// The joined connection's loop.
    async fn play(&mut self, joined: Joined) {
        let Joined {
            mut viewer,
            mut events,
            initial,
            keep: _keep,
        } = joined;
        viewer.address = Some(self.peer.ip);
        for outbound in initial {
            if let Flow::Stop = self.forward(&viewer, outbound, true).await {
                return;
            }
        }
        loop {
            // What this loop queued goes out in one write once nothing more is waiting.
            if events.is_empty() && !self.flush().await {
                return;
            }
            let flow = tokio::select! {
                frame = self.next_message() => match frame {
                    None => Flow::Stop,
                    Some(frame) => Box::pin(self.on_frame(&mut viewer, &mut events, frame)).await,
                },
                received = events.recv() => Box::pin(self.on_broadcast(&viewer, received)).await,
            };
            if let Flow::Stop = flow {
                return;
            }
        }
    }

    async fn on_frame(
        &mut self,
        viewer: &mut Viewer,
        events: &mut broadcast::Receiver<Outbound>,
        frame: Result<ClientMessage, inbound::Refused>,
    ) -> Flow {
        let message = match frame {
            Ok(message) => message,
            Err(refused) => {
                return self.flow(self.error(refused.ack, refused.code, refused.message).await);
            }
        };
        match message {
            ClientMessage::Ping => self.flow(
                self.send_message(&ServerMessage::Pong {
                    now: crate::clock::now_ms(),
                })
                .await,
            ),
            ClientMessage::Hello { .. } => self.flow(
                self.error(None, ErrorCode::Malformed, "hello was already said")
                    .await,
            ),
            ClientMessage::Sync { since } => self.send_sync(viewer, since).await,
            ClientMessage::SpectatorRoom { open } => {
                viewer.spectator_room = open;
                self.send_sync(viewer, None).await
            }
            command => {
                let Some((ack, action)) = inbound::action(command) else {
                    return Flow::Continue;
                };
                if matches!(action, Action::Rematch)
                    && let Err(wait) = self.ctx.budgets.create.take(self.peer.ip)
                {
                    // A rematch is a game creation: it spends the address's creation budget.
                    return self.flow(
                        self.error(
                            Some(ack),
                            ErrorCode::RateLimited,
                            &format!(
                                "too many games created from your address; try again in {} s",
                                wait.as_secs().max(1)
                            ),
                        )
                        .await,
                    );
                }
                if action.is_chat() && self.chat.check().is_err() {
                    return self.flow(
                        self.error(
                            Some(ack),
                            ErrorCode::RateLimited,
                            "you are chatting too fast; wait a moment",
                        )
                        .await,
                    );
                }
                let Ok(reply) = self.game.act(viewer.clone(), ack, action).await else {
                    // Whether it was done is unknown (the game's actor stopped, or its node
                    // died): no answer, so the client sends it again, with the same ack id,
                    // once reconnected — it is applied at most once.
                    self.close(close_code::RESTART, "game restarting").await;
                    return Flow::Stop;
                };
                if let Flow::Stop = self.events_up_to(viewer, events, reply.v).await {
                    return Flow::Stop;
                }
                self.flow(self.send_text(&reply.text).await)
            }
        }
    }

    /// Sends the events up to version `v` (those a command made go out before its ack). A
    /// local game has broadcast them already; from another node's game they may still be on
    /// their way, and are waited for a little, then caught up on.
    async fn events_up_to(
        &mut self,
        viewer: &Viewer,
        events: &mut broadcast::Receiver<Outbound>,
        v: u64,
    ) -> Flow {
        while self.last_v < v {
            let next = match events.try_recv() {
                // A game of this node broadcast them before its answer; from another node's
                // game they travel apart from it and may still be on their way.
                Err(TryRecvError::Empty) => {
                    match tokio::time::timeout(EVENTS_WAIT, events.recv()).await {
                        Ok(Ok(outbound)) => Ok(outbound),
                        Ok(Err(RecvError::Lagged(_))) => Err(TryRecvError::Lagged(0)),
                        Ok(Err(RecvError::Closed)) => Err(TryRecvError::Closed),
                        Err(_) => return self.send_sync(viewer, Some(self.last_v)).await,
                    }
                }
                other => other,
            };
            let flow = match next {
                Ok(outbound) => self.forward(viewer, outbound, false).await,
                Err(TryRecvError::Lagged(_)) => self.resync(viewer).await,
                Err(_) => break,
            };
            if let Flow::Stop = flow {
                return Flow::Stop;
            }
        }
        Flow::Continue
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
        self.ctx.metrics.lagged.inc();
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
        let bytes = messages.iter().map(|o| o.text.len()).sum();
        if !self.afford(viewer.role, bytes).await {
            return Flow::Stop;
        }
        for outbound in messages {
            if let Flow::Stop = self.forward(viewer, outbound, true).await {
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    /// Sends a game message if this connection may see it and has not seen it; `direct`
    /// messages (answers to this connection) are never filtered by audience. A message that
    /// closes its recipients ends the connection after it.
    async fn forward(&mut self, viewer: &Viewer, outbound: Outbound, direct: bool) -> Flow {
        if !direct && !outbound.audience.admits(viewer) {
            return Flow::Continue;
        }
        match outbound.seq {
            Seq::Event(v) if v <= self.last_v => return Flow::Continue,
            // A gap (from another node's game, a message lost on the way): catch up instead;
            // the answer holds this event again.
            Seq::Event(v) if !direct && self.last_v > 0 && v > self.last_v + 1 => {
                self.ctx.metrics.lagged.inc();
                return Box::pin(self.send_sync(viewer, Some(self.last_v))).await;
            }
            Seq::Event(v) | Seq::Snapshot(v) => self.last_v = v,
            Seq::None => {}
        }
        if !self.send_text(&outbound.text).await {
            return Flow::Stop;
        }
        if let Some(reason) = outbound.close {
            self.close(close_code_of(reason), reason.as_str()).await;
            return Flow::Stop;
        }
        Flow::Continue
    }

    fn flow(&self, sent: bool) -> Flow {
        if sent { Flow::Continue } else { Flow::Stop }
    }
}

/// The WebSocket close code of a game's reason to close a socket.
fn close_code_of(reason: CloseReason) -> u16 {
    match reason {
        // Reconnect and resume.
        CloseReason::Restarting => close_code::RESTART,
        // The socket lost its seat: it must not reconnect with the same token.
        CloseReason::SeatTokenReplaced | CloseReason::SeatOpenedElsewhere => close_code::POLICY,
    }
}
