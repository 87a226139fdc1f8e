//! Players as the browser client behaves (web/js/shared/socket.js): each seat plays a random legal
//! turn when the server tells it it is to move, and when its socket closes or fails it
//! reconnects (through the load balancer, so to any node), says `hello` with the last version
//! it saw, and sends again the command still waiting for its ack, with the same ack id. Every
//! ack is recorded, to be checked against the database afterwards.

use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A command the server acknowledged.
#[derive(Clone, Debug)]
pub struct Acked {
    /// The game.
    pub game: String,
    /// The seat (`r`, `b`, `y`, `g`).
    pub player: char,
    /// The ack id.
    pub ack: u64,
    /// The version the server said it made.
    pub v: u64,
    /// The turn played.
    pub turn: String,
    /// When the ack arrived.
    pub at: Instant,
}

/// What all the players saw.
#[derive(Default)]
pub struct Journal {
    /// Every ack.
    pub acked: Mutex<Vec<Acked>>,
    /// Commands refused (their code), which the test expects none of.
    pub refused: Mutex<Vec<String>>,
    /// Reconnections.
    pub reconnects: AtomicU64,
    /// Games that ended.
    pub finished: AtomicU64,
    /// How each seat stood when it stopped playing: game → descriptions.
    pub last_words: Mutex<std::collections::HashMap<String, Vec<String>>>,
}

/// How one seat plays.
pub struct Seat {
    /// The load balancer (or a node).
    pub addr: SocketAddr,
    /// The game.
    pub game: String,
    /// The seat's token.
    pub token: String,
    /// Its letter.
    pub player: char,
    /// The random seed of its choices.
    pub seed: u64,
    /// Thinking time before each turn.
    pub think: Duration,
    /// When to stop.
    pub deadline: Instant,
}

/// State kept across reconnections.
struct Memory {
    /// The last version seen.
    v: Option<u64>,
    /// The legal turns for version `v`, when it is this seat's turn.
    legal: Option<(u64, Vec<String>)>,
    next_ack: u64,
    /// The command waiting for its ack: (ack, turn).
    pending: Option<(u64, String)>,
    over: bool,
}

/// Plays the seat until the game ends or the deadline; returns whether the game ended.
pub async fn play(seat: Seat, journal: &Journal) -> bool {
    let mut rng = StdRng::seed_from_u64(seat.seed);
    let mut memory = Memory {
        v: None,
        legal: None,
        next_ack: 1,
        pending: None,
        over: false,
    };
    let mut failures = 0u32;
    while !memory.over && Instant::now() < seat.deadline {
        if session(&seat, &mut memory, &mut rng, journal).await {
            failures = 0;
        } else {
            failures += 1;
        }
        if memory.over {
            break;
        }
        journal.reconnects.fetch_add(1, Relaxed);
        // As the browser: a short, growing, jittered wait.
        let base = 100u64 << failures.min(4);
        let wait = base / 2 + rng.gen_range(0..=base / 2);
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
    let words = format!(
        "{}: v {:?}, pending {:?}, legal for {:?}, over {}",
        seat.player,
        memory.v,
        memory.pending,
        memory.legal.as_ref().map(|(v, t)| (v, t.len())),
        memory.over
    );
    journal
        .last_words
        .lock()
        .unwrap()
        .entry(seat.game.clone())
        .or_default()
        .push(words);
    memory.over
}

/// One connection, until it closes; whether it got as far as an answer to `hello`.
async fn session(seat: &Seat, memory: &mut Memory, rng: &mut StdRng, journal: &Journal) -> bool {
    let url = format!("ws://{}/ws/games/{}", seat.addr, seat.game);
    let connect = tokio::time::timeout(
        Duration::from_secs(5),
        tokio_tungstenite::connect_async(url),
    );
    let Ok(Ok((mut ws, _))) = connect.await else {
        return false;
    };
    let mut hello = json!({"type": "hello", "protocol": 2, "token": seat.token});
    if let Some(v) = memory.v {
        hello["since"] = json!(v);
    }
    if ws
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return false;
    }
    // The command still unanswered goes again, with its ack id: applied at most once.
    if let Some((ack, turn)) = &memory.pending {
        let resend = json!({"type": "move", "ack": ack, "turn": turn});
        if ws
            .send(Message::Text(resend.to_string().into()))
            .await
            .is_err()
        {
            return false;
        }
    }
    memory.legal = None;
    let mut answered = false;
    let mut ready_at: Option<Instant> = None;
    loop {
        if memory.over || Instant::now() >= seat.deadline {
            let _ = ws.close(None).await;
            return answered;
        }
        // Time to move?
        if memory.pending.is_none()
            && let Some((v, turns)) = &memory.legal
            && Some(*v) == memory.v
            && !turns.is_empty()
        {
            let at = *ready_at.get_or_insert_with(|| Instant::now() + seat.think);
            if Instant::now() >= at {
                let turn = turns[rng.gen_range(0..turns.len())].clone();
                let ack = memory.next_ack;
                memory.next_ack += 1;
                let message = json!({"type": "move", "ack": ack, "turn": turn});
                memory.pending = Some((ack, turn));
                memory.legal = None;
                ready_at = None;
                if ws
                    .send(Message::Text(message.to_string().into()))
                    .await
                    .is_err()
                {
                    return answered;
                }
                continue;
            }
        }
        let wait = ready_at
            .map(|at| at.saturating_duration_since(Instant::now()))
            .unwrap_or(Duration::from_millis(500))
            .max(Duration::from_millis(1));
        let next = match tokio::time::timeout(wait, ws.next()).await {
            Err(_) => continue,
            Ok(None) | Ok(Some(Err(_))) => return answered,
            Ok(Some(Ok(message))) => message,
        };
        let Message::Text(text) = next else {
            if let Message::Close(_) = next {
                return answered;
            }
            continue;
        };
        let Ok(m) = serde_json::from_str::<Value>(text.as_str()) else {
            continue;
        };
        answered = true;
        receive(seat, memory, &m, journal);
    }
}

fn receive(seat: &Seat, memory: &mut Memory, m: &Value, journal: &Journal) {
    let v = m["v"].as_u64();
    match m["type"].as_str() {
        Some("snapshot") => {
            memory.v = v;
            let game = &m["game"];
            if !game["result"].is_null() || game["status"] == "cancelled" {
                memory.over = true;
            }
        }
        Some("event") => {
            // The server sends no gap; a client that sees one catches up (the browser does).
            memory.v = v;
            let e = &m["event"];
            if !e["result"].is_null() || e["kind"] == "cancelled" {
                memory.over = true;
            }
        }
        Some("legal") => {
            let turns = djambi_server::protocol::expand_legal(&m["turns"]);
            memory.legal = v.map(|v| (v, turns));
        }
        Some("ack") => {
            let ack = m["ack"].as_u64();
            if let Some((pending, turn)) = &memory.pending
                && Some(*pending) == ack
            {
                journal.acked.lock().unwrap().push(Acked {
                    game: seat.game.clone(),
                    player: seat.player,
                    ack: *pending,
                    v: v.unwrap_or(0),
                    turn: turn.clone(),
                    at: Instant::now(),
                });
                memory.pending = None;
            }
        }
        Some("error") => {
            let ack = m["ack"].as_u64();
            if memory
                .pending
                .as_ref()
                .is_some_and(|(p, _)| Some(*p) == ack)
            {
                let code = m["code"].as_str().unwrap_or("?").to_string();
                journal
                    .refused
                    .lock()
                    .unwrap()
                    .push(format!("{}: {code}", seat.game));
                memory.pending = None;
            }
        }
        _ => {}
    }
    if memory.over {
        journal.finished.fetch_add(1, Relaxed);
    }
}
