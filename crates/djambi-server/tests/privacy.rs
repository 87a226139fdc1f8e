//! Private games stay private (issue 21): an invite-only game is unlisted unless its creator
//! asks, spectators talk in their own room, and the creator may keep the players' chat from
//! spectators.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};

/// How long a message that must not come is waited for.
const QUIET: Duration = Duration::from_millis(600);

fn listed_ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

async fn create(addr: std::net::SocketAddr, body: Value) -> Value {
    let (status, created) = post_json(addr, "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    created
}

/// The chat messages a socket received so far.
fn chats(ws: &Ws) -> Vec<String> {
    ws.of_type("chat")
        .iter()
        .map(|m| m["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn an_invite_only_game_is_unlisted_unless_its_creator_lists_it() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let private = create(addr, json!({"players": 4, "names": {"r": "Hazel"}})).await;
    let open = create(addr, json!({"players": 4, "open": true})).await;
    let shown = create(addr, json!({"players": 4, "listed": true})).await;
    let hidden_open = create(addr, json!({"players": 4, "open": true, "listed": false})).await;
    let id = |g: &Value| g["id"].as_str().unwrap().to_string();

    for query in ["", "?status=open", "?status=all&limit=200"] {
        let (status, list) = get_json(addr, &format!("/api/games{query}")).await;
        assert_eq!(status, 200, "{list}");
        let ids = listed_ids(&list);
        assert!(!ids.contains(&id(&private)), "{query}: {ids:?}");
        assert!(!ids.contains(&id(&hidden_open)), "{query}: {ids:?}");
        assert!(ids.contains(&id(&open)), "{query}: {ids:?}");
        assert!(ids.contains(&id(&shown)), "{query}: {ids:?}");
    }
    // A browser holding the private game's token still finds it.
    let (status, mine) = get_json(addr, &format!("/api/games?ids={}", id(&private))).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(listed_ids(&mine), vec![id(&private)]);
    assert_eq!(mine["games"][0]["listed"], false);
    // And anyone with its spectator link watches it.
    let (mut watcher, snapshot) = Ws::join(addr, &id(&private), None, None).await;
    assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    assert_eq!(snapshot["you"]["role"], "spectator", "{snapshot}");
    watcher.drain(Duration::from_millis(50)).await;
    server.stop().await;
}

#[tokio::test]
async fn a_spectators_message_reaches_a_player_only_once_they_open_the_room() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    let (mut zed, _) = Ws::join(addr, &id, None, None).await;
    let (mut amy, _) = Ws::join(addr, &id, None, None).await;

    // A spectator talks: the other spectator reads it, no player does.
    let said = zed
        .command(json!({"type": "chat", "text": "who wins?"}))
        .await;
    assert_eq!(said["type"], "ack", "{said}");
    amy.drain(QUIET).await;
    red.drain(QUIET).await;
    blue.drain(QUIET).await;
    assert!(chats(&amy).contains(&"who wins?".to_string()));
    assert!(chats(&red).is_empty(), "{:?}", red.of_type("chat"));
    assert!(chats(&blue).is_empty(), "{:?}", blue.of_type("chat"));

    // Red opens the room: the snapshot that answers holds its recent messages, and the next
    // one comes live. Blue, who did not open it, still reads nothing.
    red.send(&json!({"type": "spectator_room", "open": true}))
        .await;
    let snapshot = red.recv_type("snapshot").await;
    let texts: Vec<&str> = snapshot["game"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["who wins?"], "{snapshot}");
    assert!(snapshot["game"]["chat"][0]["from"].is_null());
    let said = amy
        .command(json!({"type": "chat", "text": "red, surely"}))
        .await;
    assert_eq!(said["type"], "ack", "{said}");
    red.drain(QUIET).await;
    blue.drain(QUIET).await;
    assert!(chats(&red).contains(&"red, surely".to_string()));
    assert!(chats(&blue).is_empty(), "{:?}", blue.of_type("chat"));
    // Blue's own snapshots never carry the room either.
    blue.send(&json!({"type": "sync"})).await;
    let snapshot = blue.recv_type("snapshot").await;
    assert_eq!(snapshot["game"]["chat"], json!([]), "{snapshot}");

    // Red closes it again: nothing more reaches it.
    red.send(&json!({"type": "spectator_room", "open": false}))
        .await;
    red.recv_type("snapshot").await;
    let before = chats(&red).len();
    zed.command(json!({"type": "chat", "text": "boring"})).await;
    red.drain(QUIET).await;
    assert_eq!(chats(&red).len(), before, "{:?}", red.of_type("chat"));

    // Players' public chat still reaches spectators (the creator did not say otherwise).
    let said = red
        .command(json!({"type": "chat", "text": "good luck all"}))
        .await;
    assert_eq!(said["type"], "ack", "{said}");
    zed.drain(QUIET).await;
    assert!(chats(&zed).contains(&"good luck all".to_string()));
    server.stop().await;
}

#[tokio::test]
async fn the_creator_may_keep_the_players_chat_from_spectators() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let body =
        json!({"players": 4, "players_chat_public": false, "bots": {"y": "easy", "g": "easy"}});
    let (id, tokens) = game_from(addr, &body).await;
    let (mut red, snapshot) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    assert_eq!(snapshot["game"]["settings"]["players_chat_public"], false);
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    let (mut zed, _) = Ws::join(addr, &id, None, None).await;
    let said = red
        .command(json!({"type": "chat", "text": "our secret plan"}))
        .await;
    assert_eq!(said["type"], "ack", "{said}");
    blue.drain(QUIET).await;
    zed.drain(QUIET).await;
    assert!(chats(&blue).contains(&"our secret plan".to_string()));
    assert!(chats(&zed).is_empty(), "{:?}", zed.of_type("chat"));
    // Nor does a new spectator's snapshot, or the public API, carry it.
    let (_, snapshot) = Ws::join(addr, &id, None, None).await;
    assert_eq!(snapshot["game"]["chat"], json!([]), "{snapshot}");
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert!(!game.to_string().contains("our secret plan"), "{game}");
    server.stop().await;
}
