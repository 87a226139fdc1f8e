//! Soak: replays the attacks of the hardening issues (and the budget attacks of issue 43: hints,
//! imports, reads, from many addresses) against a running server and prints what
//! held, with what each attack cost four honest players playing meanwhile (their move → ack
//! latency). A self-hoster runs it on the server's machine against the server's local port:
//!
//! ```text
//! cargo run --release -p djambi-server --example soak -- --url http://127.0.0.1:8080
//! ```
//!
//! It only talks to loopback addresses and stops by itself (about two minutes). The attacker
//! and the players say who they are in `X-Forwarded-For` (198.51.100.66 and 192.0.2.10): start
//! the server with `--trusted-proxy 127.0.0.1` so it counts them apart, as on the internet —
//! otherwise they share 127.0.0.1's budgets, and the players suffer the attacker's limits.
//! Exit status 0 when everything held.

mod attacks;
mod budgets;
mod client;
mod players;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use clap::Parser;

/// Replays the hostile-client attacks against a running server and reports what held.
#[derive(Parser, Debug)]
struct Args {
    /// The server (loopback only), e.g. http://127.0.0.1:8080.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Catch-up flood: new connections per second.
    #[arg(long, default_value_t = 75)]
    flood_rate: u32,
    /// Catch-up flood: seconds.
    #[arg(long, default_value_t = 15)]
    flood_seconds: u64,
    /// Slow connections opened at once.
    #[arg(long, default_value_t = 1000)]
    slow: usize,
    /// Spectators crowding one game.
    #[arg(long, default_value_t = 300)]
    spectators: usize,
    /// Games one client tries to create.
    #[arg(long, default_value_t = 2000)]
    creations: u32,
    /// The players' ack p99 that must hold under every attack, in ms.
    #[arg(long, default_value_t = 250.0)]
    p99_ms: f64,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let host = args.url.trim_start_matches("http://").trim_end_matches('/');
    let addr: SocketAddr = host.parse().expect("--url http://IP:PORT");
    assert!(
        addr.ip().is_loopback(),
        "soak only targets loopback addresses"
    );
    let players = client::As {
        addr,
        ip: "192.0.2.10",
    };
    // Each attack comes from its own address, so one attack's spent budgets do not blunt the
    // next.
    let attacker = |ip: &'static str| client::As { addr, ip };
    let (status, _, _) = client::http(players, "GET", "/healthz", None).await;
    assert_eq!(status, 200, "no server at {}", args.url);
    println!("soak: attacks against {} while four players play", args.url);

    let timings = Arc::new(players::Timings::default());
    let background = tokio::spawn(players::play_forever(players, timings.clone()));
    tokio::time::sleep(Duration::from_secs(3)).await;
    let calm = timings.of(0);
    println!(
        "       baseline: {} moves, ack p50 {:.1} ms, p99 {:.1} ms",
        calm.0, calm.1, calm.2
    );

    let mut all_held = true;
    let mut phase = 1;
    timings.phase.store(phase, Relaxed);
    let mut run = async |name: &str, outcome: attacks::Outcome| {
        let timing = timings.of(phase);
        let held = attacks::report(name, &outcome, timing) && timing.2 <= args.p99_ms;
        phase += 1;
        timings.phase.store(phase, Relaxed);
        held
    };
    all_held &= run(
        "stale socket after a new claim",
        attacks::stale_socket(attacker("198.51.100.1")).await,
    )
    .await;
    all_held &= run(
        "catch-up flood",
        attacks::catch_up_flood(
            attacker("198.51.100.2"),
            args.flood_rate,
            args.flood_seconds,
        )
        .await,
    )
    .await;
    all_held &= run(
        "spectators first",
        attacks::spectators_first(players, attacker("198.51.100.3"), args.spectators).await,
    )
    .await;
    all_held &= run(
        "slow and idle connections",
        attacks::slow_connections(attacker("198.51.100.4"), args.slow).await,
    )
    .await;
    all_held &= run(
        "chat and frame floods",
        attacks::floods(attacker("198.51.100.5")).await,
    )
    .await;
    all_held &= run(
        "odd methods, names, token guessing",
        attacks::strangers(attacker("198.51.100.6")).await,
    )
    .await;
    all_held &= run(
        "game creation flood",
        attacks::creation_flood(attacker("198.51.100.7"), args.creations).await,
    )
    .await;
    let honest = attacker("203.0.113.50");
    all_held &= run(
        "hint flood from 100 addresses",
        budgets::hint_flood(attacker("198.18.0.1"), honest, 100, 10).await,
    )
    .await;
    all_held &= run(
        "import and read floods",
        budgets::import_and_read_flood(attacker("198.18.0.1"), honest, 10, 120).await,
    )
    .await;

    timings.stop.store(true, Relaxed);
    background.abort();
    let failures = timings.failures.load(Relaxed);
    println!("players' moves refused or unanswered within 5 s: {failures}");
    if all_held && failures == 0 {
        println!("soak: everything held");
        std::process::ExitCode::SUCCESS
    } else {
        println!("soak: something did not hold (see above)");
        std::process::ExitCode::FAILURE
    }
}
