//! The honest players: four friends playing a long game throughout the soak, timing each
//! move from sending it to its ack. Their latencies are filed under the attack running at
//! that moment, so the report says what each attack cost them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use djambi_server::protocol::expand_legal;
use serde_json::{Value, json};

use crate::client::{self, As, Next};

/// A quiet opening of `n` turns: each player moves a militant forward and back, so the game's
/// version is high (old events fall out of the server's memory) and nothing is killed.
pub fn quiet_record(n: usize) -> Value {
    let forth = [
        ("r", "a7-a6"),
        ("b", "i7-i6"),
        ("y", "i3-i4"),
        ("g", "a3-a4"),
    ];
    let back = [
        ("r", "a6-a7"),
        ("b", "i6-i7"),
        ("y", "i4-i3"),
        ("g", "a4-a3"),
    ];
    let events: Vec<Value> = (0..n)
        .map(|i| {
            let (p, m) = if (i / 4) % 2 == 0 {
                forth[i % 4]
            } else {
                back[i % 4]
            };
            json!({"turn": i + 1, "player": p, "move": m})
        })
        .collect();
    json!({"format": "djambi-game/1", "rules": {}, "start": djambi_core::START_DPN, "events": events})
}

/// A long game with its seats claimed: (id, tokens, version), or the refusal.
pub async fn long_game(who: As, turns: usize) -> Result<(String, Vec<String>, u64), String> {
    let (status, created) =
        client::json(who, "POST", "/api/games/import", Some(&quiet_record(turns))).await;
    if status != 201 {
        return Err(format!("import: {status} {created}"));
    }
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        let claim = json!({"name": format!("Friend {}", i + 1), "token": token});
        let (status, body) =
            client::json(who, "POST", &format!("/api/games/{id}/seats"), Some(&claim)).await;
        if status != 200 {
            return Err(format!("claim: {status} {body}"));
        }
        tokens.push(token);
    }
    Ok((id, tokens, turns as u64))
}

/// The least time a seat takes to choose a move.
const THINK: Duration = Duration::from_millis(100);

/// Latencies filed by phase.
#[derive(Default)]
pub struct Timings {
    /// The phase running now.
    pub phase: AtomicUsize,
    /// (phase, latency) of every acked move.
    pub acks: Mutex<Vec<(usize, Duration)>>,
    /// Moves refused or unanswered in time.
    pub failures: AtomicUsize,
    /// Set to stop the players.
    pub stop: AtomicBool,
}

impl Timings {
    /// (moves, p50 ms, p99 ms, max ms) of a phase.
    pub fn of(&self, phase: usize) -> (usize, f64, f64, f64) {
        let mut lat: Vec<Duration> = self
            .acks
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, _)| *p == phase)
            .map(|(_, d)| *d)
            .collect();
        lat.sort();
        let pct = |q: f64| {
            lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1)))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        (lat.len(), pct(0.5), pct(0.99), pct(1.0))
    }
}

/// Plays games, one after another, until told to stop.
pub async fn play_forever(who: As, timings: Arc<Timings>) {
    while !timings.stop.load(Relaxed) {
        let (id, tokens, _) = match long_game(who, 400).await {
            Ok(game) => game,
            Err(why) => {
                eprintln!("players: could not start a game ({why}); retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut seats = Vec::new();
        for (i, token) in tokens.into_iter().enumerate() {
            let id = id.clone();
            let timings = timings.clone();
            seats.push(tokio::spawn(async move {
                play_seat(who, &id, &token, i as u64, &timings).await
            }));
        }
        for seat in seats {
            let _ = seat.await;
        }
    }
}

/// One seat: whenever it is to move, plays a legal turn (from the server's `legal` list) and
/// times its ack. Ends with the game or the soak.
async fn play_seat(who: As, id: &str, token: &str, seed: u64, timings: &Timings) {
    let Some(mut ws) = client::connect(who, id).await else {
        timings.failures.fetch_add(1, Relaxed);
        return;
    };
    client::send(
        &mut ws,
        &json!({"type": "hello", "protocol": 2, "token": token}),
    )
    .await;
    // The version seen last, and the legal turns the server sent this seat for it (protocol 2
    // sends them to the seat to move only, after the event that gave it the turn).
    let mut v = 0;
    let mut legal: Option<(u64, Vec<String>)> = None;
    let mut pending: Option<(u64, Instant)> = None;
    let mut ack = seed * 1_000_000;
    let mut pick = seed;
    while !timings.stop.load(Relaxed) {
        let m = match client::next(&mut ws, Duration::from_secs(5)).await {
            Next::Message(m) => m,
            Next::Silent if pending.is_some() => {
                timings.failures.fetch_add(1, Relaxed);
                pending = None;
                continue;
            }
            Next::Silent => continue,
            Next::Closed => return,
        };
        match m["type"].as_str() {
            Some("snapshot") => {
                v = m["v"].as_u64().unwrap_or(0);
                if !m["game"]["result"].is_null() {
                    return;
                }
            }
            Some("event") => {
                v = m["v"].as_u64().unwrap_or(v);
                if !m["event"]["result"].is_null() {
                    return;
                }
            }
            Some("legal") => {
                legal = Some((m["v"].as_u64().unwrap_or(0), expand_legal(&m["turns"])))
            }
            Some("ack") => {
                if let Some((_, sent)) = pending.take_if(|(a, _)| m["ack"] == *a) {
                    let phase = timings.phase.load(Relaxed);
                    timings.acks.lock().unwrap().push((phase, sent.elapsed()));
                }
            }
            Some("error") if pending.as_ref().is_some_and(|(a, _)| m["ack"] == *a) => {
                timings.failures.fetch_add(1, Relaxed);
                pending = None;
            }
            _ => {}
        }
        if pending.is_some() {
            continue;
        }
        let Some(turns) = legal
            .take_if(|(at, turns)| *at == v && !turns.is_empty())
            .map(|(_, turns)| turns)
        else {
            continue;
        };
        // A deterministic spread of choices, no randomness needed.
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let turn = turns[(pick >> 33) as usize % turns.len()].clone();
        ack += 1;
        // People think: a move every THINK at most per seat (well inside the server's frame
        // rate, which a seat that plays bonus turns back to back would otherwise exceed).
        tokio::time::sleep(THINK).await;
        if !client::send(&mut ws, &json!({"type": "move", "ack": ack, "turn": turn})).await {
            return;
        }
        pending = Some((ack, Instant::now()));
    }
}
