//! Budgets (docs/SECURITY.md, "One cost model"): each attack of the red-team round on hints,
//! bots, imports, reads, rematches, analyses and draw offers, run against a real server with the
//! attackers spread over distinct addresses (behind a trusted proxy: `X-Forwarded-For`), and an
//! honest client measured meanwhile. The figures are printed (`--nocapture` shows them).
//! The push attacks are in `tests/push.rs`, the push guard's spellings in `src/push/guard.rs`.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use djambi_core::Position;
use serde_json::{Value, json};

/// The tests that measure how long honest work waits run one at a time: libtest runs a file's
/// tests at once, and two floods of the bot threads at once would measure each other.
static TIMED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A server behind a trusted proxy on 127.0.0.1, so `X-Forwarded-For` names the client.
async fn server(db: &TestDb, tweak: impl FnOnce(&mut djambi_server::Config)) -> TestServer {
    TestServer::start_with(db, |c| {
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
        tweak(c);
    })
    .await
}

/// The `X-Forwarded-For` line of client `n` (a distinct public address each).
fn from(n: u32) -> String {
    format!("X-Forwarded-For: 198.18.{}.{}\r\n", n / 250, n % 250 + 1)
}

/// A POST of `body` from client `n`: the status and the body as JSON.
async fn post_from(addr: SocketAddr, n: u32, path: &str, body: &Value) -> (u16, Value) {
    let (status, _, text) = http_with(addr, "POST", path, Some(&body.to_string()), &from(n)).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A GET from client `n`: the status and the body as JSON.
async fn get_from(addr: SocketAddr, n: u32, path: &str) -> (u16, Value) {
    let (status, _, text) = http_with(addr, "GET", path, None, &from(n)).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The record of a finished game: 8 quiet turns from the start, then three resignations.
fn finished_record() -> Value {
    let mut pos = Position::new();
    let mut events = Vec::new();
    for i in 0..8 {
        let turn = pos.legal_turns()[i % 3];
        let player = pos.to_move().unwrap();
        events.push(
            json!({"turn": i + 1, "player": player.char().to_string(), "move": turn.to_string()}),
        );
        pos.play(&turn).unwrap();
    }
    for p in ["b", "y", "g"] {
        events.push(json!({ "resign": p }));
    }
    json!({"format": "djambi-game/1", "rules": {}, "start": Position::new().to_dpn(), "events": events})
}

/// p50 and max of some durations, in ms.
fn spread(mut ms: Vec<u128>) -> (u128, u128) {
    ms.sort();
    (ms[ms.len() / 2], *ms.last().unwrap_or(&0))
}

#[tokio::test]
async fn a_hint_flood_from_a_hundred_addresses_leaves_bots_and_an_honest_hint_served() {
    let _alone = TIMED.lock().await;
    let db = TestDb::sqlite();
    let server = server(&db, |c| c.bots.bot_threads = Some(2)).await;
    let addr = server.addr;
    // An honest game of bots, followed by a spectator: its turns' pace is what people see.
    let (status, created) = post_from(
        addr,
        1000,
        "/api/games",
        &json!({"players": 4, "bots": {"r": "easy", "b": "easy", "y": "easy", "g": "easy"},
                "bot_movetime_ms": 200, "listed": true}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;
    let dpn = Position::new().to_dpn();
    // 100 addresses ask 10 hints each at once, each giving up after 2 s (its connection closed).
    let started = Instant::now();
    let mut attack = Vec::new();
    for n in 0..100u32 {
        for _ in 0..10 {
            let body = json!({"position": dpn});
            attack.push(tokio::spawn(async move {
                tokio::time::timeout(
                    Duration::from_secs(2),
                    post_from(addr, n, "/api/positions/hint", &body),
                )
                .await
                .map(|(status, _)| status)
                .unwrap_or(0)
            }));
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The honest hint, from an address of its own.
    let asked = Instant::now();
    let (status, hint) =
        post_from(addr, 2000, "/api/positions/hint", &json!({"position": dpn})).await;
    let honest_hint = asked.elapsed();
    assert_eq!(status, 200, "{hint}");
    // The bots' turns meanwhile: the gaps between events the spectator saw over 6 s.
    let mut gaps = Vec::new();
    let mut last = Instant::now();
    let until = Instant::now() + Duration::from_secs(6);
    while Instant::now() < until {
        if let Some(Ok(m)) = watcher.try_recv(Duration::from_millis(100)).await
            && m["type"] == "event"
        {
            gaps.push(last.elapsed().as_millis());
            last = Instant::now();
        }
    }
    let mut outcomes = std::collections::BTreeMap::new();
    for task in attack {
        *outcomes.entry(task.await.unwrap()).or_insert(0) += 1;
    }
    let (p50, max) = spread(gaps.clone());
    let counts = server.state.registry.bots().counts();
    println!(
        "hint flood, 100 addresses x 10 hints (2 s each): answers by status {outcomes:?} (0: gave \
         up); honest hint in {} ms; honest bots: {} turns in 6 s, gap p50 {p50} ms, max {max} ms; \
         pool: {} refused (own hint waiting), {} refused or evicted (queue full), {} dropped \
         (requester gone), all in {:.1} s",
        honest_hint.as_millis(),
        gaps.len(),
        counts
            .refused_yours
            .load(std::sync::atomic::Ordering::Relaxed),
        counts
            .refused_busy
            .load(std::sync::atomic::Ordering::Relaxed),
        counts.abandoned.load(std::sync::atomic::Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    assert!(
        honest_hint < Duration::from_secs(5),
        "the honest hint waited {honest_hint:?}"
    );
    assert!(
        gaps.len() >= 5,
        "the honest bots played {} turns in 6 s",
        gaps.len()
    );
    assert!(max < 3000, "an honest bot turn came after {max} ms");
    assert!(
        outcomes.get(&429).copied().unwrap_or(0) >= 800,
        "the flood was not refused: {outcomes:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn ten_addresses_at_their_bot_game_cap_leave_an_honest_game_s_bots_their_pace() {
    let _alone = TIMED.lock().await;
    let db = TestDb::sqlite();
    let server = server(&db, |c| c.bots.bot_threads = Some(2)).await;
    let addr = server.addr;
    let bots = |level: &str, ms: u32| {
        json!({"players": 4, "bots": {"r": level, "b": level, "y": level, "g": level},
               "bot_movetime_ms": ms})
    };
    // Ten addresses, three games of hard bots thinking a second a turn each: 30 games wanting
    // 15 s of the two bot threads every second. Nobody watches them: they play flat out.
    for n in 0..10 {
        for _ in 0..3 {
            let (status, body) = post_from(addr, n, "/api/games", &bots("hard", 1000)).await;
            assert_eq!(status, 201, "{body}");
        }
        let (status, _) = post_from(addr, n, "/api/games", &bots("hard", 1000)).await;
        assert_eq!(status, 429, "the fourth game with bots of one address");
    }
    // The honest game, watched: its bots think 200 ms a turn.
    let (status, created) = post_from(addr, 500, "/api/games", &bots("easy", 200)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;
    let mut gaps = Vec::new();
    let mut last = Instant::now();
    let until = Instant::now() + Duration::from_secs(12);
    while Instant::now() < until {
        if let Some(Ok(m)) = watcher.try_recv(Duration::from_millis(100)).await
            && m["type"] == "event"
        {
            gaps.push(last.elapsed().as_millis());
            last = Instant::now();
        }
    }
    // The first turn may wait for one job of each address served less so far (ten addresses,
    // a second each, two threads: at most five seconds); after that, for at most the one job
    // each thread is running.
    let first = gaps.first().copied().unwrap_or(u128::MAX);
    let (p50, max) = spread(gaps[1..].to_vec());
    println!(
        "bot pool: 10 addresses x 3 games of hard bots (1 s a turn) on 2 threads; the honest \
         game's bots (200 ms a turn): {} turns in 12 s, the first after {first} ms, then gap p50 \
         {p50} ms, max {max} ms ({gaps:?})",
        gaps.len()
    );
    assert!(
        first < 6500,
        "the honest game's first bot turn came after {first} ms"
    );
    assert!(
        gaps.len() >= 5,
        "the honest bots played {} turns in 8 s",
        gaps.len()
    );
    assert!(max < 2500, "an honest bot turn came after {max} ms");
    server.stop().await;
}

#[tokio::test]
async fn every_way_to_a_bot_counts_against_the_creator_of_the_game() {
    let db = TestDb::sqlite();
    let server = server(&db, |c| c.games.max_bot_games_per_ip = 2).await;
    let addr = server.addr;
    let bots = json!({"players": 4, "bots": {"b": "easy", "y": "easy", "g": "easy"}});
    for _ in 0..2 {
        let (status, body) = post_from(addr, 1, "/api/games", &bots).await;
        assert_eq!(status, 201, "{body}");
    }
    // At its cap, the creator makes a game of people...
    let (status, people) = post_from(addr, 1, "/api/games", &json!({"players": 4})).await;
    assert_eq!(status, 201, "{people}");
    let (status, refused) = post_from(addr, 1, "/api/games", &bots).await;
    assert_eq!(status, 429, "{refused}");
    // ... and "give to a bot" sent from another address, with the creator's admin token, is
    // counted against the creator, not the caller.
    let id = people["id"].as_str().unwrap();
    let admin = people["admin_token"].as_str().unwrap();
    let (status, _, body) = http_with(
        addr,
        "POST",
        &format!("/api/games/{id}/seats/r/bot"),
        Some(&json!({"level": "hard"}).to_string()),
        &format!("{}Authorization: Bearer {admin}\r\n", from(2)),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    // An honest address still gets its game with bots.
    let (status, body) = post_from(addr, 3, "/api/games", &bots).await;
    assert_eq!(status, 201, "{body}");
    println!(
        "bot caps: the creator at its cap of 2: a 3rd game with bots 429, give-to-bot from a \
         second address 429; an honest address 201"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_is_a_game_creation_under_the_open_games_cap() {
    let db = TestDb::sqlite();
    // Sockets come from 127.0.0.1 (the test's connections): that is the asking address.
    let server = TestServer::start_with(&db, |c| c.games.max_open_games_per_ip = 5).await;
    let addr = server.addr;
    let mut accepted = 0;
    let mut refused = Vec::new();
    for _ in 0..8 {
        let (status, created) = post_json(addr, "/api/games/import", &finished_record()).await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap();
        let token = created["seats"][0]["token"].as_str().unwrap();
        let (mut ws, first) = Ws::join(addr, id, Some(token), None).await;
        assert_eq!(first["type"], "snapshot", "{first}");
        let answer = ws.command(json!({"type": "rematch"})).await;
        match answer["type"].as_str() {
            Some("ack") => accepted += 1,
            _ => refused.push(answer["code"].as_str().unwrap_or("?").to_string()),
        }
        ws.close().await;
    }
    println!(
        "rematch: 8 asked from one address with a cap of 5 open games: {accepted} made, refused {refused:?}"
    );
    assert_eq!(accepted, 5);
    assert!(refused.iter().all(|c| c == "no_rematch"), "{refused:?}");
    // The rematches count as games waiting for players: the address cannot create a sixth.
    let (status, body) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    assert_eq!(status, 429, "{body}");
    server.stop().await;
}

#[tokio::test]
async fn imports_spend_a_stored_bytes_budget_and_keep_the_house_rules() {
    let db = TestDb::sqlite();
    let server = server(&db, |c| {
        c.budgets.import_burst_kib = 16;
        c.budgets.import_kib_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let record = finished_record();
    let kib = record["events"].as_array().unwrap().len().div_ceil(8);
    let mut made = 0;
    let status = loop {
        let (status, _) = post_from(addr, 1, "/api/games/import", &record).await;
        if status != 201 || made > 100 {
            break status;
        }
        made += 1;
    };
    assert_eq!(status, 429);
    let (status, body) = post_from(addr, 2, "/api/games/import", &record).await;
    assert_eq!(status, 201, "{body}");
    println!(
        "imports: one address stored {made} imports of {kib} KiB each within its 16 KiB, then 429; \
         another address 201"
    );
    // A record that goes on past 500 turns without a kill is refused (a live game is drawn).
    let mut pos = Position::new();
    let mut events = Vec::new();
    let mut i = 0usize;
    while events.len() < 505 {
        let quiet: Vec<_> = pos
            .legal_turns()
            .iter()
            .filter(|t| {
                let mut after = pos;
                after.play(t).is_ok() && after.quiet() > pos.quiet()
            })
            .cloned()
            .collect();
        assert!(
            !quiet.is_empty() && !pos.is_game_over(),
            "no quiet turn at {i}"
        );
        let turn = quiet[(i * 7 + 3) % quiet.len()];
        let player = pos.to_move().unwrap();
        events.push(json!({"turn": events.len() + 1, "player": player.char().to_string(), "move": turn.to_string()}));
        pos.play(&turn).unwrap();
        i += 1;
    }
    let long = json!({"format": "djambi-game/1", "rules": {}, "start": Position::new().to_dpn(), "events": events});
    let (status, body) = post_from(addr, 3, "/api/games/import", &long).await;
    assert_api_error(status, &body, 422, "invalid_record");
    println!(
        "a 505-turn record without a kill: {status} {}",
        body["error"]["message"]
    );
    server.stop().await;
}

#[tokio::test]
async fn reads_that_load_finished_games_have_a_budget_and_a_memory_bound() {
    let db = TestDb::sqlite();
    let server = server(&db, |c| {
        c.budgets.load_burst = 5;
        c.budgets.load_per_minute = 1;
        c.games.max_loaded_finished = 3;
    })
    .await;
    let addr = server.addr;
    let mut ids = Vec::new();
    for _ in 0..12 {
        let (status, created) = post_from(addr, 1, "/api/games/import", &finished_record()).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    let loaded = || server.state.metrics.loaded_games.get();
    let deadline = Instant::now() + Duration::from_secs(5);
    while loaded() > 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(loaded() <= 3, "{} finished games loaded", loaded());
    // One address reads every game: those not in memory spend its budget.
    let mut statuses = Vec::new();
    for id in &ids {
        statuses.push(get_from(addr, 7, &format!("/api/games/{id}")).await.0);
    }
    let ok = statuses.iter().filter(|s| **s == 200).count();
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!((5..=8).contains(&ok), "{statuses:?}");
    // Another address reads one of them.
    let (status, body) = get_from(addr, 8, &format!("/api/games/{}", ids[0])).await;
    assert_eq!(status, 200, "{body}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    println!(
        "reads: 12 finished games, at most 3 in memory; one address read {ok} of them, then 429 \
         ({statuses:?}); another address 200; {} loaded at the end",
        loaded()
    );
    assert!(loaded() <= 4, "{} finished games loaded", loaded());
    server.stop().await;
}

#[tokio::test]
async fn one_address_has_a_share_of_the_analysis_queue() {
    let db = TestDb::sqlite();
    let server = server(&db, |c| c.analysis.analysis_queue = 8).await;
    let addr = server.addr;
    let mut games = Vec::new();
    for _ in 0..4 {
        let (status, created) = post_from(addr, 9, "/api/games/import", &finished_record()).await;
        assert_eq!(status, 201, "{created}");
        games.push(created["id"].as_str().unwrap().to_string());
    }
    // The bot threads busy: the analyses asked wait in the queue.
    let hold = server.hold_bots().await;
    let mut statuses = Vec::new();
    for id in &games[..3] {
        statuses.push(
            get_from(addr, 1, &format!("/api/games/{id}/analysis"))
                .await
                .0,
        );
    }
    // A quarter of 8: two analyses for one address; the third is its own budget's refusal.
    assert_eq!(statuses, [202, 202, 429]);
    let (status, body) = get_from(addr, 2, &format!("/api/games/{}/analysis", games[3])).await;
    assert_eq!(status, 202, "{body}");
    println!(
        "analysis queue of 8: one address started {:?}, an honest address 202",
        statuses
    );
    drop(hold);
    server.stop().await;
}

#[tokio::test]
async fn a_draw_is_offered_at_most_once_per_player_per_turn() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let offer = seats[0].command(json!({"type": "offer_draw"})).await;
    assert_eq!(offer["type"], "ack", "{offer}");
    let decline = seats[1].command(json!({"type": "decline_draw"})).await;
    assert_eq!(decline["type"], "ack", "{decline}");
    let again = seats[0].command(json!({"type": "offer_draw"})).await;
    assert_eq!(again["type"], "error", "{again}");
    assert_eq!(again["code"], "rate_limited", "{again}");
    // Another player may still offer this turn.
    let other = seats[2].command(json!({"type": "offer_draw"})).await;
    assert_eq!(other["type"], "ack", "{other}");
    println!(
        "draw offers: a second offer by the same player in one turn: {}",
        again["message"]
    );
    server.stop().await;
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let db = TestDb::sqlite();
    let web = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"));
    let server = TestServer::start_with(&db, |c| c.web_dir = Some(web)).await;
    for path in [
        "/",
        "/learn",
        "/offline.html",
        "/api/games",
        "/healthz",
        "/api/nope",
    ] {
        let (_, head, _) = http_full(server.addr, "GET", path, None).await;
        let head = head.to_ascii_lowercase();
        for header in [
            "content-security-policy: default-src 'self'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(header), "{path}: no {header}:\n{head}");
        }
        assert!(head.contains("frame-ancestors 'none'"), "{path}: {head}");
    }
    server.stop().await;
}
