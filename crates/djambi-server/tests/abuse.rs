//! Abuse: chat floods, odd methods, names that lie, token guessing — each refused with its typed
//! error and changing nothing.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};

const SHORT: Duration = Duration::from_millis(300);

/// A socket has a chat budget, and so has the whole table; past them chat is `rate_limited`
/// and nothing is said.
#[tokio::test]
async fn chat_floods_are_limited_per_socket_and_per_game() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.sockets.chat_burst = 3;
        c.sockets.chat_per_minute = 1;
        c.games.game_chat_burst = 5;
        c.games.game_chat_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    let mut codes = Vec::new();
    for i in 0..6 {
        let answer = red
            .command(json!({"type": "chat", "text": format!("spam {i}")}))
            .await;
        codes.push(answer["code"].as_str().unwrap_or("ack").to_string());
    }
    assert_eq!(
        codes,
        [
            "ack",
            "ack",
            "ack",
            "rate_limited",
            "rate_limited",
            "rate_limited"
        ]
    );
    // Blue has its own budget, but the table as a whole has room for 2 more only.
    let mut codes = Vec::new();
    for i in 0..3 {
        let answer = blue
            .command(json!({"type": "whisper", "to": "r", "text": format!("psst {i}")}))
            .await;
        codes.push(answer["code"].as_str().unwrap_or("ack").to_string());
    }
    assert_eq!(codes, ["ack", "ack", "rate_limited"]);
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(
        game["chat"].as_array().unwrap().len(),
        3,
        "public chat kept"
    );
    server.stop().await;
}

/// `chat_since` with a snapshot does not send the chat twice (the snapshot carries it).
#[tokio::test]
async fn chat_since_with_a_snapshot_sends_each_message_once() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    for text in ["one", "two"] {
        assert_eq!(
            red.command(json!({"type": "chat", "text": text})).await["type"],
            "ack"
        );
    }
    let mut ws = Ws::connect(addr, &id).await;
    ws.send(&json!({"type": "hello", "protocol": 2, "chat_since": 0}))
        .await;
    let snapshot = ws.recv_type("snapshot").await;
    assert_eq!(snapshot["game"]["chat"].as_array().unwrap().len(), 2);
    ws.drain(SHORT).await;
    assert!(ws.of_type("chat").is_empty(), "{:?}", ws.of_type("chat"));
    // After a resume, the missed chat comes as chat messages, once.
    let mut ws = Ws::connect(addr, &id).await;
    ws.send(&json!({"type": "hello", "protocol": 2, "since": 0, "chat_since": 1}))
        .await;
    assert_eq!(ws.recv().await["type"], "resume");
    ws.drain(SHORT).await;
    let chats = ws.of_type("chat");
    assert_eq!(chats.len(), 1);
    assert_eq!(chats[0]["text"], "two");
    server.stop().await;
}

/// Methods a route does not have answer the JSON error of PROTOCOL §1, everywhere.
#[tokio::test]
async fn odd_methods_get_the_json_error() {
    let db = TestDb::sqlite();
    let web = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"));
    let server = TestServer::start_with(&db, |c| c.web_dir = Some(web)).await;
    let addr = server.addr;
    let (id, _) = standard_game(addr).await;
    for method in ["PUT", "DELETE", "PATCH", "POST"] {
        for path in [
            "/".to_string(),
            "/rules".into(),
            "/js/app.js".into(),
            format!("/game/{id}"),
            "/api/games/import".into(),
            format!("/api/games/{id}"),
            format!("/api/games/{id}/record"),
            "/healthz".into(),
        ] {
            if method == "POST" && path.starts_with("/api/games/import") {
                continue;
            }
            if method == "DELETE" && path == format!("/api/games/{id}") {
                // The creator's cancel: without the admin token, refused.
                let (status, _) = http(addr, method, &path, None).await;
                assert_eq!(status, 403);
                continue;
            }
            let (status, body) = http(addr, method, &path, None).await;
            let body: Value = serde_json::from_str(&body)
                .unwrap_or_else(|_| panic!("{method} {path}: not JSON: {body:?}"));
            assert_eq!(status, 405, "{method} {path}: {body}");
            assert_eq!(
                body["error"]["code"], "method_not_allowed",
                "{method} {path}"
            );
        }
        let (status, body) = http(addr, method, "/api/nothing/here", None).await;
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("not_found"))
        );
    }
    server.stop().await;
}

fn claim_error(status: u16, body: &Value) -> String {
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "bad_request", "{body}");
    body["error"]["message"].as_str().unwrap().to_string()
}

/// Names are normalised (NFC, trimmed, one space) and refused when they hide characters or
/// pass for a seat, a bot, the server or someone at the table — for players and spectators.
#[tokio::test]
async fn names_that_lie_are_refused() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4, "open": true})).await;
    let id = created["id"].as_str().unwrap();
    let seats = format!("/api/games/{id}/seats");
    for bad in [
        "Red player",
        "blue  PLAYER",
        "Rеd player",
        "Ann\u{200B}",
        "\u{202E}nnA",
        "A\u{0007}",
        "Bot (hard)",
        "spectator",
        "   ",
    ] {
        let (status, body) = post_json(addr, &seats, &json!({"name": bad, "player": "r"})).await;
        claim_error(status, &body);
    }
    let (status, claimed) = post_json(
        addr,
        &seats,
        &json!({"name": "  Rene\u{301}   Lee ", "player": "r"}),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["name"], "René Lee");
    // Another player may not take the same name, in any case or look-alike spelling.
    let (status, body) = post_json(addr, &seats, &json!({"name": "RENE LEE", "player": "b"})).await;
    claim_error(status, &body);
    // Nor may a spectator chat under it, or under a seat's name.
    for name in ["René Lee", "Green Player"] {
        let mut ws = Ws::connect(addr, id).await;
        ws.send(&json!({"type": "hello", "protocol": 2, "name": name}))
            .await;
        let answer = ws.recv().await;
        assert_eq!(answer["code"], "malformed", "{name}: {answer}");
    }
    // Presets at creation are checked the same way.
    let (status, body) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "names": {"r": "Ann", "b": "ann"}}),
    )
    .await;
    claim_error(status, &body);
    server.stop().await;
}

/// Wrong seat tokens count against the address: past its budget, claims and `hello` with a
/// token are refused (429 / `rate_limited`) without even looking at the token — a right one
/// included — and the log never shows a token.
#[tokio::test]
async fn token_guessing_is_throttled() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.bad_token_burst = 3;
        c.budgets.bad_token_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    let id = created["id"].as_str().unwrap();
    let good = created["seats"][0]["token"].as_str().unwrap();
    let seats = format!("/api/games/{id}/seats");
    let check = format!("{seats}/check");
    let mut statuses = Vec::new();
    for i in 0..5 {
        let guess = format!("guess-{i}-aaaaaaaaaaaaaaaaaaaaaaaaaa");
        // An invite's check answers a wrong token with 200 (no seat), but charges it as a
        // claim does: checks and claims share the budget.
        let (status, _) = if i == 1 {
            post_json(addr, &check, &json!({"token": guess})).await
        } else {
            post_json(addr, &seats, &json!({"name": "Eve", "token": guess})).await
        };
        statuses.push(status);
    }
    assert_eq!(statuses, [403, 200, 403, 429, 429]);
    let (status, body) = post_json(addr, &check, &json!({"token": good})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    let (status, body) = post_json(addr, &seats, &json!({"name": "Ann", "token": good})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    let (mut ws, first) = Ws::join(addr, id, Some(good), None).await;
    assert_eq!(first["code"], "rate_limited", "{first}");
    assert!(ws.try_recv(WAIT).await.expect("closed").is_err());
    // Spectators are not affected.
    let (_, first) = Ws::join(addr, id, None, None).await;
    assert_eq!(first["type"], "snapshot");
    server.stop().await;
}

/// A player whose only turn is `pass` passes at once: it is never sent a transient list of
/// legal turns before the pass.
#[tokio::test]
async fn no_transient_pass_list_before_a_forced_pass() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = scripted_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut yellow, _) = Ws::join(addr, &id, Some(&tokens[2]), None).await;
    // Red kills blue's chief; yellow, next, can only pass: the server passes for it.
    assert_eq!(red.play("h8-i9@e7").await["type"], "ack");
    let events = red.events_within(SHORT).await;
    let red_turn = &events[0];
    assert_eq!(red_turn["event"]["to_move"], "y");
    assert!(red_turn["event"].get("legal").is_none(), "{red_turn}");
    let pass = events
        .iter()
        .find(|e| e["event"]["turn"] == "pass")
        .expect("yellow passed");
    assert_eq!(pass["event"]["player"], "y");
    yellow.drain(SHORT).await;
    assert!(
        yellow.of_type("legal").is_empty(),
        "yellow was never to move: {:?}",
        yellow.of_type("legal")
    );
    server.stop().await;
}
