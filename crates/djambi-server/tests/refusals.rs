//! Every refusal returns its typed error and changes nothing; concurrent commands and claims
//! are decided once; a slow client delays nobody.

mod common;

use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const SHORT: Duration = Duration::from_millis(300);
const START_DPN: &str = "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";

/// The game is still at version 1 (its start) on the start position, and the watcher saw no event.
async fn unchanged(addr: std::net::SocketAddr, id: &str, watcher: &mut Ws) {
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 1, "only the start");
    assert_eq!(game["dpn"], START_DPN);
    assert!(
        watcher
            .events_within(Duration::from_millis(50))
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn every_refusal_is_typed_and_changes_nothing() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;

    // Before hello.
    let mut early = Ws::connect(addr, &id).await;
    early
        .send(&json!({"type": "move", "ack": 1, "turn": "b7-b5"}))
        .await;
    assert_error(&early.reply(1).await, "hello_first", 0);

    // A token of no seat: refused, and the socket closes.
    let (mut bad, first) = Ws::join(addr, &id, Some("not-a-seat-token"), None).await;
    assert_eq!(first["code"], "bad_token", "{first}");
    let closed = bad.try_recv(WAIT).await.expect("closed").unwrap_err();
    assert!(closed.starts_with("1008"), "{closed}");

    // Spectators only chat.
    assert_error(&watcher.play("b7-b5").await, "spectator", 1);
    assert_error(
        &watcher.command(json!({"type": "resign"})).await,
        "spectator",
        1,
    );
    let answer = watcher
        .command(json!({"type": "whisper", "to": "r", "text": "hi"}))
        .await;
    assert_error(&answer, "spectator", 1);

    // Not your turn; illegal with the core's reason and kind.
    assert_error(&blue.play("h7-h5").await, "not_your_turn", 1);
    let answer = red.play("c7-e5").await;
    assert_error(&answer, "illegal", 1);
    assert_eq!(answer["kind"], "maze");
    assert!(
        answer["message"].as_str().unwrap().contains("(R3.5)"),
        "{answer}"
    );
    let answer = red.play("zz-9").await;
    assert_error(&answer, "illegal", 1);
    assert_eq!(answer["kind"], "malformed");

    // Malformed frames, with their ack when it can be read.
    red.send_text("{nonsense").await;
    let answer = red.recv_type("error").await;
    assert_eq!(answer["code"], "malformed");
    assert!(answer.get("ack").is_none());
    red.send_text(r#"{"type": "move", "ack": 41}"#).await;
    assert_error(&red.reply(41).await, "malformed", 1);
    red.send_text(r#"{"type": "teleport", "ack": 42}"#).await;
    assert_error(&red.reply(42).await, "malformed", 1);
    red.send(&json!({"type": "hello", "protocol": 2})).await;
    assert_eq!(red.recv_type("error").await["code"], "malformed");

    // Too large: a frame over 4 KiB, a chat over 500 characters; empty or control text.
    let big = json!({"type": "chat", "ack": 43, "text": "x".repeat(5000)});
    red.send(&big).await;
    let answer = red.recv_type("error").await;
    assert_eq!(answer["code"], "too_large");
    let answer = red
        .command(json!({"type": "chat", "text": "é".repeat(501)}))
        .await;
    assert_error(&answer, "too_large", 1);
    let answer = red.command(json!({"type": "chat", "text": "   "})).await;
    assert_error(&answer, "malformed", 1);
    let answer = red
        .command(json!({"type": "chat", "text": "a\u{0}b"}))
        .await;
    assert_error(&answer, "malformed", 1);

    // Whispers go to another player of the game.
    let answer = red
        .command(json!({"type": "whisper", "to": "r", "text": "me"}))
        .await;
    assert_error(&answer, "not_a_player", 1);

    // Draws need an offer.
    assert_error(
        &red.command(json!({"type": "accept_draw"})).await,
        "no_draw_offer",
        1,
    );
    assert_error(
        &red.command(json!({"type": "decline_draw"})).await,
        "no_draw_offer",
        1,
    );

    unchanged(addr, &id, &mut watcher).await;

    // Once offered, the author cannot agree twice; the last agreement ends the game.
    assert_eq!(red.command(json!({"type": "offer_draw"})).await["v"], 2);
    assert_error(
        &red.command(json!({"type": "offer_draw"})).await,
        "draw_pending",
        2,
    );
    assert_eq!(blue.command(json!({"type": "accept_draw"})).await["v"], 3);
    let (mut yellow, _) = Ws::join(addr, &id, Some(&tokens[2]), None).await;
    let (mut green, _) = Ws::join(addr, &id, Some(&tokens[3]), None).await;
    assert_eq!(yellow.command(json!({"type": "accept_draw"})).await["v"], 4);
    assert_eq!(green.command(json!({"type": "offer_draw"})).await["v"], 5);
    let last = watcher.events_within(SHORT).await.pop().unwrap();
    assert_eq!(last["event"]["kind"], "draw_agreed");
    assert_eq!(
        last["event"]["result"],
        json!({"draw": ["r", "b", "y", "g"]})
    );
    // Over: every game command is refused.
    assert_error(&red.play("b7-b5").await, "game_over", 5);
    assert_error(
        &blue.command(json!({"type": "resign"})).await,
        "game_over",
        5,
    );
    server.stop().await;
}

/// Spectators have their own cap: a game full of spectators still lets its players in.
#[tokio::test]
async fn a_game_waits_for_its_seats_and_spectators_cannot_lock_players_out() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.max_spectators_per_game = 2).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    let id = created["id"].as_str().unwrap();
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_string();
    let (_first, _) = Ws::join(addr, id, None, None).await;
    let (_second, _) = Ws::join(addr, id, None, None).await;
    let (mut third, first) = Ws::join(addr, id, None, None).await;
    assert_eq!(first["code"], "full");
    assert!(third.try_recv(WAIT).await.unwrap().is_err(), "closed");
    // Every seat still gets in.
    let (mut red, snapshot) = Ws::join(addr, id, Some(&token(0)), None).await;
    assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    assert_eq!(snapshot["game"]["status"], "open");
    assert_error(&red.play("b7-b5").await, "not_started", 0);
    for i in 1..4 {
        let (_, snapshot) = Ws::join(addr, id, Some(&token(i)), None).await;
        assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    }
    server.stop().await;
}

#[tokio::test]
async fn flooding_is_rate_limited() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.sockets.rate_limit = 2).await;
    let (id, _) = standard_game(server.addr).await;
    let (mut ws, _) = Ws::join(server.addr, &id, None, None).await;
    for _ in 0..10 {
        ws.send(&json!({"type": "ping"})).await;
    }
    let answers = ws.drain(SHORT).await;
    let limited = answers
        .iter()
        .filter(|m| m["type"] == "error" && m["code"] == "rate_limited")
        .count();
    let pongs = answers.iter().filter(|m| m["type"] == "pong").count();
    assert!(limited >= 5, "{answers:?}");
    assert_eq!(limited + pongs, 10);
    server.stop().await;
}

/// A commit that fails leaves the game as it was: the client gets `internal`, and the same
/// move succeeds once the database works again.
#[tokio::test]
async fn a_failed_commit_changes_nothing() {
    use sqlx::Connection;
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;

    let mut conn = sqlx::SqliteConnection::connect(&db.url()).await.unwrap();
    sqlx::raw_sql("PRAGMA busy_timeout = 5000; ALTER TABLE events RENAME TO events_away")
        .execute(&mut conn)
        .await
        .unwrap();
    assert_error(&red.play("b7-b5").await, "internal", 1);
    unchanged(addr, &id, &mut watcher).await;
    let (_, metrics) = http(addr, "GET", "/metrics", None).await;
    assert!(!metrics.contains("djambi_db_errors_total 0\n"), "{metrics}");

    sqlx::raw_sql("ALTER TABLE events_away RENAME TO events")
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(red.play("b7-b5").await["v"], 2);
    server.stop().await;
}

/// Two seats send a move at the same instant: exactly one is accepted. The same for two
/// connections of one seat sending different moves.
#[tokio::test]
async fn simultaneous_moves_are_decided_once() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut red_too, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    red_too.next_ack = 100;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;

    let (a, b) = tokio::join!(red.play("b7-b5"), red_too.play("a7-a6"));
    let acks = [&a, &b].iter().filter(|m| m["type"] == "ack").count();
    assert_eq!(acks, 1, "{a} {b}");
    let refused = if a["type"] == "ack" { &b } else { &a };
    assert_error(refused, "not_your_turn", 2);

    // Blue's turn now: red and blue at once.
    let (a, b) = tokio::join!(red.play("a7-a6"), blue.play("h7-h5"));
    assert_eq!(a["code"], "not_your_turn", "{a}");
    assert_eq!(b, json!({"type": "ack", "ack": 1, "v": 3}));
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 3);
    server.stop().await;
}

/// Ten claims race for the four seats of an open game: exactly four win, each a different
/// seat.
#[tokio::test]
async fn ten_claims_for_four_seats() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4, "open": true})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let claims: Vec<_> = (0..10)
        .map(|i| {
            let id = id.clone();
            tokio::spawn(async move {
                post_json(
                    addr,
                    &format!("/api/games/{id}/seats"),
                    &json!({"name": format!("Guest {i}")}),
                )
                .await
            })
        })
        .collect();
    let mut won = Vec::new();
    let mut lost = 0;
    for claim in claims {
        let (status, body) = claim.await.unwrap();
        match status {
            200 => won.push(body["player"].as_str().unwrap().to_string()),
            409 => {
                assert_eq!(body["error"]["code"], "no_open_seat", "{body}");
                lost += 1;
            }
            other => panic!("{other}: {body}"),
        }
    }
    won.sort();
    assert_eq!(won, ["b", "g", "r", "y"]);
    assert_eq!(lost, 6);
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "live");
    server.stop().await;
}

/// A spectator that stops reading falls behind; the players are not slowed down, and when it
/// reads again it is resynced with a snapshot.
#[tokio::test]
async fn a_lagging_spectator_gets_a_snapshot_and_delays_nobody() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.games.event_buffer = 16;
        c.sockets.rate_limit = 100_000;
        c.sockets.max_message_bytes = 64 * 1024;
        c.games.max_chat_chars = 60_000;
        // However long the test machine takes, the slow reader must not be dropped as dead.
        c.sockets.write_timeout_secs = 300;
        c.sockets.chat_burst = 1000;
        c.games.game_chat_burst = 1000;
    })
    .await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }

    // The slow spectator: a tiny receive buffer, and it stops reading after its snapshot.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut slow, _) =
        tokio_tungstenite::client_async(format!("ws://{addr}/ws/games/{id}"), stream)
            .await
            .unwrap();
    slow.send(Message::Text(r#"{"type":"hello","protocol":2}"#.into()))
        .await
        .unwrap();
    let first = slow.next().await.unwrap().unwrap();
    assert!(first.to_text().unwrap().contains(r#""type":"snapshot""#));

    // The players talk a lot: 8 MB for everyone, the slow spectator included, more than the
    // kernel buffers between it and the server (4 MB of send buffer at most here).
    let text = "y".repeat(60_000);
    let per_player = 34;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for mut ws in players.drain(..) {
        let text = text.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..per_player {
                let answer = ws.command(json!({"type": "chat", "text": text})).await;
                assert_eq!(answer["type"], "ack");
            }
            // Everyone's messages reach this player, though the spectator does not read.
            while ws.of_type("chat").len() < 4 * per_player {
                ws.recv().await;
            }
            ws
        }));
    }
    for task in tasks {
        players.push(task.await.unwrap());
    }
    // Had the spectator held anyone up, this would never finish: it reads nothing until after.
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(60),
        "players were held up: {took:?}"
    );

    // Now the spectator reads: after what was queued, it is resynced with a snapshot.
    let mut snapshots = 0;
    let mut chats = 0;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(SHORT * 3, slow.next()).await {
        if let Message::Text(text) = message {
            let m: Value = serde_json::from_str(text.as_str()).unwrap();
            match m["type"].as_str() {
                Some("snapshot") => snapshots += 1,
                Some("chat") => chats += 1,
                _ => {}
            }
        }
    }
    assert!(snapshots >= 1, "resynced (chats received: {chats})");
    assert!(chats < 4 * per_player, "it did fall behind");
    let (_, metrics) = http(addr, "GET", "/metrics", None).await;
    assert!(!metrics.contains("djambi_lagged_connections_total 0\n"));
    server.stop().await;
}

/// A client of protocol 1 (its hello names no version, or another one) is told which version
/// this server speaks and closed with 1002, instead of being sent messages it cannot read.
#[tokio::test]
async fn an_old_client_is_told_to_reload() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    for hello in [
        json!({"type": "hello", "token": tokens[0]}),
        json!({"type": "hello", "protocol": 1}),
        json!({"type": "hello", "protocol": 3}),
    ] {
        let mut ws = Ws::connect(addr, &id).await;
        ws.send(&hello).await;
        let answer = ws.recv().await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["code"], "protocol", "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains("protocol 2"),
            "{answer}"
        );
        match ws.try_recv(Duration::from_secs(5)).await {
            Some(Err(close)) => assert!(close.starts_with("1002"), "{close}"),
            other => panic!("not closed: {other:?}"),
        }
    }
    // Nothing changed: the game still waits at its start, and a current client plays.
    let (mut red, snapshot) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    assert_eq!(snapshot["type"], "snapshot");
    assert_eq!(red.my_turn().await.expect("red is to move").0, 1);
    server.stop().await;
}
