//! Capacity of one server process, measured from outside it (its memory from `/proc`):
//!
//! ```text
//! capacity --server-pid PID idle --sockets 10000          # server memory per idle socket
//! capacity --server-pid PID fanout --spectators 5000      # a move's event to the last spectator
//! capacity --server-pid PID games --games 1000 --turns 8  # server memory per live game
//! ```
//! Run against a release server whose per-address budgets are lifted (every socket comes from
//! 127.0.0.1): `scripts/bench-capacity.sh` does it all. Loopback only; it stops by itself.

// Shared with the loadgen; not every helper is used here.
#[path = "../loadgen/server.rs"]
#[allow(dead_code)]
mod server;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use djambi_server::protocol::expand_legal;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use server::{create_game, status_kib};

/// Measures what idle sockets, spectators and live games cost one server.
#[derive(Parser, Debug)]
struct Args {
    /// Target server (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:18080")]
    url: String,
    /// The server's process id (its memory is read from /proc).
    #[arg(long)]
    server_pid: u32,
    #[command(subcommand)]
    scenario: Scenario,
}

#[derive(Subcommand, Debug)]
enum Scenario {
    /// Spectator sockets that said hello and then wait: server memory per socket.
    Idle {
        #[arg(long, default_value_t = 10_000)]
        sockets: usize,
        /// Spectators per game (the server's per-game cap must allow it).
        #[arg(long, default_value_t = 500)]
        per_game: usize,
    },
    /// One game watched by many spectators: the time from a move to each spectator's copy of
    /// its event, and to the last one.
    Fanout {
        #[arg(long, default_value_t = 5_000)]
        spectators: usize,
        #[arg(long, default_value_t = 100)]
        moves: u64,
        /// Time between moves, ms.
        #[arg(long, default_value_t = 100)]
        pace_ms: u64,
    },
    /// Live games with their four players connected: server memory per game.
    Games {
        #[arg(long, default_value_t = 1_000)]
        games: usize,
        /// Turns played in each game before measuring.
        #[arg(long, default_value_t = 8)]
        turns: u64,
    },
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket on a game that said hello (with a seat's token, or as a spectator) and read the
/// snapshot.
async fn join(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws/games/{id}"),
        Some(config),
        false,
    )
    .await
    .expect("connect");
    let hello = match token {
        Some(t) => format!(r#"{{"type":"hello","protocol":2,"token":"{t}"}}"#),
        None => r#"{"type":"hello","protocol":2}"#.to_string(),
    };
    ws.send(Message::Text(hello.into())).await.expect("hello");
    while let Some(Ok(m)) = ws.next().await {
        if let Message::Text(t) = m
            && t.as_str().starts_with(r#"{"type":"snapshot""#)
        {
            break;
        }
    }
    ws
}

/// Keeps a socket read (answering pings) until `until`.
fn idle(mut ws: Ws, until: Instant) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let left = until.saturating_duration_since(Instant::now());
        let _ = tokio::time::timeout(left, async { while ws.next().await.is_some() {} }).await;
    })
}

/// The version of a message (`"v":N` near its start), without parsing the rest.
fn version(text: &str) -> Option<u64> {
    let rest = &text[text.find(r#""v":"#)? + 4..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0.0)
}

async fn idle_sockets(addr: SocketAddr, pid: u32, sockets: usize, per_game: usize) {
    let games = sockets.div_ceil(per_game);
    let mut ids = Vec::new();
    for _ in 0..games {
        ids.push(create_game(addr).await.0);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = status_kib(pid, "VmRSS");
    let until = Instant::now() + Duration::from_secs(120);
    let mut tasks = Vec::new();
    for i in 0..sockets {
        let ws = join(addr, &ids[i / per_game], None).await;
        tasks.push(idle(ws, until));
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = status_kib(pid, "VmRSS");
    println!(
        "idle: {sockets} spectator sockets on {games} games: server RSS {before} KiB -> {after} KiB = {:.1} KiB per socket",
        (after.saturating_sub(before)) as f64 / sockets as f64
    );
    for t in tasks {
        t.abort();
    }
}

async fn fanout(addr: SocketAddr, pid: u32, spectators: usize, moves: u64, pace: Duration) {
    let (id, tokens) = create_game(addr).await;
    // The spectators listen until the players are done (and a second more).
    let done = Arc::new(tokio::sync::Notify::new());
    // Every spectator notes when each event reached it.
    let seen: Arc<Mutex<Vec<(u64, Instant)>>> = Arc::default();
    let mut watchers = Vec::new();
    for _ in 0..spectators {
        let mut ws = join(addr, &id, None).await;
        let (seen, done) = (seen.clone(), done.clone());
        watchers.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            let listen = async {
                while let Some(Ok(m)) = ws.next().await {
                    if let Message::Text(t) = m
                        && t.as_str().starts_with(r#"{"type":"event""#)
                        && let Some(v) = version(t.as_str())
                    {
                        mine.push((v, Instant::now()));
                    }
                }
            };
            tokio::select! {
                () = listen => {}
                () = done.notified() => {}
            }
            seen.lock().await.extend(mine);
        }));
    }
    println!(
        "fanout: {spectators} spectators connected; server RSS {} KiB",
        status_kib(pid, "VmRSS")
    );
    // The players: whoever is sent its legal turns plays the first one, at the given pace, and
    // notes when it sent the move that makes the next version.
    let sent: Arc<Mutex<HashMap<u64, Instant>>> = Arc::default();
    let played = Arc::new(AtomicU64::new(0));
    let mut players = Vec::new();
    for token in tokens {
        let mut ws = join(addr, &id, Some(&token)).await;
        let (sent, played) = (sent.clone(), played.clone());
        players.push(tokio::spawn(async move {
            let mut ack = 1;
            while played.load(Relaxed) < moves {
                let Ok(Some(Ok(Message::Text(t)))) =
                    tokio::time::timeout(Duration::from_secs(5), ws.next()).await
                else {
                    if played.load(Relaxed) >= moves {
                        break;
                    }
                    continue;
                };
                if !t.as_str().starts_with(r#"{"type":"legal""#) {
                    if t.as_str().contains(r#""result":"#) {
                        break;
                    }
                    continue;
                }
                let m: Value = serde_json::from_str(t.as_str()).expect("JSON");
                let v = m["v"].as_u64().unwrap_or(0);
                let Some(turn) = expand_legal(&m["turns"]).into_iter().next() else {
                    continue;
                };
                tokio::time::sleep(pace).await;
                sent.lock().await.insert(v + 1, Instant::now());
                let text = format!(r#"{{"type":"move","ack":{ack},"turn":"{turn}"}}"#);
                ack += 1;
                if ws.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
                played.fetch_add(1, Relaxed);
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }));
    }
    for p in players {
        let _ = p.await;
    }
    done.notify_waiters();
    for w in watchers {
        let _ = w.await;
    }
    let sent = sent.lock().await;
    let seen = seen.lock().await;
    let mut each = Vec::new();
    let mut last: HashMap<u64, f64> = HashMap::new();
    for (v, at) in seen.iter() {
        if let Some(t0) = sent.get(v) {
            let ms = at.duration_since(*t0).as_secs_f64() * 1000.0;
            each.push(ms);
            let l = last.entry(*v).or_insert(0.0);
            *l = l.max(ms);
        }
    }
    each.sort_by(f64::total_cmp);
    let mut lasts: Vec<f64> = last.into_values().collect();
    lasts.sort_by(f64::total_cmp);
    println!(
        "fanout: {} moves to {spectators} spectators: move -> a spectator's copy p50 {:.1} ms, p99 {:.1} ms; move -> the last spectator's copy p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lasts.len(),
        pct(&each, 0.5),
        pct(&each, 0.99),
        pct(&lasts, 0.5),
        pct(&lasts, 0.99),
        pct(&lasts, 1.0),
    );
}

async fn live_games(addr: SocketAddr, pid: u32, games: usize, turns: u64) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = status_kib(pid, "VmRSS");
    let until = Instant::now() + Duration::from_secs(600);
    let mut keep = Vec::new();
    for _ in 0..games {
        let (id, tokens) = create_game(addr).await;
        let mut seats = Vec::new();
        for t in &tokens {
            seats.push(join(addr, &id, Some(t)).await);
        }
        // Play `turns` turns: the seat sent its legal turns plays the first one.
        let mut played = 0;
        let mut ack = 1;
        'turns: while played < turns {
            for ws in seats.iter_mut() {
                let Ok(Some(Ok(Message::Text(t)))) =
                    tokio::time::timeout(Duration::from_millis(20), ws.next()).await
                else {
                    continue;
                };
                if !t.as_str().starts_with(r#"{"type":"legal""#) {
                    continue;
                }
                let m: Value = serde_json::from_str(t.as_str()).expect("JSON");
                let Some(turn) = expand_legal(&m["turns"]).into_iter().next() else {
                    break 'turns;
                };
                let text = format!(r#"{{"type":"move","ack":{ack},"turn":"{turn}"}}"#);
                ack += 1;
                ws.send(Message::Text(text.into())).await.expect("send");
                played += 1;
            }
        }
        keep.extend(seats.into_iter().map(|ws| idle(ws, until)));
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = status_kib(pid, "VmRSS");
    println!(
        "games: {games} live games, {turns} turns each, four players connected: server RSS {before} KiB -> {after} KiB = {:.1} KiB per game",
        (after.saturating_sub(before)) as f64 / games as f64
    );
    for t in keep {
        t.abort();
    }
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let host = args.url.trim_start_matches("http://").trim_end_matches('/');
    let addr: SocketAddr = host.parse().expect("--url http://IP:PORT");
    assert!(
        addr.ip().is_loopback(),
        "capacity only targets loopback addresses"
    );
    match args.scenario {
        Scenario::Idle { sockets, per_game } => {
            idle_sockets(addr, args.server_pid, sockets, per_game).await
        }
        Scenario::Fanout {
            spectators,
            moves,
            pace_ms,
        } => {
            fanout(
                addr,
                args.server_pid,
                spectators,
                moves,
                Duration::from_millis(pace_ms),
            )
            .await
        }
        Scenario::Games { games, turns } => live_games(addr, args.server_pid, games, turns).await,
    }
}
