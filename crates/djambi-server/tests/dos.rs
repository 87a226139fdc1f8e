//! Denial of service: what a stranger's connections, catch-ups and games may cost is bounded.
//! Catch-ups come from memory or are a snapshot (never a rebuild from the database), and each
//! address has a budget of them; each address may create only so many games, and games nobody
//! claims expire; slow, idle and excess connections are closed under timeouts and caps.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SHORT: Duration = Duration::from_millis(300);

/// Waits for the one `legal` message newer than `after` (it goes to the seat to move only):
/// returns that seat, the version and the turns.
async fn next_mover(players: &mut [Ws], after: u64) -> (usize, u64, Vec<String>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        for (seat, player) in players.iter_mut().enumerate() {
            while let Some(Ok(m)) = player.try_recv(Duration::from_millis(5)).await {
                let v = m["v"].as_u64().unwrap_or(0);
                if m["type"] == "legal" && v > after {
                    return (seat, v, expand(&m["turns"]));
                }
            }
        }
        assert!(Instant::now() < deadline, "nobody was sent legal turns");
    }
}

/// Plays `n` turns, each the first legal turn of whoever is to move (`watcher` follows the
/// events); returns the version reached.
async fn play_turns(players: &mut [Ws], watcher: &mut Ws, n: usize) -> u64 {
    let mut v = 0;
    for turn in 0..=n {
        let (seat, at, legal) = next_mover(players, v).await;
        v = at;
        while watcher
            .log
            .last()
            .and_then(|m| m["v"].as_u64())
            .unwrap_or(0)
            < v
        {
            watcher.event().await;
        }
        if turn == n {
            break;
        }
        let answer = players[seat].play(&legal[0]).await;
        assert_eq!(answer["type"], "ack", "{answer}");
    }
    v
}

async fn live_game(addr: SocketAddr) -> (String, Vec<Ws>, Ws, Value) {
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let (watcher, snapshot) = Ws::join(addr, &id, None, None).await;
    (id, players, watcher, snapshot["game"].clone())
}

/// A client far behind gets a snapshot, not hundreds of events rebuilt from the database; a
/// client a little behind gets exactly what it missed, from memory.
#[tokio::test]
async fn a_catch_up_is_memory_or_a_snapshot() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.replay_memory = 8).await;
    let addr = server.addr;
    let (id, mut players, mut watcher, _) = live_game(addr).await;
    let v = play_turns(&mut players, &mut watcher, 20).await;
    assert!(v >= 20);
    let (mut near, first) = Ws::join(addr, &id, None, Some(v - 5)).await;
    assert_eq!(first["type"], "resume", "{first}");
    assert_eq!(near.events_within(SHORT).await.len(), 5);
    let (mut far, first) = Ws::join(addr, &id, None, Some(v - 15)).await;
    assert_eq!(first["type"], "snapshot", "15 behind, a window of 8");
    assert!(far.events_within(SHORT).await.is_empty());
    server.stop().await;
}

/// Each address has a budget of catch-up bytes: past it, its new sockets are told to come
/// back later and closed; another address is not affected.
#[tokio::test]
async fn catch_ups_have_a_budget_per_address() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.catchup_burst_kib = 10;
        c.budgets.catchup_kib_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (id, _) = standard_game(addr).await;
    let mut refused = None;
    for i in 0..20 {
        let (mut ws, first) = Ws::join(addr, &id, None, None).await;
        if first["type"] == "error" {
            assert_eq!(first["code"], "rate_limited", "{first}");
            let closed = ws.try_recv(WAIT).await.expect("closed").unwrap_err();
            assert!(closed.starts_with("1013"), "{closed}");
            refused = Some(i);
            break;
        }
        assert_eq!(first["type"], "snapshot");
    }
    let refused = refused.expect("the budget ran out");
    assert!(refused >= 2, "a few snapshots first ({refused})");
    server.stop().await;
}

/// Past its address's budgets, a spectator is refused — but a seat's holder always gets in.
#[tokio::test]
async fn seats_get_in_past_the_address_budgets() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.ws_connect_burst = 2;
        c.budgets.ws_connect_per_minute = 1;
        c.budgets.catchup_burst_kib = 1;
        c.budgets.catchup_kib_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut refused = 0;
    for _ in 0..4 {
        let (_, first) = Ws::join(addr, &id, None, None).await;
        if first["code"] == "rate_limited" {
            refused += 1;
        }
    }
    assert!(refused >= 2, "spectators refused ({refused})");
    for token in &tokens {
        let (_, first) = Ws::join(addr, &id, Some(token), None).await;
        assert_eq!(first["type"], "snapshot", "{first}");
    }
    server.stop().await;
}

fn api_error(status: u16, body: &Value) -> (u16, &str) {
    (status, body["error"]["code"].as_str().unwrap_or(""))
}

/// One address may create only so many games, at a pace and at once; another address is not
/// affected. Behind a trusted proxy the address is the `X-Forwarded-For` client.
#[tokio::test]
async fn creating_games_has_a_budget_per_address() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
        c.budgets.create_burst = 3;
        c.budgets.create_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let new = json!({"players": 4});
    for _ in 0..3 {
        let (status, body) = post_json_as(addr, "/api/games", &new, "198.51.100.1").await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = post_json_as(addr, "/api/games", &new, "198.51.100.1").await;
    assert_eq!(api_error(status, &body), (429, "rate_limited"), "{body}");
    let header = "X-Forwarded-For: 198.51.100.1\r\n";
    let (status, head, _) =
        http_with(addr, "POST", "/api/games", Some(&new.to_string()), header).await;
    assert_eq!(status, 429);
    assert!(head.to_ascii_lowercase().contains("retry-after:"), "{head}");
    // Imports spend from the same budget.
    let record =
        json!({"format": "djambi-game/1", "rules": {}, "start": SCRIPT_START, "events": []});
    let (status, body) = post_json_as(addr, "/api/games/import", &record, "198.51.100.1").await;
    assert_eq!(api_error(status, &body), (429, "rate_limited"));
    // Someone else creates as usual.
    let (status, body) = post_json_as(addr, "/api/games", &new, "203.0.113.7").await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}

/// Without `--trusted-proxy`, `X-Forwarded-For` is not believed: a client cannot dodge its
/// budget by naming other addresses.
#[tokio::test]
async fn forwarded_for_is_ignored_without_a_trusted_proxy() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.budgets.create_burst = 2).await;
    let addr = server.addr;
    let new = json!({"players": 4});
    for client in ["198.51.100.1", "198.51.100.2"] {
        let (status, _) = post_json_as(addr, "/api/games", &new, client).await;
        assert_eq!(status, 201);
    }
    let (status, body) = post_json_as(addr, "/api/games", &new, "198.51.100.3").await;
    assert_eq!(api_error(status, &body), (429, "rate_limited"));
    server.stop().await;
}

/// One address may keep only so many games waiting for players (and unfinished), so it can
/// never fill the server's cap for everyone.
#[tokio::test]
async fn one_address_cannot_fill_the_server() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
        c.games.max_open_games_per_ip = 2;
        c.games.max_games_per_ip = 3;
        c.games.max_live_games = 5;
    })
    .await;
    let addr = server.addr;
    let a = "198.51.100.1";
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, created) = post_json_as(addr, "/api/games", &json!({"players": 4}), a).await;
        assert_eq!(status, 201);
        ids.push(created);
    }
    let (status, body) = post_json_as(addr, "/api/games", &json!({"players": 4}), a).await;
    assert_eq!(api_error(status, &body), (429, "rate_limited"), "2 waiting");
    // Once a game starts, it no longer waits: one more may be created, up to 3 unfinished.
    let created = &ids[0];
    let id = created["id"].as_str().unwrap();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let claim = json!({"name": NAMES[i], "token": seat["token"]});
        let (status, _) = post_json_as(addr, &format!("/api/games/{id}/seats"), &claim, a).await;
        assert_eq!(status, 200);
    }
    let (status, _) = post_json_as(addr, "/api/games", &json!({"players": 4}), a).await;
    assert_eq!(status, 201);
    let (status, body) = post_json_as(addr, "/api/games", &json!({"players": 4}), a).await;
    assert_eq!(
        api_error(status, &body),
        (429, "rate_limited"),
        "3 unfinished"
    );
    // Others still have room under the server's cap of 5.
    for b in ["203.0.113.1", "203.0.113.2"] {
        let (status, _) = post_json_as(addr, "/api/games", &json!({"players": 4}), b).await;
        assert_eq!(status, 201);
    }
    server.stop().await;
}

/// A game waiting for players that nobody touches expires: everyone watching is told, it is
/// listed as cancelled, and nothing more can happen in it.
#[tokio::test]
async fn games_nobody_claims_expire() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Listed, so that the list of cancelled games shows it.
    let body = json!({"players": 4, "listed": true});
    let (_, created) = post_json(addr, "/api/games", &body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let (live_id, _) = standard_game(addr).await;
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&token), None).await;

    // Not yet old enough: nothing expires.
    let registry = &server.state.registry;
    assert_eq!(registry.expire_open(Duration::from_secs(3600)).await, 0);
    assert_eq!(
        registry.expire_open(Duration::ZERO).await,
        1,
        "the live game stays"
    );
    let event = watcher.event().await;
    assert_eq!(
        event["event"],
        json!({"kind": "cancelled", "reason": "expired"})
    );
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "cancelled");
    let (_, list) = get_json(addr, "/api/games?status=cancelled").await;
    assert_eq!(list["games"][0]["id"], id.as_str());
    assert_error(&red.play("b7-b5").await, "cancelled", 1);
    let (status, body) = post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Ann", "token": token}),
    )
    .await;
    assert_eq!(api_error(status, &body), (409, "no_open_seat"));
    let (_, live) = get_json(addr, &format!("/api/games/{live_id}")).await;
    assert_eq!(live["status"], "live");
    server.stop().await;

    // After a restart the cancelled game is not brought back as a game to play.
    let server = TestServer::start(&db).await;
    let unfinished = server.state.store.unfinished_games().await.unwrap();
    assert_eq!(unfinished, [live_id.parse::<uuid::Uuid>().unwrap()]);
    server.stop().await;
}

/// Opens a connection that sends half a request and then nothing.
async fn slowloris(addr: SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    s
}

/// Whether the server closed the connection (reading gives end of file or an error) within
/// `wait`.
async fn closed_within(s: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(wait, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// Half-sent requests and idle keep-alive connections are closed after the header-read
/// timeout; meanwhile `/healthz` answers.
#[tokio::test]
async fn slow_and_idle_connections_are_closed() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.net.header_read_timeout_secs = 1).await;
    let addr = server.addr;
    let mut slow = Vec::new();
    for _ in 0..200 {
        slow.push(slowloris(addr).await);
    }
    let (status, body) = http(addr, "GET", "/healthz", None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    // An idle keep-alive connection.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    for s in slow.iter_mut().chain(std::iter::once(&mut idle)) {
        assert!(closed_within(s, Duration::from_secs(5)).await, "closed");
    }
    server.stop().await;
}

/// Past the per-address cap, the oldest idle connection makes room (so a thousand idle ones
/// cannot lock out the next request); when every connection is busy, the new one is refused.
#[tokio::test]
async fn connection_caps_make_room_or_refuse() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.net.max_connections_per_ip = 10).await;
    let addr = server.addr;
    let mut slow = Vec::new();
    for _ in 0..30 {
        slow.push(slowloris(addr).await);
    }
    let (status, _) = http(addr, "GET", "/healthz", None).await;
    assert_eq!(status, 200, "an idle connection made room");
    let mut closed = 0;
    for s in &mut slow {
        if closed_within(s, Duration::from_millis(200)).await {
            closed += 1;
        }
    }
    assert!(closed >= 20, "the oldest idle ones were closed ({closed})");
    drop(slow);
    // Ten sockets that joined a game are busy: nothing can be closed for the eleventh.
    let (id, _) = standard_game(addr).await;
    let mut sockets = Vec::new();
    for _ in 0..10 {
        sockets.push(Ws::join(addr, &id, None, None).await.0);
    }
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let _ = extra
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(WAIT, extra.read_to_end(&mut answer)).await;
    assert!(
        answer.is_empty(),
        "refused: {}",
        String::from_utf8_lossy(&answer)
    );
    drop(sockets);
    server.stop().await;
}

/// Binary frames and pings count against a socket's rate limit like text; a socket that keeps
/// flooding is closed.
#[tokio::test]
async fn floods_of_any_frame_close_the_socket() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.sockets.rate_limit = 5).await;
    let addr = server.addr;
    let (id, _) = standard_game(addr).await;
    for flood in [
        Message::Binary(vec![0u8; 16].into()),
        Message::Ping(vec![1].into()),
    ] {
        let url = format!("ws://{addr}/ws/games/{id}");
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        ws.send(Message::Text(r#"{"type":"hello","protocol":2}"#.into()))
            .await
            .unwrap();
        let mut sent = 0;
        for _ in 0..500 {
            if ws.send(flood.clone()).await.is_err() {
                break;
            }
            sent += 1;
        }
        // The server closes it: reading ends with a close frame or an error.
        let ended = tokio::time::timeout(WAIT, async {
            use futures_util::StreamExt;
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Close(frame) = m {
                    return frame.map(|f| u16::from(f.code));
                }
            }
            None
        })
        .await
        .expect("closed in time");
        assert!(
            matches!(ended, Some(1003 | 1008) | None),
            "{flood:?}: {ended:?} after {sent}"
        );
    }
    let (_, metrics) = http(addr, "GET", "/metrics", None).await;
    let floods = metrics
        .lines()
        .find(|l| l.starts_with("djambi_floods_total "))
        .unwrap();
    assert_ne!(floods, "djambi_floods_total 0", "{metrics}");
    server.stop().await;
}
