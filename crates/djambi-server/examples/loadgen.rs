//! Load generator: many concurrent games played over real WebSockets with random legal turns
//! (taken from the `legal` field the server sends, so no rules engine is needed here). Prints
//! committed moves per second and the latency from sending a move to its ack.
//!
//! ```text
//! cargo run --release -p djambi-server --example loadgen -- --games 100 --turns 40
//! cargo run --release -p djambi-server --example loadgen -- --url http://127.0.0.1:8080
//! cargo run --release -p djambi-server --example loadgen -- --database-url postgres://postgres@127.0.0.1/bench
//! ```
//! Without `--url` it starts a server in this process on a temporary SQLite file (or on
//! `--database-url`). It only ever talks to loopback addresses.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Plays many games at once against a Djambi server and measures committed moves per second.
#[derive(Parser, Debug)]
struct Args {
    /// Target server (loopback only); default: start one in this process.
    #[arg(long)]
    url: Option<String>,
    /// Database of the in-process server (default: a temporary SQLite file).
    #[arg(long)]
    database_url: Option<String>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Most turns played in each game.
    #[arg(long, default_value_t = 40)]
    turns: u64,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    passes: AtomicU64,
    finished: AtomicU64,
    latencies: Mutex<Vec<Duration>>,
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let mut temp_db = None;
    let (addr, backend) = match &args.url {
        Some(url) => {
            let host = url.trim_start_matches("http://").trim_end_matches('/');
            let addr: SocketAddr = host.parse().expect("--url http://IP:PORT");
            assert!(
                addr.ip().is_loopback(),
                "loadgen only targets loopback addresses"
            );
            (addr, format!("the server at {url}"))
        }
        None => {
            let url = match &args.database_url {
                Some(url) => url.clone(),
                None => {
                    let path = std::env::temp_dir()
                        .join(format!("djambi-loadgen-{}.db", uuid::Uuid::new_v4()));
                    temp_db = Some(path.clone());
                    format!("sqlite:{}", path.display())
                }
            };
            let mut config = djambi_server::Config::for_database(&url);
            config.log = "warn".into();
            let state = djambi_server::AppState::new(config)
                .await
                .expect("start the server");
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(djambi_server::serve(
                listener,
                state,
                std::future::pending(),
            ));
            let kind = if url.starts_with("sqlite") {
                "SQLite"
            } else {
                "Postgres"
            };
            (addr, format!("an in-process server on {kind}"))
        }
    };

    println!(
        "loadgen: {} games x 4 players over WebSocket against {backend}; at most {} turns per game, {} s",
        args.games, args.turns, args.seconds
    );
    let mut games = Vec::new();
    for _ in 0..args.games {
        games.push(create_game(addr).await);
    }
    let stats = Arc::new(Stats::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (g, (id, tokens)) in games.into_iter().enumerate() {
        for (p, token) in tokens.into_iter().enumerate() {
            let stats = stats.clone();
            let id = id.clone();
            let seed = args.seed * 1_000_003 + (g * 4 + p) as u64;
            let turns = args.turns;
            tasks.push(tokio::spawn(async move {
                play(addr, &id, &token, seed, turns, deadline, &stats).await;
            }));
        }
    }
    for task in tasks {
        task.await.unwrap();
    }
    let took = started.elapsed();

    let moves = stats.moves.load(Relaxed);
    let mut lat = stats.latencies.lock().await.clone();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "committed moves: {moves} in {:.2} s = {:.0} moves/s (plus {} automatic passes); {} games finished",
        took.as_secs_f64(),
        moves as f64 / took.as_secs_f64(),
        stats.passes.load(Relaxed),
        stats.finished.load(Relaxed) / 4,
    );
    println!(
        "move -> ack latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        pct(1.0)
    );
    let metrics = http(addr, "GET", "/metrics", None).await.1;
    for line in metrics.lines().filter(|l| {
        l.starts_with("djambi_db_transactions_total")
            || l.starts_with("djambi_commit_seconds_count")
    }) {
        println!("server: {line}");
    }
    if let Some(path) = temp_db {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}

/// Creates a 4-player game and claims its seats: (id, tokens).
async fn create_game(addr: SocketAddr) -> (String, Vec<String>) {
    let (status, body) = http(addr, "POST", "/api/games", Some(r#"{"players": 4}"#)).await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for seat in created["seats"].as_array().unwrap() {
        let token = seat["token"].as_str().unwrap().to_string();
        let claim = json!({"name": "bot", "token": token}).to_string();
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/seats"),
            Some(&claim),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        tokens.push(token);
    }
    (id, tokens)
}

/// One player: plays a random legal turn whenever it is to move.
async fn play(
    addr: SocketAddr,
    id: &str,
    token: &str,
    seed: u64,
    max_turns: u64,
    deadline: Instant,
    stats: &Stats,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    // A small read chunk: tungstenite zeroes the whole chunk before each read.
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws/games/{id}"),
        Some(config),
        false,
    )
    .await
    .expect("connect");
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    let mut me = None;
    let mut state = Value::Null;
    let mut pending: Option<(u64, Instant)> = None;
    let mut next_ack = 1;
    let mut latencies = Vec::new();
    loop {
        let timeout = deadline.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(message))) = tokio::time::timeout(timeout, ws.next()).await else {
            break;
        };
        let Message::Text(text) = message else {
            continue;
        };
        let m: Value = serde_json::from_str(text.as_str()).unwrap();
        match m["type"].as_str() {
            Some("snapshot") => {
                me = m["you"]["player"].as_str().map(str::to_string);
                state = m["game"].clone();
            }
            Some("event") => {
                let event = &m["event"];
                if event["turn"] == "pass" && me.as_deref() == event["player"].as_str() {
                    stats.passes.fetch_add(1, Relaxed);
                }
                // Draw messages carry no state; every other event does.
                if event.get("legal").is_some() {
                    state = event.clone();
                }
            }
            Some("ack") => {
                if let Some((_, sent)) = pending.take_if(|(a, _)| m["ack"] == *a) {
                    latencies.push(sent.elapsed());
                    stats.moves.fetch_add(1, Relaxed);
                }
            }
            Some("error") => panic!("refused: {m}"),
            _ => continue,
        }
        if !state["result"].is_null() {
            stats.finished.fetch_add(1, Relaxed);
            break;
        }
        let turn_number = state["dpn"]
            .as_str()
            .and_then(|d| d.rsplit(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        if turn_number > max_turns || Instant::now() >= deadline {
            break;
        }
        // A ruler's bonus turn can come before the ack of its previous move: wait for the ack.
        if state["to_move"].as_str() != me.as_deref() || pending.is_some() {
            continue;
        }
        let legal = state["legal"].as_object().unwrap();
        let keys: Vec<&String> = legal.keys().collect();
        let key = keys[rng.gen_range(0..keys.len())];
        let suffixes = legal[key].as_array().unwrap();
        let suffix = suffixes[rng.gen_range(0..suffixes.len())].as_str().unwrap();
        let turn = if key == "pass" {
            "pass".to_string()
        } else {
            format!("{key}{suffix}")
        };
        let ack = next_ack;
        next_ack += 1;
        let message = json!({"type": "move", "ack": ack, "turn": turn}).to_string();
        ws.send(Message::Text(message.into())).await.unwrap();
        pending = Some((ack, Instant::now()));
    }
    stats.latencies.lock().await.extend(latencies);
    let _ = ws.close(None).await;
}

/// One HTTP/1.1 request over a fresh connection: (status, body).
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, rest.to_string())
}
