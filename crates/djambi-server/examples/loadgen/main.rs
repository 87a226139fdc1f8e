//! Load generator: many concurrent games played over real WebSockets with random legal turns
//! (from the `legal` lists the server sends the player to move, so no rules engine is needed
//! here). Prints committed moves per second, the latency from sending a move to its ack, the
//! bytes spectators and movers receive, and — for a server running as its own process — the
//! server's CPU time per committed move.
//!
//! ```text
//! cargo run --release -p djambi-server --example loadgen -- --games 100 --turns 40
//! taskset -c 0 target/release/djambi-server --no-address-limits &   # the server on core 0
//! taskset -c 1 target/release/examples/loadgen --url http://127.0.0.1:8080 --server-pid $!
//! ```
//! Without `--url` it starts a server in this process on a temporary SQLite file (or on
//! `--database-url`). It only ever talks to loopback addresses.

mod player;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use player::Stats;

/// Plays many games at once against a Djambi server and measures what a move costs.
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
    /// Most turns each player plays in each game.
    #[arg(long, default_value_t = 40)]
    turns: u64,
    /// Spectators watching each game (they count the bytes of each event).
    #[arg(long, default_value_t = 1)]
    spectators: usize,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The server's process id, to measure its CPU time per committed move.
    #[arg(long)]
    server_pid: Option<u32>,
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
            // Every game and socket comes from this one address.
            config.without_address_limits();
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
        "loadgen: {} games x 4 players (+{} spectators each) over WebSocket against {backend}; at most {} turns per player, {} s",
        args.games, args.spectators, args.turns, args.seconds
    );
    let mut games = Vec::new();
    for _ in 0..args.games {
        games.push(create_game(addr).await);
    }
    let stats = Arc::new(Stats::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut tasks = Vec::new();
    for (id, _) in &games {
        for _ in 0..args.spectators {
            let stats = stats.clone();
            let id = id.clone();
            tasks.push(tokio::spawn(async move {
                player::watch(addr, &id, deadline + Duration::from_secs(1), &stats).await;
            }));
        }
    }
    // Let the spectators connect before the clock starts.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let turns_before = metric(addr, "djambi_turns_total{result=\"accepted\"}").await;
    let cpu_before = args.server_pid.map(cpu_ticks);
    let started = Instant::now();
    let mut players = Vec::new();
    for (g, (id, tokens)) in games.into_iter().enumerate() {
        for (p, token) in tokens.into_iter().enumerate() {
            let stats = stats.clone();
            let id = id.clone();
            let seed = args.seed * 1_000_003 + (g * 4 + p) as u64;
            let turns = args.turns;
            players.push(tokio::spawn(async move {
                player::play(addr, &id, &token, seed, turns, deadline, &stats).await;
            }));
        }
    }
    for task in players {
        task.await.unwrap();
    }
    let took = started.elapsed();
    let cpu_after = args.server_pid.map(cpu_ticks);
    let turns_after = metric(addr, "djambi_turns_total{result=\"accepted\"}").await;
    for task in tasks {
        let _ = task.await;
    }
    report(
        &args,
        &stats,
        took,
        turns_after - turns_before,
        cpu_before,
        cpu_after,
    )
    .await;
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

async fn report(
    args: &Args,
    stats: &Stats,
    took: Duration,
    committed: u64,
    cpu_before: Option<u64>,
    cpu_after: Option<u64>,
) {
    let moves = stats.moves.load(Relaxed);
    let mut lat = stats.latencies.lock().await.clone();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "acked moves: {moves} in {:.2} s = {:.0} moves/s; the server committed {committed} turns (passes included); {} games finished",
        took.as_secs_f64(),
        moves as f64 / took.as_secs_f64(),
        stats.finished.load(Relaxed) / 4,
    );
    println!(
        "move -> ack latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        pct(1.0)
    );
    let events = stats.spectator_events.load(Relaxed).max(1);
    let lists = stats.legal_lists.load(Relaxed).max(1);
    println!(
        "bytes: {:.0} B per event to a spectator ({} events); {:.0} B per legal list to the player to move ({} lists)",
        stats.spectator_bytes.load(Relaxed) as f64 / events as f64,
        stats.spectator_events.load(Relaxed),
        stats.legal_bytes.load(Relaxed) as f64 / lists as f64,
        stats.legal_lists.load(Relaxed),
    );
    if let (Some(before), Some(after), Some(pid)) = (cpu_before, cpu_after, args.server_pid) {
        let ticks = after.saturating_sub(before);
        let micros = ticks as f64 * 1e6 / clock_ticks() as f64;
        println!(
            "server (pid {pid}) CPU: {:.2} s for {committed} committed turns = {:.0} µs per committed move",
            micros / 1e6,
            micros / committed.max(1) as f64
        );
    }
}

/// The process's CPU time (user + system), in clock ticks, from `/proc/<pid>/stat`.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces) are space-separated;
    // utime and stime are the 14th and 15th of the line.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let get = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    get(11) + get(12)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux).
fn clock_ticks() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100)
}

/// A counter of the server's `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, text) = http(addr, "GET", "/metrics", None).await;
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// Creates a 4-player game and claims its seats: (id, tokens).
async fn create_game(addr: SocketAddr) -> (String, Vec<String>) {
    let (status, body) = http(addr, "POST", "/api/games", Some(r#"{"players": 4}"#)).await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        // Names at one table must differ.
        let claim = json!({"name": format!("Load {i}"), "token": token}).to_string();
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
    let raw = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        s = rest[size..].trim_start_matches("\r\n");
    }
    out
}
