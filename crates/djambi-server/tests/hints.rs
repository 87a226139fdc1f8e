//! Hints in games (`POST /api/games/{id}/hint`) against the real app: the seat to move of a
//! game against bots is shown a legal turn; between people only when the creator allowed it;
//! never to another seat, in a game not being played, or with a wrong token; within the
//! address's hint budget.

mod common;

use common::*;
use djambi_core::Position;
use serde_json::{Value, json};

/// A hint asked for game `id` with `token`.
async fn hint(addr: std::net::SocketAddr, id: &str, token: &str) -> (u16, Value) {
    post_json(
        addr,
        &format!("/api/games/{id}/hint"),
        &json!({ "token": token }),
    )
    .await
}

/// A game where red, a person, plays three bots: (id, red's token).
async fn against_bots(addr: std::net::SocketAddr) -> (String, String) {
    let body = json!({"players": 4, "bots": {"b": "easy", "y": "easy", "g": "easy"}});
    let (id, tokens) = game_from(addr, &body).await;
    (id, tokens[0].clone())
}

#[tokio::test]
async fn the_seat_to_move_against_bots_is_shown_a_legal_turn() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, red) = against_bots(addr).await;
    let (status, answer) = hint(addr, &id, &red).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["player"], "r");
    assert!(answer["v"].is_u64(), "{answer}");
    let turn = answer["turn"].as_str().unwrap();
    assert!(Position::new().parse_turn(turn).is_ok(), "{answer}");
    assert_eq!(answer.as_object().unwrap().len(), 3, "{answer}");
    // The game's settings say nothing of hints: they are not on, it is a game against bots.
    let (_, snapshot) = get_json(addr, &format!("/api/games/{id}")).await;
    assert!(snapshot["settings"].get("hints").is_none(), "{snapshot}");
    server.stop().await;
}

#[tokio::test]
async fn between_people_only_when_the_creator_allowed_hints() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (people, tokens) = standard_game(addr).await;
    let (status, body) = hint(addr, &people, &tokens[0]).await;
    assert_api_error(status, &body, 403, "hints_off");
    // Blue is not to move: refused whatever the game allows.
    let (status, body) = hint(addr, &people, &tokens[1]).await;
    assert_api_error(status, &body, 409, "not_your_turn");

    let (allowed, tokens) = game_from(addr, &json!({"players": 4, "hints": true})).await;
    let (_, snapshot) = get_json(addr, &format!("/api/games/{allowed}")).await;
    assert_eq!(snapshot["settings"]["hints"], true, "shown to everyone");
    let (status, answer) = hint(addr, &allowed, &tokens[0]).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["player"], "r");
    let (status, body) = hint(addr, &allowed, &tokens[2]).await;
    assert_api_error(status, &body, 409, "not_your_turn");
    server.stop().await;
}

#[tokio::test]
async fn no_hint_outside_a_live_game_nor_for_a_wrong_token() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Waiting for players: nobody's turn yet.
    let (status, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "bots": {"b": "easy", "y": "easy", "g": "easy"}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let red = created["seats"][0]["token"].as_str().unwrap();
    let (status, body) = hint(addr, id, red).await;
    assert_api_error(status, &body, 409, "not_your_turn");
    // A token of no seat of this game.
    let (status, body) = hint(addr, id, "qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co").await;
    assert_api_error(status, &body, 403, "bad_token");
    // A finished game (imported).
    let record = json!({
        "format": "djambi-game/1", "rules": {}, "start": Position::new().to_dpn(),
        "events": [{"turn": 1, "player": "r", "move": "b7-b5"},
                   {"resign": "b"}, {"resign": "y"}, {"resign": "g"}],
    });
    let (status, created) = post_json(addr, "/api/games/import", &record).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let red = created["seats"][0]["token"].as_str().unwrap();
    let (status, body) = hint(addr, id, red).await;
    assert_api_error(status, &body, 409, "not_your_turn");
    // An unknown game, and a body that is not a token.
    let unknown = uuid::Uuid::new_v4().to_string();
    let (status, body) = hint(addr, &unknown, red).await;
    assert_api_error(status, &body, 404, "not_found");
    let (status, body) = post_json(addr, &format!("/api/games/{id}/hint"), &json!({})).await;
    assert_api_error(status, &body, 400, "bad_request");
    server.stop().await;
}

#[tokio::test]
async fn hints_in_games_spend_the_addresss_hint_budget() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.hint_burst = 1;
        c.budgets.hint_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (id, red) = against_bots(addr).await;
    assert_eq!(hint(addr, &id, &red).await.0, 200);
    let (status, head, body) = http_with(
        addr,
        "POST",
        &format!("/api/games/{id}/hint"),
        Some(&json!({ "token": red }).to_string()),
        "",
    )
    .await;
    assert_rate_limited(status, &head, &body);
    server.stop().await;
}

#[test]
fn golden_files_pin_the_hint_bodies() {
    use djambi_server::protocol::hint::{GameHint, HintRequest};
    use djambi_server::protocol::http::CreateGame;
    let mut failures = Vec::new();
    let request = HintRequest {
        token: "qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co".into(),
    };
    golden::check(
        "http_hint_request",
        serde_json::to_value(&request).unwrap(),
        &mut failures,
    );
    let answer = GameHint {
        turn: "c7-f4".into(),
        player: djambi_core::Army::Red,
        v: 4,
    };
    golden::check(
        "http_hint",
        serde_json::to_value(&answer).unwrap(),
        &mut failures,
    );
    // Hints allowed at creation: the field is sent only when true.
    let create: CreateGame =
        serde_json::from_value(json!({"players": 4, "open": true, "hints": true})).unwrap();
    golden::check(
        "http_create_game_hints",
        serde_json::to_value(&create).unwrap(),
        &mut failures,
    );
    let plain: CreateGame = serde_json::from_value(json!({"players": 4})).unwrap();
    assert!(serde_json::to_value(&plain).unwrap().get("hints").is_none());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
