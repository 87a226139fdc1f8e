//! One WebSocket connection to a game: connect, send, receive, hello and catching up.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::http::authority;
use crate::state::GameState;
use crate::{Res, WAIT};

pub(crate) type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// What a socket gave.
pub(crate) enum Incoming {
    Message(Value),
    /// A close frame (code and reason), or none if the connection just ended.
    Closed(Option<(u16, String)>),
    Timeout,
}

/// One WebSocket connection to the game.
pub(crate) struct Client {
    /// `r`, `b`, `y`, `g` or `spectator`.
    pub(crate) name: String,
    pub(crate) stream: Stream,
    /// The last `legal` message this seat was sent: its version and the turns it lists.
    pub(crate) legal: Option<(u64, Vec<String>)>,
    /// The versions of every event this connection (and the ones it replaced) received, and
    /// the snapshots that stood in for events it missed.
    pub(crate) seen: Seen,
    /// The last version this connection (or one it replaced) received.
    pub(crate) v: u64,
}

/// What one client saw of the game's events, over its reconnections.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Versions received as events (live or resent after a `resume`).
    pub(crate) events: Vec<u64>,
    /// Versions of the snapshots received after the first (a resync instead of events).
    pub(crate) resyncs: Vec<u64>,
}

impl Client {
    pub(crate) async fn connect(url: &str, game: &str, name: &str) -> Res<Client> {
        Ok(Client {
            name: name.to_string(),
            stream: open(url, game, name).await?,
            legal: None,
            seen: Seen::default(),
            v: 0,
        })
    }

    /// A new connection in place of this one (as the browser does after a close): the
    /// messages it had not read are gone.
    pub(crate) async fn reconnect(&mut self, url: &str, game: &str) -> Res<()> {
        self.stream = open(url, game, &self.name).await?;
        self.legal = None;
        Ok(())
    }

    pub(crate) async fn send(&mut self, message: &Value) -> Res<()> {
        self.stream
            .send(Message::Text(message.to_string().into()))
            .await
            .map_err(|e| format!("{}: send: {e}", self.name))
    }

    pub(crate) async fn next(&mut self, wait: Duration) -> Res<Incoming> {
        loop {
            let Ok(next) = tokio::time::timeout(wait, self.stream.next()).await else {
                return Ok(Incoming::Timeout);
            };
            match next {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(text.as_str())
                        .map_err(|e| format!("{}: not JSON: {e}: {text}", self.name))?;
                    self.note(&value);
                    return Ok(Incoming::Message(value));
                }
                Some(Ok(Message::Close(frame))) => {
                    return Ok(Incoming::Closed(
                        frame.map(|f| (u16::from(f.code), f.reason.to_string())),
                    ));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Ok(Incoming::Closed(None)),
            }
        }
    }

    /// Keeps what a message says about the game: the legal turns, the versions seen.
    fn note(&mut self, message: &Value) {
        let v = message["v"].as_u64();
        match message["type"].as_str() {
            Some("legal") => {
                let turns = djambi_server::protocol::expand_legal(&message["turns"]);
                self.legal = v.map(|v| (v, turns));
            }
            Some("event") => {
                self.seen.events.extend(v);
                self.v = self.v.max(v.unwrap_or(0));
            }
            Some("snapshot") => {
                if let Some(v) = v
                    && self.v > 0
                {
                    self.seen.resyncs.push(v);
                }
                self.v = v.unwrap_or(self.v);
            }
            _ => {}
        }
    }

    /// The turns this seat may play at version `v`, from the `legal` message the server sends
    /// the seat to move (read up to it; every message goes through `state.see`).
    pub(crate) async fn legal_at(&mut self, v: u64, state: &mut GameState) -> Res<Vec<String>> {
        loop {
            if let Some((at, turns)) = &self.legal
                && *at == v
            {
                return Ok(turns.clone());
            }
            let message = self.recv().await?;
            state.see(&message);
        }
    }

    /// The next message; closing or silence is a failure.
    pub(crate) async fn recv(&mut self) -> Res<Value> {
        match self.next(WAIT).await? {
            Incoming::Message(value) => Ok(value),
            Incoming::Closed(frame) => Err(format!("{}: socket closed: {frame:?}", self.name)),
            Incoming::Timeout => Err(format!("{}: nothing received in {WAIT:?}", self.name)),
        }
    }

    /// Says hello; the answer (a snapshot, or `resume`), skipping presence and chat.
    pub(crate) async fn hello(&mut self, token: Option<&str>, since: Option<u64>) -> Res<Value> {
        let mut hello = json!({"type": "hello", "protocol": 2});
        if let Some(token) = token {
            hello["token"] = json!(token);
        }
        if let Some(since) = since {
            hello["since"] = json!(since);
        }
        self.send(&hello).await?;
        loop {
            let message = self.recv().await?;
            match message["type"].as_str() {
                Some("snapshot" | "resume") => return Ok(message),
                Some("presence" | "chat") => continue,
                _ => return Err(format!("{}: answer to hello: {message}", self.name)),
            }
        }
    }

    /// Reads until it has seen the event `v` (every message goes through `state.see`).
    pub(crate) async fn catch_up(&mut self, v: u64, state: &mut GameState) -> Res<()> {
        let mut seen = 0;
        while seen < v {
            let message = self.recv().await?;
            if message["type"] == "event" {
                seen = message["v"].as_u64().unwrap_or(0);
            }
            state.see(&message);
        }
        Ok(())
    }
}

/// A WebSocket to the game's socket path.
async fn open(url: &str, game: &str, name: &str) -> Res<Stream> {
    let ws_url = format!("ws://{}/ws/games/{game}", authority(url)?);
    let (stream, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(ws_url))
        .await
        .map_err(|_| format!("{name}: no WebSocket in {WAIT:?}"))?
        .map_err(|e| format!("{name}: WebSocket: {e}"))?;
    Ok(stream)
}
