//! Checks on the running server: a move the database refuses, and the /metrics families.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::json;

use crate::Res;
use crate::http::http;
use crate::state::{GameState, Position};
use crate::ws::{Client, Incoming};

/// Sends a turn the database refuses: checks the answer, that nobody got an event, and that
/// /metrics counted the failure.
pub(crate) async fn db_failure(
    url: &str,
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
    marker: &str,
) -> Res<()> {
    let errors_before = db_errors(url).await?;
    let turn = crate::seats::next_turn(clients, position, state).await?;
    let ack = state.ack();
    let mover = clients
        .get_mut(&position.to_move)
        .ok_or_else(|| format!("nobody plays {}", position.to_move))?;
    mover
        .send(&json!({"type": "move", "ack": ack, "turn": turn}))
        .await?;
    let answer = loop {
        let message = mover.recv().await?;
        ensure!(
            message["type"] != "event",
            "an event went out for a failed commit: {message}"
        );
        if message["ack"] == ack {
            break message;
        }
    };
    ensure!(
        answer["type"] == "error" && answer["code"] == "internal" && answer["v"] == state.v,
        "a move the database refused was answered {answer}"
    );
    let text = answer.to_string();
    ensure!(
        !text.contains(marker),
        "the database's error text reached the client: {answer}"
    );
    for client in clients.values_mut() {
        if let Incoming::Message(message) = client.next(Duration::from_millis(500)).await? {
            ensure!(
                message["type"] != "event",
                "{}: an event for a failed commit: {message}",
                client.name
            );
        }
    }
    let errors_after = db_errors(url).await?;
    ensure!(
        errors_after > errors_before,
        "djambi_db_errors_total stayed at {errors_before}"
    );
    println!(
        "a move the database refused: answered {}, no event, djambi_db_errors_total {errors_before} → {errors_after}",
        answer["code"]
    );
    Ok(())
}

async fn db_errors(url: &str) -> Res<u64> {
    let (status, text) = http(url, "GET", "/metrics", None).await?;
    ensure!(status == 200, "/metrics: status {status}");
    let errors =
        sample(&text, "djambi_db_errors_total").ok_or("/metrics has no djambi_db_errors_total")?;
    Ok(errors as u64)
}

/// The value of one sample in Prometheus text.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Checks /metrics while every seat and a spectator are connected.
pub(crate) async fn check_metrics(url: &str, played: usize, rejected: bool, out: &Path) -> Res<()> {
    let (status, text) = http(url, "GET", "/metrics", None).await?;
    ensure!(status == 200, "/metrics: status {status}");
    std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    let get = |series: &str| sample(&text, series).ok_or(format!("/metrics has no {series}"));
    let mut failures = Vec::new();
    let mut check = |what: &str, ok: Res<bool>| match ok {
        Ok(true) => println!("metrics: {what}: ok"),
        Ok(false) => failures.push(format!("{what}: wrong")),
        Err(e) => failures.push(e),
    };
    check("live games ≥ 1", get("djambi_live_games").map(|v| v >= 1.0));
    check(
        "4 player connections",
        get("djambi_connections{role=\"player\"}").map(|v| v == 4.0),
    );
    check(
        "1 spectator connection",
        get("djambi_connections{role=\"spectator\"}").map(|v| v == 1.0),
    );
    check(
        &format!("turns accepted ≥ {played}"),
        get("djambi_turns_total{result=\"accepted\"}").map(|v| v >= played as f64),
    );
    check(
        "turns rejected counted",
        get("djambi_turns_total{result=\"rejected\"}").map(|v| !rejected || v >= 1.0),
    );
    check(
        "commit latency histogram",
        get("djambi_commit_seconds_count").and_then(|count| {
            let inf = get("djambi_commit_seconds_bucket{le=\"+Inf\"}")?;
            get("djambi_commit_seconds_sum")?;
            Ok(count >= played as f64 && inf == count)
        }),
    );
    check(
        "database errors = 0",
        get("djambi_db_errors_total").map(|v| v == 0.0),
    );
    ensure!(failures.is_empty(), "/metrics: {}", failures.join("; "));
    Ok(())
}
