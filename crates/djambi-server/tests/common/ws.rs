//! The tests' WebSocket client: a real client against the real server, logging every message
//! it receives.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use super::WAIT;

type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A real WebSocket client.
pub struct Ws {
    stream: Stream,
    /// The next ack id [`ack`](Ws::ack) hands out.
    pub next_ack: u64,
    /// Every message received, in order.
    pub log: Vec<Value>,
    /// How much of `log` [`my_turn`](Ws::my_turn) has looked at.
    seen: usize,
    /// The version of the last event or snapshot `my_turn` saw.
    at: u64,
    /// The last `legal` message `my_turn` saw: its version and turns.
    legal: Option<(u64, Vec<String>)>,
}

/// The turn texts of a compact `legal` list (PROTOCOL §3.4), sorted.
pub fn expand(turns: &Value) -> Vec<String> {
    let mut all = djambi_server::protocol::expand_legal(turns);
    all.sort();
    all
}

impl Ws {
    pub async fn connect(addr: SocketAddr, id: &str) -> Ws {
        let url = format!("ws://{addr}/ws/games/{id}");
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect");
        Ws {
            stream,
            next_ack: 1,
            log: Vec::new(),
            seen: 0,
            at: 0,
            legal: None,
        }
    }

    /// Connects and says hello; returns the client and the first answer (a snapshot, or
    /// `resume`).
    pub async fn join(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> (Ws, Value) {
        let mut ws = Ws::connect(addr, id).await;
        let mut hello = json!({"type": "hello", "protocol": 2});
        if let Some(token) = token {
            hello["token"] = json!(token);
        }
        if let Some(since) = since {
            hello["since"] = json!(since);
        }
        ws.send(&hello).await;
        let first = ws.recv().await;
        (ws, first)
    }

    pub async fn send(&mut self, message: &Value) {
        self.send_text(&message.to_string()).await;
    }

    /// Sends if the socket is still open; `false` once it is closed.
    pub async fn try_send(&mut self, message: &Value) -> bool {
        self.stream
            .send(Message::Text(message.to_string().into()))
            .await
            .is_ok()
    }

    pub async fn send_text(&mut self, text: &str) {
        self.stream
            .send(Message::Text(text.to_string().into()))
            .await
            .expect("send");
    }

    /// The next text message; panics after [`WAIT`] or if the socket closes.
    pub async fn recv(&mut self) -> Value {
        match self.try_recv(WAIT).await {
            Some(Ok(v)) => v,
            Some(Err(close)) => panic!("socket closed: {close}"),
            None => panic!("no message in {WAIT:?}"),
        }
    }

    /// The next text message within `wait`: `None` on timeout, `Err(reason)` when closed.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<Result<Value, String>> {
        loop {
            let next = tokio::time::timeout(wait, self.stream.next()).await.ok()?;
            match next {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
                    self.log.push(value.clone());
                    return Some(Ok(value));
                }
                Some(Ok(Message::Close(frame))) => {
                    return Some(Err(frame
                        .map(|f| format!("{} {}", u16::from(f.code), f.reason))
                        .unwrap_or_default()));
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Some(Err(e.to_string())),
                None => return Some(Err("ended".into())),
            }
        }
    }

    /// Reads until a message with `"type": ty` (the others stay in the log).
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == ty {
                return m;
            }
        }
    }

    /// The next versioned event.
    pub async fn event(&mut self) -> Value {
        self.recv_type("event").await
    }

    /// Reads until the `ack` or `error` answering `ack` (the others stay in the log).
    pub async fn reply(&mut self, ack: u64) -> Value {
        loop {
            let m = self.recv().await;
            if (m["type"] == "ack" || m["type"] == "error") && m["ack"] == ack {
                return m;
            }
        }
    }

    /// A fresh ack id.
    pub fn ack(&mut self) -> u64 {
        let a = self.next_ack;
        self.next_ack += 1;
        a
    }

    /// Sends a command (`message` gets a fresh `ack`) and returns its answer.
    pub async fn command(&mut self, mut message: Value) -> Value {
        let ack = self.ack();
        message["ack"] = json!(ack);
        self.send(&message).await;
        self.reply(ack).await
    }

    /// Plays a turn and returns its answer.
    pub async fn play(&mut self, turn: &str) -> Value {
        self.command(json!({"type": "move", "turn": turn})).await
    }

    /// Every message that arrives within `wait`.
    pub async fn drain(&mut self, wait: Duration) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(Ok(m)) = self.try_recv(wait).await {
            out.push(m);
        }
        out
    }

    /// Every versioned event received so far, after reading what arrives within `wait`.
    pub async fn events_within(&mut self, wait: Duration) -> Vec<Value> {
        self.drain(wait).await;
        self.of_type("event")
    }

    /// Every message of a type received so far, in order.
    pub fn of_type(&self, ty: &str) -> Vec<Value> {
        self.log
            .iter()
            .filter(|m| m["type"] == ty)
            .cloned()
            .collect()
    }

    /// Reads (what is logged, then the socket) until this seat is to move: returns the version
    /// and the legal turns the server sent it (PROTOCOL §3.4), or `None` once the game is over.
    pub async fn my_turn(&mut self) -> Option<(u64, Vec<String>)> {
        loop {
            while self.seen < self.log.len() {
                let m = &self.log[self.seen];
                self.seen += 1;
                let v = m["v"].as_u64().unwrap_or(self.at);
                match m["type"].as_str() {
                    Some("event") => {
                        self.at = v;
                        let e = &m["event"];
                        if !e["result"].is_null() || e["kind"] == "cancelled" {
                            return None;
                        }
                    }
                    Some("snapshot") => {
                        self.at = v;
                        if !m["game"]["result"].is_null() {
                            return None;
                        }
                    }
                    Some("legal") => self.legal = Some((v, expand(&m["turns"]))),
                    _ => {}
                }
            }
            match &self.legal {
                Some((v, _)) if *v == self.at => return self.legal.take(),
                Some((v, _)) if *v < self.at => self.legal = None,
                _ => {}
            }
            self.recv().await;
        }
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

/// Checks an error answer: its code, and that it carries the current `v`.
pub fn assert_error(answer: &Value, code: &str, v: u64) {
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], code, "{answer}");
    assert_eq!(answer["v"], v, "{answer}");
}
