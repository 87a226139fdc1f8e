//! Bots in games: seats given to bots at creation play by themselves (off the async runtime,
//! through the same actor and commits as people), answer draw offers by their evaluation, and
//! move again after a restart; a game of four bots plays itself to the end.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};

/// Plays `ws`'s seat with the first legal turn each time it is to move, until the game ends or
/// `turns` turns were played by it; returns the last state seen.
async fn play_first_legal(ws: &mut Ws, turns: usize) -> Value {
    for _ in 0..turns {
        let Some((_, legal)) = ws.my_turn().await else {
            break;
        };
        let answer = ws.play(&legal[0]).await;
        assert_eq!(answer["type"], "ack", "{answer}");
    }
    ws.drain(Duration::from_millis(50)).await;
    ws.of_type("event")
        .iter()
        .rev()
        .map(|e| e["event"].clone())
        .find(|e| e.get("dpn").is_some())
        .expect("a state")
}

#[tokio::test]
async fn one_person_against_three_bots() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (status, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "bots": {"b": "easy", "y": "medium", "g": "hard"},
                "bot_movetime_ms": 200, "names": {"r": "Ann"}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    // Bot seats get no invite; the creator gets an admin token.
    let seats = created["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0]["player"], "r");
    assert!(created["admin_token"].as_str().unwrap().len() >= 32);
    let id = created["id"].as_str().unwrap();
    let token = seats[0]["token"].as_str().unwrap();
    let (status, _) = post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"token": token}),
    )
    .await;
    assert_eq!(status, 200);
    let (mut red, snapshot) = Ws::join(addr, id, Some(token), None).await;
    let game = &snapshot["game"];
    assert_eq!(game["status"], "live", "{game}");
    let bots: Vec<&Value> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["bot"])
        .collect();
    assert_eq!(
        bots,
        [
            &Value::Null,
            &json!("easy"),
            &json!("medium"),
            &json!("hard")
        ]
    );
    let state = play_first_legal(&mut red, 3).await;
    // Every bot played after each of red's turns (unless the game ended).
    let turns: Vec<String> = red
        .of_type("event")
        .iter()
        .filter(|e| e["event"]["kind"] == "turn")
        .map(|e| e["event"]["player"].as_str().unwrap().to_string())
        .collect();
    assert!(
        turns.iter().filter(|p| *p != "r").count() >= 6,
        "the bots played: {turns:?}"
    );
    assert!(state["result"].is_null() || turns.len() >= 4);
    server.stop().await;
}

#[tokio::test]
async fn a_game_of_four_bots_plays_itself_to_the_end() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (status, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "bots": {"r": "random", "b": "easy", "y": "medium", "g": "hard"},
                "bot_movetime_ms": 200, "rules": {"turn_limit": 30}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert!(created["seats"].as_array().unwrap().is_empty());
    let id = created["id"].as_str().unwrap();
    let (mut watcher, _) = Ws::join(addr, id, None, None).await;
    let started = Instant::now();
    loop {
        let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
        if !game["result"].is_null() {
            assert_eq!(game["status"], "finished");
            assert!(game["turns"].as_array().unwrap().len() >= 4);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "still playing: {game}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let events = watcher.events_within(Duration::from_millis(300)).await;
    assert!(events.iter().any(|e| !e["event"]["result"].is_null()));
    // The record replays.
    let (status, record) = get_json(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200);
    assert!(record["result"].is_object(), "{record}");
    server.stop().await;
}

/// A game of bots alone gets a turn limit when it has none, so it ends.
#[tokio::test]
async fn bots_alone_always_have_a_turn_limit() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (_, created) = post_json(
        server.addr,
        "/api/games",
        &json!({"players": 3, "bots": {"r": "random", "b": "random", "y": "random"}}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let (_, game) = get_json(server.addr, &format!("/api/games/{id}")).await;
    assert_eq!(
        game["rules"]["turn_limit"],
        djambi_server::game::BOTS_ONLY_TURN_LIMIT
    );
    server.stop().await;
}

#[tokio::test]
async fn bots_answer_a_draw_offer_by_their_evaluation() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "bots": {"b": "medium", "y": "medium", "g": "medium"}}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = created["seats"][0]["token"].as_str().unwrap();
    post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Ann", "token": token}),
    )
    .await;
    let (mut red, _) = Ws::join(addr, id, Some(token), None).await;
    // At the start nobody is losing: the bots decline.
    assert_eq!(
        red.command(json!({"type": "offer_draw"})).await["type"],
        "ack"
    );
    let declined = loop {
        let e = red.event().await;
        if e["event"]["kind"] == "draw_declined" {
            break e;
        }
    };
    assert_ne!(declined["event"]["by"], "r");
    server.stop().await;
}

#[tokio::test]
async fn after_a_restart_the_bot_to_move_moves() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Blue thinks long: the server stops while it is thinking.
    let (_, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "bots": {"b": "hard", "y": "random", "g": "random"},
                "bot_movetime_ms": 5000}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Ann", "token": token}),
    )
    .await;
    let (mut red, _) = Ws::join(addr, &id, Some(&token), None).await;
    assert_eq!(red.play("b7-b5").await["type"], "ack");
    drop(red);
    server.stop().await;

    let server = TestServer::start(&db).await;
    let started = Instant::now();
    loop {
        let (_, game) = get_json(server.addr, &format!("/api/games/{id}")).await;
        let turns = game["turns"].as_array().unwrap();
        if turns.len() >= 2 {
            assert_eq!(turns[1]["player"], "b", "{game}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "blue never moved: {game}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    server.stop().await;
}
