//! The attacks of the hardening issue, each replayed against the server and checked: what a
//! stranger tries, and what must hold.

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::client::{self, As, Next};
use crate::players;

/// What one attack showed.
pub struct Outcome {
    /// Whether the defence held.
    pub held: bool,
    /// What was seen.
    pub detail: String,
}

fn outcome(held: bool, detail: impl Into<String>) -> Outcome {
    Outcome {
        held,
        detail: detail.into(),
    }
}

/// An open game whose creator holds every invite: a socket on an invite's token loses the seat
/// when a stranger claims it (new token), and nothing it sends acts.
pub async fn stale_socket(who: As) -> Outcome {
    let (status, created) = client::json(
        who,
        "POST",
        "/api/games",
        Some(&json!({"players": 4, "open": true})),
    )
    .await;
    if status != 201 {
        return outcome(
            false,
            format!("could not create a game: {status} {created}"),
        );
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let invite = created["seats"][1]["token"].as_str().unwrap_or_default();
    let Some(mut ws) = client::connect(who, &id).await else {
        return outcome(false, "no socket");
    };
    client::send(
        &mut ws,
        &json!({"type": "hello", "protocol": 2, "token": invite}),
    )
    .await;
    client::until(&mut ws, "snapshot", Duration::from_secs(5)).await;
    let claim = json!({"name": "Stranger", "player": "b"});
    let (status, _) =
        client::json(who, "POST", &format!("/api/games/{id}/seats"), Some(&claim)).await;
    let mut revoked = false;
    let mut acked = false;
    let mut closed = false;
    client::send(
        &mut ws,
        &json!({"type": "chat", "ack": 1, "text": "still me"}),
    )
    .await;
    loop {
        match client::next(&mut ws, Duration::from_secs(3)).await {
            Next::Message(m) if m["code"] == "seat_revoked" => revoked = true,
            Next::Message(m) if m["type"] == "ack" => acked = true,
            Next::Message(_) => {}
            Next::Closed => {
                closed = true;
                break;
            }
            Next::Silent => break,
        }
    }
    outcome(
        status == 200 && revoked && closed && !acked,
        format!(
            "claim {status}; told seat_revoked: {revoked}; closed: {closed}; a command acked: {acked}"
        ),
    )
}

/// Anonymous sockets asking for a long catch-up, `rate` a second for `seconds`, each held open
/// a moment without reading.
pub async fn catch_up_flood(who: As, rate: u32, seconds: u64) -> Outcome {
    // 480 turns: a record may not go past 500 turns without a kill (the house's rule).
    let (id, _, v) = match players::long_game(who, 480).await {
        Ok(game) => game,
        Err(why) => return outcome(false, why),
    };
    let before = resident(who).await;
    let started = Instant::now();
    let mut answers = (0u32, 0u32, 0u32); // snapshots, resumes, refused
    let mut tasks = Vec::new();
    let every = Duration::from_secs(1) / rate.max(1);
    while started.elapsed() < Duration::from_secs(seconds) {
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            let mut ws = client::connect(who, &id).await?;
            let since = v.saturating_sub(450);
            client::send(
                &mut ws,
                &json!({"type": "hello", "protocol": 2, "since": since}),
            )
            .await;
            let first = match client::next(&mut ws, Duration::from_secs(5)).await {
                Next::Message(m) => m["type"].as_str().unwrap_or("").to_string(),
                _ => String::new(),
            };
            tokio::time::sleep(Duration::from_secs(2)).await;
            Some(first)
        }));
        tokio::time::sleep(every).await;
    }
    for task in tasks {
        match task.await.ok().flatten().as_deref() {
            Some("snapshot") => answers.0 += 1,
            Some("resume") => answers.1 += 1,
            _ => answers.2 += 1,
        }
    }
    let growth = resident(who).await - before;
    outcome(
        answers.1 == 0 && growth < 100 << 20,
        format!(
            "{} snapshots, {} long resends, {} refused or dropped; server memory grew {:.1} MB",
            answers.0,
            answers.1,
            answers.2,
            growth as f64 / 1e6
        ),
    )
}

/// The server's resident memory, from `/metrics` (0 if it does not say).
pub async fn resident(who: As) -> i64 {
    let (_, _, metrics) = client::http(who, "GET", "/metrics", None).await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("djambi_process_resident_bytes "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// One client creates games as fast as it can: it is stopped long before the server is full.
pub async fn creation_flood(who: As, attempts: u32) -> Outcome {
    let (mut created, mut limited, mut other) = (0, 0, 0);
    for _ in 0..attempts {
        let (status, _) = client::json(
            who,
            "POST",
            "/api/games",
            Some(&json!({"players": 4, "open": true})),
        )
        .await;
        match status {
            201 => created += 1,
            429 => limited += 1,
            _ => other += 1,
        }
    }
    outcome(
        limited > 0 && other == 0 && created < attempts / 2,
        format!(
            "{created} created, {limited} refused with 429, {other} other answers (503 would mean the server is full for everyone)"
        ),
    )
}

/// Many spectators (`crowd`) on one game, then its players (`who`) still get in.
pub async fn spectators_first(who: As, crowd_from: As, spectators: usize) -> Outcome {
    let (id, tokens, _) = match players::long_game(who, 4).await {
        Ok(game) => game,
        Err(why) => return outcome(false, why),
    };
    let mut crowd = Vec::new();
    let (mut full, mut limited) = (0, 0);
    for _ in 0..spectators {
        let Some(mut ws) = client::connect(crowd_from, &id).await else {
            limited += 1;
            continue;
        };
        client::send(&mut ws, &json!({"type": "hello", "protocol": 2})).await;
        match client::next(&mut ws, Duration::from_secs(5)).await {
            Next::Message(m) if m["type"] == "snapshot" => crowd.push(ws),
            Next::Message(m) if m["code"] == "full" => full += 1,
            _ => limited += 1,
        }
    }
    let mut seated = 0;
    for token in &tokens {
        if let Some(mut ws) = client::connect(who, &id).await {
            client::send(
                &mut ws,
                &json!({"type": "hello", "protocol": 2, "token": token}),
            )
            .await;
            if let Next::Message(m) = client::next(&mut ws, Duration::from_secs(5)).await
                && m["you"]["role"] == "player"
            {
                seated += 1;
            }
        }
    }
    outcome(
        seated == 4,
        format!(
            "{} spectators in ({full} refused as full, {limited} over their address's budget); {seated} of 4 players got in",
            crowd.len()
        ),
    )
}

/// Half-sent requests, idle keep-alives and upgrades that never say hello; `/healthz` answers
/// meanwhile, and they are all closed in time.
pub async fn slow_connections(who: As, count: usize) -> Outcome {
    let mut held = Vec::new();
    for i in 0..count {
        let Ok(mut s) = TcpStream::connect(who.addr).await else {
            continue;
        };
        let partial: &[u8] = match i % 3 {
            0 => b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",
            1 => b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
            _ => b"GET /ws/games/00000000-0000-0000-0000-000000000000 HTTP/1.1\r\nHost: x\r\n",
        };
        let _ = s.write_all(partial).await;
        held.push(s);
    }
    let asked = Instant::now();
    let (status, _, body) = client::http(who, "GET", "/healthz", None).await;
    let health = asked.elapsed();
    tokio::time::sleep(Duration::from_secs(15)).await;
    let mut open = 0;
    for s in &mut held {
        let mut buf = [0u8; 512];
        loop {
            match tokio::time::timeout(
                Duration::from_millis(20),
                tokio::io::AsyncReadExt::read(s, &mut buf),
            )
            .await
            {
                Ok(Ok(0)) | Ok(Err(_)) => break,
                Ok(Ok(_)) => continue,
                Err(_) => {
                    open += 1;
                    break;
                }
            }
        }
    }
    outcome(
        status == 200 && body == "ok" && health < Duration::from_secs(2) && open == 0,
        format!(
            "/healthz answered {status} in {:.0} ms beside {} slow connections; {open} still open after 15 s",
            health.as_secs_f64() * 1000.0,
            held.len()
        ),
    )
}

/// A chat flood from one socket, and frame floods (binary, pings).
pub async fn floods(who: As) -> Outcome {
    let (id, tokens, _) = match players::long_game(who, 4).await {
        Ok(game) => game,
        Err(why) => return outcome(false, why),
    };
    let Some(mut ws) = client::connect(who, &id).await else {
        return outcome(false, "no socket");
    };
    client::send(
        &mut ws,
        &json!({"type": "hello", "protocol": 2, "token": tokens[0]}),
    )
    .await;
    client::until(&mut ws, "snapshot", Duration::from_secs(5)).await;
    for i in 0..40 {
        client::send(
            &mut ws,
            &json!({"type": "chat", "ack": i + 1, "text": format!("spam {i}")}),
        )
        .await;
    }
    let (mut acked, mut limited) = (0, 0);
    while let Next::Message(m) = client::next(&mut ws, Duration::from_millis(500)).await {
        match (m["type"].as_str(), m["code"].as_str()) {
            (Some("ack"), _) => acked += 1,
            (_, Some("rate_limited")) => limited += 1,
            _ => {}
        }
    }
    let mut closed = 0;
    for frame in [
        tokio_tungstenite::tungstenite::Message::Binary(vec![0u8; 64].into()),
        tokio_tungstenite::tungstenite::Message::Ping(vec![1u8].into()),
    ] {
        let Some(mut ws) = client::connect(who, &id).await else {
            continue;
        };
        client::send(&mut ws, &json!({"type": "hello", "protocol": 2})).await;
        for _ in 0..2000 {
            if futures_util::SinkExt::send(&mut ws, frame.clone())
                .await
                .is_err()
            {
                break;
            }
        }
        loop {
            match client::next(&mut ws, Duration::from_secs(5)).await {
                Next::Closed => {
                    closed += 1;
                    break;
                }
                Next::Silent => break,
                Next::Message(_) => continue,
            }
        }
    }
    outcome(
        acked <= 10 && limited >= 30 && closed == 2,
        format!(
            "chat: {acked} of 40 accepted, {limited} rate_limited; {closed} of 2 frame floods closed"
        ),
    )
}

/// Odd methods, lying names and token guessing.
pub async fn strangers(who: As) -> Outcome {
    let mut notes = Vec::new();
    let mut held = true;
    for (method, path) in [("PUT", "/"), ("DELETE", "/api/games"), ("PATCH", "/rules")] {
        let (status, body) = client::json(who, method, path, None).await;
        let json_error = body["error"]["code"].is_string();
        held &= status == 405 && json_error;
        notes.push(format!(
            "{method} {path}: {status}{}",
            if json_error { " json" } else { "" }
        ));
    }
    let (_, created) = client::json(
        who,
        "POST",
        "/api/games",
        Some(&json!({"players": 4, "open": true})),
    )
    .await;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let seats = format!("/api/games/{id}/seats");
    let mut refused = 0;
    for name in ["Red player", "A\u{200B}nn", "\u{202E}nnA", "Bot (hard)"] {
        let (status, _) = client::json(
            who,
            "POST",
            &seats,
            Some(&json!({"name": name, "player": "r"})),
        )
        .await;
        refused += u32::from(status == 400);
    }
    held &= refused == 4;
    notes.push(format!("{refused} of 4 lying names refused"));
    let mut statuses = Vec::new();
    for i in 0..30 {
        let guess = format!("guess{i:027}");
        let (status, _) = client::json(
            who,
            "POST",
            &seats,
            Some(&json!({"name": "Eve", "token": guess})),
        )
        .await;
        statuses.push(status);
    }
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    held &= throttled >= 15;
    notes.push(format!("token guesses: {throttled} of 30 throttled (429)"));
    outcome(held, notes.join("; "))
}

/// Prints a line of the report.
pub fn report(name: &str, outcome: &Outcome, timing: (usize, f64, f64, f64)) -> bool {
    let (moves, p50, p99, max) = timing;
    let verdict = if outcome.held { "HELD  " } else { "FAILED" };
    println!("{verdict} {name}: {}", outcome.detail);
    println!(
        "       players meanwhile: {moves} moves, ack p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms"
    );
    outcome.held
}
