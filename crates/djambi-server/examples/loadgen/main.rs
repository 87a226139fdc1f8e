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
//! `--database-url`). With several URLs (the nodes of a cluster, `--url A,B,C`), each game's
//! seats and spectators are spread over the nodes and the CPU of every `--server-pid` is
//! summed (scripts/bench-cluster.sh). It only ever talks to loopback addresses.

mod bots;
mod player;
mod server;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use clap::Parser;

use player::Stats;
use server::{clock_ticks, cpu_ticks, create_game, http, metric, status_kib};

/// Plays many games at once against a Djambi server and measures what a move costs.
#[derive(Parser, Debug)]
struct Args {
    /// Target server, or the nodes of a cluster, comma-separated (loopback only); default:
    /// start one in this process.
    #[arg(long, value_delimiter = ',')]
    url: Vec<String>,
    /// Database of the in-process server (default: a temporary SQLite file).
    #[arg(long)]
    database_url: Option<String>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Most turns each player plays in each game (a game otherwise ends by the rules; then
    /// its slot starts another).
    #[arg(long, default_value_t = 1000)]
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
    /// The server's process id (or the nodes', comma-separated), to measure the CPU time per
    /// committed move.
    #[arg(long, value_delimiter = ',')]
    server_pid: Vec<u32>,
    /// The NATS server's process id, to report its CPU time per committed move apart.
    #[arg(long)]
    nats_pid: Option<u32>,
    /// The server's database (`sqlite:PATH` or `postgres://…`), to count the committed turns
    /// there rather than from its metrics.
    #[arg(long)]
    count_db: Option<String>,
    /// Games of four bots alone running beside the measured games (each slot starts another
    /// when one ends), to measure people's acks while bots think.
    #[arg(long, default_value_t = 0)]
    bot_games: usize,
    /// The level of those bots.
    #[arg(long, default_value = "hard")]
    bot_level: String,
    /// Their think time, in ms.
    #[arg(long, default_value_t = 1000)]
    bot_movetime: u32,
    /// Spectators on each bot game (0: nobody watches, so bots play without waiting).
    #[arg(long, default_value_t = 0)]
    bot_watchers: usize,
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let mut temp_db = None;
    let (addrs, backend) = match args.url.as_slice() {
        [] => {
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
            (vec![addr], format!("an in-process server on {kind}"))
        }
        urls => {
            let addrs: Vec<SocketAddr> = urls
                .iter()
                .map(|url| {
                    let host = url.trim_start_matches("http://").trim_end_matches('/');
                    let addr: SocketAddr = host.parse().expect("--url http://IP:PORT");
                    assert!(
                        addr.ip().is_loopback(),
                        "loadgen only targets loopback addresses"
                    );
                    addr
                })
                .collect();
            (addrs, format!("the server(s) at {}", urls.join(", ")))
        }
    };
    let addr = addrs[0];
    let nodes = addrs.len();

    println!(
        "loadgen: {} games x 4 players (+{} spectators each) over WebSocket against {backend}; at most {} turns per player, {} s",
        args.games, args.spectators, args.turns, args.seconds
    );
    let stats = Arc::new(Stats::default());
    let turns_before = committed_turns(addr, args.count_db.as_deref()).await;
    let cpu = |pids: &[u32]| pids.iter().map(|pid| cpu_ticks(*pid)).sum::<u64>();
    let cpu_before = (!args.server_pid.is_empty()).then(|| cpu(&args.server_pid));
    let nats_before = args.nats_pid.map(cpu_ticks);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let bot_counts = Arc::new(bots::BotCounts::default());
    let bot_task = (args.bot_games > 0).then(|| {
        let load = bots::BotLoad {
            games: args.bot_games,
            level: args.bot_level.clone(),
            movetime_ms: args.bot_movetime,
            watchers: args.bot_watchers,
        };
        println!(
            "beside them: {} games of four {} bots ({} ms, {} watchers each)",
            load.games, load.level, load.movetime_ms, load.watchers
        );
        tokio::spawn(bots::run(addr, load, deadline, bot_counts.clone()))
    });
    // Each slot keeps one game going: when its game ends, it starts the next one, so the
    // load stays at `games` live games until the deadline.
    let mut slots = Vec::new();
    for slot in 0..args.games {
        let stats = stats.clone();
        let (seed, turns, spectators) = (args.seed, args.turns, args.spectators);
        let addrs = addrs.clone();
        slots.push(tokio::spawn(async move {
            let mut round = 0u64;
            // Over several nodes: the game is made on one, its sockets spread over all.
            let on = |i: usize| addrs[(slot + i) % nodes];
            while Instant::now() < deadline {
                let (id, tokens) = create_game(on(0)).await;
                let mut tasks = Vec::new();
                for s in 0..spectators {
                    let (stats, id, addr) = (stats.clone(), id.clone(), on(s + 1));
                    tasks.push(tokio::spawn(async move {
                        player::watch(addr, &id, deadline, &stats).await;
                    }));
                }
                for (p, token) in tokens.into_iter().enumerate() {
                    let (stats, id, addr) = (stats.clone(), id.clone(), on(p));
                    let seed = seed * 1_000_003 + ((slot as u64 * 1_000 + round) * 4 + p as u64);
                    tasks.push(tokio::spawn(async move {
                        player::play(addr, &id, &token, seed, turns, deadline, &stats).await;
                    }));
                }
                // The players come after the spectators in `tasks`.
                for task in tasks.drain(spectators..) {
                    task.await.unwrap();
                }
                // The spectators of a finished game leave with it.
                for task in tasks {
                    task.abort();
                }
                round += 1;
            }
        }));
    }
    for slot in slots {
        slot.await.unwrap();
    }
    let took = started.elapsed();
    if let Some(task) = bot_task {
        let _ = task.await;
        println!(
            "bot games: {} started, {} finished",
            bot_counts.started.load(Relaxed),
            bot_counts.finished.load(Relaxed)
        );
    }
    let cpu_after = (!args.server_pid.is_empty()).then(|| cpu(&args.server_pid));
    let nats_after = args.nats_pid.map(cpu_ticks);
    let turns_after = committed_turns(addr, args.count_db.as_deref()).await;
    let committed = turns_after - turns_before;
    report(&args, &stats, took, committed, cpu_before, cpu_after).await;
    if let (Some(before), Some(after)) = (nats_before, nats_after) {
        let micros = after.saturating_sub(before) as f64 * 1e6 / clock_ticks() as f64;
        println!(
            "NATS server CPU: {:.2} s = {:.0} µs per committed move",
            micros / 1e6,
            micros / committed.max(1) as f64
        );
    }
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
    if let (Some(before), Some(after)) = (cpu_before, cpu_after) {
        let ticks = after.saturating_sub(before);
        let micros = ticks as f64 * 1e6 / clock_ticks() as f64;
        let pids: Vec<String> = args.server_pid.iter().map(u32::to_string).collect();
        println!(
            "server (pid {}) CPU: {:.2} s for {committed} committed turns = {:.0} µs per committed move",
            pids.join("+"),
            micros / 1e6,
            micros / committed.max(1) as f64
        );
        for pid in &args.server_pid {
            println!(
                "server {pid} memory: VmRSS {} KiB, VmHWM {} KiB",
                status_kib(*pid, "VmRSS"),
                status_kib(*pid, "VmHWM")
            );
        }
    }
}

/// Turns committed so far: counted in the database when its URL is given (`--count-db`),
/// else the server's `djambi_turns_total{result="accepted"}`.
async fn committed_turns(addr: SocketAddr, db: Option<&str>) -> u64 {
    let Some(url) = db else {
        return metric(addr, "djambi_turns_total{result=\"accepted\"}").await;
    };
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(url)
        .await
        .expect("connect to --count-db");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE kind = 'turn'")
        .fetch_one(&mut conn)
        .await
        .expect("count the turns");
    n as u64
}
