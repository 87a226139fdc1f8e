//! The budget attacks (issue 43, docs/SECURITY.md "One cost model"), from many addresses at
//! once, with an honest client of its own address measured meanwhile: a hint flood, an import
//! flood and a flood of reads that load games.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::attacks::Outcome;
use crate::client::{self, As};

/// `n` attacker addresses (198.18.x.y, a benchmarking block nobody else uses).
fn addresses(n: u32) -> Vec<&'static str> {
    (0..n)
        .map(|i| &*Box::leak(format!("198.18.{}.{}", i / 250, i % 250 + 1).into_boxed_str()))
        .collect()
}

/// The standard start (DPN), from the server.
const START: &str = "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";

/// Counts answers by status.
fn tally(statuses: &[u16]) -> String {
    let mut counts = std::collections::BTreeMap::new();
    for s in statuses {
        *counts.entry(*s).or_insert(0) += 1;
    }
    format!("{counts:?}")
}

/// `addresses` × `each` hints at once (each abandoned after 2 s); an honest hint meanwhile
/// from `honest` must come within `limit`.
pub async fn hint_flood(server: As, honest: As, attackers: u32, each: u32) -> Outcome {
    let body = json!({"position": START}).to_string();
    let mut tasks = Vec::new();
    for ip in addresses(attackers) {
        for _ in 0..each {
            let body = body.clone();
            let who = As { ip, ..server };
            tasks.push(tokio::spawn(async move {
                tokio::time::timeout(
                    Duration::from_secs(2),
                    client::http(who, "POST", "/api/positions/hint", Some(&body)),
                )
                .await
                .map(|(status, _, _)| status)
                .unwrap_or(0)
            }));
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = Instant::now();
    let (status, _, _) = client::http(honest, "POST", "/api/positions/hint", Some(&body)).await;
    let waited = asked.elapsed();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap_or(0));
    }
    Outcome {
        held: status == 200 && waited < Duration::from_secs(5),
        detail: format!(
            "{attackers} addresses x {each} hints: {} (0: gave up after 2 s); the honest hint {status} in {} ms",
            tally(&statuses),
            waited.as_millis()
        ),
    }
}

/// A finished game's record: three resignations from the start (small, so many fit).
fn finished() -> Value {
    json!({"format": "djambi-game/1", "rules": {}, "start": START,
           "events": [{"resign": "y"}, {"resign": "b"}, {"resign": "g"}]})
}

/// Imports from `attackers` addresses, `each` apiece, then one honest import; and reads of the
/// imported games from one reader, then an honest read.
pub async fn import_and_read_flood(server: As, honest: As, attackers: u32, each: u32) -> Outcome {
    let record = finished().to_string();
    let mut statuses = Vec::new();
    let mut ids = Vec::new();
    for ip in addresses(attackers) {
        for _ in 0..each {
            let who = As { ip, ..server };
            let (status, _, body) =
                client::http(who, "POST", "/api/games/import", Some(&record)).await;
            statuses.push(status);
            if let Ok(v) = serde_json::from_str::<Value>(&body)
                && let Some(id) = v["id"].as_str()
            {
                ids.push(id.to_string());
            }
        }
    }
    let (import, _, _) = client::http(honest, "POST", "/api/games/import", Some(&record)).await;
    let reader = As {
        ip: "198.51.100.99",
        ..server
    };
    let mut reads = Vec::new();
    for id in &ids {
        reads.push(
            client::http(reader, "GET", &format!("/api/games/{id}"), None)
                .await
                .0,
        );
    }
    let read = match ids.first() {
        Some(id) => {
            client::http(honest, "GET", &format!("/api/games/{id}"), None)
                .await
                .0
        }
        None => 0,
    };
    Outcome {
        held: import == 201 && read == 200 && statuses.contains(&429) && reads.contains(&429),
        detail: format!(
            "{attackers} addresses x {each} imports: {}; honest import {import}; one reader over {} games: {}; honest read {read}",
            tally(&statuses),
            ids.len(),
            tally(&reads)
        ),
    }
}
