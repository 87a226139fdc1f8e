//! Games of bots alone running beside the measured games (`--bot-games`): each slot keeps one
//! game of four bots going until the deadline, watched by `--bot-watchers` spectators (none:
//! the bots play as fast as the server's bot threads let them, the heaviest case), so the
//! people's ack latency can be measured while bots think.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::player::{self, Stats};
use crate::server::http;

/// How the bot games are made.
#[derive(Clone, Debug)]
pub struct BotLoad {
    /// Games of bots at once.
    pub games: usize,
    /// The bots' level.
    pub level: String,
    /// Their think time (ms).
    pub movetime_ms: u32,
    /// Spectators per bot game.
    pub watchers: usize,
}

/// What the bot games did.
#[derive(Debug, Default)]
pub struct BotCounts {
    /// Bot games started.
    pub started: AtomicU64,
    /// Bot games that ended before the deadline.
    pub finished: AtomicU64,
}

/// Runs the bot games until `deadline`.
pub async fn run(addr: SocketAddr, load: BotLoad, deadline: Instant, counts: Arc<BotCounts>) {
    let mut slots = Vec::new();
    for _ in 0..load.games {
        let (load, counts) = (load.clone(), counts.clone());
        slots.push(tokio::spawn(async move {
            // The watchers' bytes are not the measured games' bytes.
            let stats = Arc::new(Stats::default());
            while Instant::now() < deadline {
                let level = json!(load.level);
                let body = json!({"players": 4, "bot_movetime_ms": load.movetime_ms,
                    "bots": {"r": level, "b": level, "y": level, "g": level}});
                let (status, text) =
                    http(addr, "POST", "/api/games", Some(&body.to_string())).await;
                assert_eq!(status, 201, "a game of bots: {text}");
                let created: Value = serde_json::from_str(&text).unwrap();
                let id = created["id"].as_str().unwrap().to_string();
                counts.started.fetch_add(1, Relaxed);
                let watchers: Vec<_> = (0..load.watchers)
                    .map(|_| {
                        let (id, stats) = (id.clone(), stats.clone());
                        tokio::spawn(
                            async move { player::watch(addr, &id, deadline, &stats).await },
                        )
                    })
                    .collect();
                while Instant::now() < deadline {
                    // Seldom: the measured games' latency is what counts here.
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    let (_, game) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
                    if game.contains(r#""status":"finished""#) {
                        counts.finished.fetch_add(1, Relaxed);
                        break;
                    }
                }
                for w in watchers {
                    w.abort();
                }
            }
        }));
    }
    for slot in slots {
        let _ = slot.await;
    }
}
