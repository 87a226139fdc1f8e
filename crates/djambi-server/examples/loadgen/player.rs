//! One player of the load: plays a random legal turn whenever it is to move, times each move
//! to its ack, and reads only the fields it needs from what the server sends (the type, the
//! version, whose turn, and the legal turns when they are its own) — so the generator stays
//! light beside the server.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use djambi_server::protocol::expand_spec;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde::de::IgnoredAny;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// What the players measured.
#[derive(Default)]
pub struct Stats {
    /// Moves acked.
    pub moves: AtomicU64,
    /// Games that ended.
    pub finished: AtomicU64,
    /// Move → ack latencies.
    pub latencies: Mutex<Vec<Duration>>,
    /// Bytes spectators received, and the events among them.
    pub spectator_bytes: AtomicU64,
    /// Events spectators received.
    pub spectator_events: AtomicU64,
    /// Bytes players received in `legal` lists, and how many lists.
    pub legal_bytes: AtomicU64,
    /// `legal` lists received.
    pub legal_lists: AtomicU64,
}

/// The few fields of a server message the player reads.
#[derive(Deserialize)]
struct Msg<'a> {
    #[serde(rename = "type", borrow)]
    ty: &'a str,
    #[serde(default)]
    ack: Option<u64>,
    #[serde(default)]
    v: Option<u64>,
    #[serde(default, borrow)]
    you: Option<You<'a>>,
    #[serde(default, borrow)]
    game: Option<State<'a>>,
    #[serde(default, borrow)]
    event: Option<State<'a>>,
    /// Protocol 2: the legal turns, sent to the player to move only.
    #[serde(default, borrow)]
    turns: Option<HashMap<&'a str, HashMap<&'a str, &'a str>>>,
}

#[derive(Deserialize)]
struct You<'a> {
    #[serde(default, borrow)]
    player: Option<&'a str>,
}

#[derive(Deserialize)]
struct State<'a> {
    #[serde(default, borrow)]
    to_move: Option<&'a str>,
    #[serde(default, borrow)]
    result: Option<&'a serde_json::value::RawValue>,
    #[serde(default)]
    dpn: Option<IgnoredAny>,
}

/// One player's game: plays until the game ends, `max_turns` of its own are played, or the
/// deadline.
pub async fn play(
    addr: SocketAddr,
    id: &str,
    token: &str,
    seed: u64,
    max_turns: u64,
    deadline: Instant,
    stats: &Stats,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws/games/{id}"),
        Some(config),
        false,
    )
    .await
    else {
        return;
    };
    let hello = format!(r#"{{"type":"hello","protocol":2,"token":"{token}"}}"#);
    if ws.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    let mut me: Option<String> = None;
    let mut to_move: Option<String> = None;
    let mut legal: Vec<String> = Vec::new();
    let mut legal_v = 0;
    let mut v = 0;
    let mut pending: Option<(u64, Instant)> = None;
    let mut next_ack = 1;
    let mut played = 0;
    let mut latencies = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(message))) = tokio::time::timeout(left, ws.next()).await else {
            break;
        };
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(m) = serde_json::from_str::<Msg>(text.as_str()) else {
            continue;
        };
        let mut over = false;
        match m.ty {
            "snapshot" => {
                me = m.you.and_then(|y| y.player).map(str::to_string);
                v = m.v.unwrap_or(0);
                if let Some(g) = m.game {
                    to_move = g.to_move.map(str::to_string);
                    over = g.result.is_some_and(|r| r.get() != "null");
                }
            }
            "event" => {
                v = m.v.unwrap_or(v);
                if let Some(e) = m.event
                    && e.dpn.is_some()
                {
                    to_move = e.to_move.map(str::to_string);
                    over = e.result.is_some_and(|r| r.get() != "null");
                }
            }
            "legal" => {
                stats.legal_bytes.fetch_add(text.len() as u64, Relaxed);
                stats.legal_lists.fetch_add(1, Relaxed);
                legal_v = m.v.unwrap_or(0);
                legal.clear();
                for (from, tos) in m.turns.unwrap_or_default() {
                    for (to, spec) in tos {
                        expand_spec(from, to, spec, &mut legal);
                    }
                }
            }
            "ack" => {
                if let Some((_, sent)) = pending.take_if(|(a, _)| m.ack == Some(*a)) {
                    latencies.push(sent.elapsed());
                    stats.moves.fetch_add(1, Relaxed);
                }
            }
            "error" => {
                // A move refused (it raced a change): try again on the next state.
                pending.take_if(|(a, _)| m.ack == Some(*a));
            }
            _ => {}
        }
        if over {
            stats.finished.fetch_add(1, Relaxed);
            break;
        }
        if played >= max_turns || Instant::now() >= deadline {
            break;
        }
        // The list must be of this very version, and it must be our turn with nothing pending.
        if to_move != me || pending.is_some() || legal_v != v || legal.is_empty() {
            continue;
        }
        let turn = &legal[rng.gen_range(0..legal.len())];
        let ack = next_ack;
        next_ack += 1;
        let message = format!(r#"{{"type":"move","ack":{ack},"turn":"{turn}"}}"#);
        if ws.send(Message::Text(message.into())).await.is_err() {
            break;
        }
        legal.clear();
        played += 1;
        pending = Some((ack, Instant::now()));
    }
    stats.latencies.lock().await.extend(latencies);
    let _ = ws.close(None).await;
}

/// A spectator counting the bytes of each versioned event it receives.
pub async fn watch(addr: SocketAddr, id: &str, deadline: Instant, stats: &Stats) {
    let Ok((mut ws, _)) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/games/{id}")).await
    else {
        return;
    };
    let hello = r#"{"type":"hello","protocol":2}"#;
    if ws.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(message))) = tokio::time::timeout(left, ws.next()).await else {
            break;
        };
        if let Message::Text(text) = message
            && text.as_str().starts_with(r#"{"type":"event""#)
        {
            stats.spectator_bytes.fetch_add(text.len() as u64, Relaxed);
            stats.spectator_events.fetch_add(1, Relaxed);
        }
    }
}
