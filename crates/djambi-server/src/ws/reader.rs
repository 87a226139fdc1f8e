//! Reading a client's frames: every frame (text, binary, ping or pong) spends from the socket's
//! rate budget; a client that keeps sending past it is closed as a flood. A silent socket is
//! pinged, and closed when nothing at all comes back. A socket closed to make room under the
//! connection caps ends here too.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::WsContext;
use super::inbound::{self, Refused};
use crate::protocol::{ClientMessage, ErrorCode};

/// Refused frames a socket may send before it is closed as a flood (then one more each second).
const STRIKES: u32 = 20;

/// What reading the socket gave.
pub(super) enum Read {
    /// A client message, or why its frame was refused (to be answered).
    Message(Result<ClientMessage, Refused>),
    /// The socket should be pinged: it has been silent a while.
    Ping,
    /// A frame refused without an answer (a binary frame or a ping over the budget).
    Ignored,
    /// The connection is over: closed by the client, silent too long, flooding, or closed to
    /// make room. `Some` says how to close it.
    End(Option<(u16, &'static str)>),
}

/// The reading half of a socket with its budgets.
pub(super) struct Reader {
    stream: SplitStream<WebSocket>,
    ctx: Arc<WsContext>,
    frames: DefaultDirectRateLimiter,
    strikes: DefaultDirectRateLimiter,
    last_heard: Instant,
    pinged: bool,
    killed: CancellationToken,
}

impl Reader {
    pub(super) fn new(
        stream: SplitStream<WebSocket>,
        ctx: Arc<WsContext>,
        killed: CancellationToken,
    ) -> Reader {
        let rate = ctx.rate_limit.max(1);
        let frames = Quota::per_second(std::num::NonZeroU32::new(rate).expect("positive"))
            .allow_burst(std::num::NonZeroU32::new(rate.saturating_mul(2)).expect("positive"));
        let strikes = Quota::per_second(std::num::NonZeroU32::MIN)
            .allow_burst(std::num::NonZeroU32::new(STRIKES).expect("positive"));
        let frames = RateLimiter::direct_with_clock(frames, ctx.clock.clone());
        let strikes = RateLimiter::direct_with_clock(strikes, ctx.clock.clone());
        Reader {
            stream,
            ctx,
            frames,
            strikes,
            last_heard: Instant::now(),
            pinged: false,
            killed,
        }
    }

    /// Counts a refused frame; `false` once the socket has been refused too often.
    fn strike(&self) -> bool {
        self.strikes.check().is_ok()
    }

    /// The next thing to act on.
    pub(super) async fn next(&mut self) -> Read {
        let idle = self.ctx.idle;
        let deadline = if self.pinged {
            self.last_heard + idle
        } else {
            self.last_heard + idle / 3
        };
        let frame = tokio::select! {
            _ = self.killed.cancelled() => return Read::End(Some((1013, "server busy"))),
            _ = tokio::time::sleep_until(deadline) => {
                if self.pinged {
                    return Read::End(Some((1001, "idle")));
                }
                self.pinged = true;
                return Read::Ping;
            }
            frame = self.stream.next() => frame,
        };
        let message = match frame {
            Some(Ok(message)) => message,
            Some(Err(_)) | None => return Read::End(None),
        };
        self.last_heard = Instant::now();
        self.pinged = false;
        if let Message::Close(_) = message {
            return Read::End(None);
        }
        if self.frames.check().is_err() {
            if !self.strike() {
                self.ctx.metrics.floods.inc();
                return Read::End(Some((1008, "flooding")));
            }
            return match message {
                Message::Text(text) => Read::Message(Err(Refused {
                    ack: inbound::ack_of(text.as_str(), self.ctx.max_message_bytes),
                    code: ErrorCode::RateLimited,
                    message: "too many messages; slow down".into(),
                })),
                _ => Read::Ignored,
            };
        }
        match message {
            Message::Text(text) => {
                Read::Message(inbound::parse(text.as_str(), self.ctx.max_message_bytes))
            }
            Message::Binary(_) => {
                if !self.strike() {
                    return Read::End(Some((1003, "text frames only")));
                }
                Read::Message(Err(Refused {
                    ack: None,
                    code: ErrorCode::Malformed,
                    message: "messages are JSON in text frames".into(),
                }))
            }
            // Counted above; tungstenite answers pings by itself.
            Message::Ping(_) | Message::Pong(_) => Read::Ignored,
            Message::Close(_) => Read::End(None),
        }
    }
}
