//! The friends' table (issue 21), server side: a seat named at creation is kept for whoever
//! has its invite link, even in an open game; a refused takeback is not asked again before the
//! next turn.

mod common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn a_seat_named_at_creation_is_kept_for_its_link_in_an_open_game() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (status, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "open": true, "names": {"r": "Hazel"}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let seats = format!("/api/games/{id}/seats");
    // A stranger asks for Hazel's seat by name: refused, and it says whose it is.
    let (s, refused) = post_json(addr, &seats, &json!({"name": "Eve", "player": "r"})).await;
    assert_api_error(s, &refused, 409, "seat_taken");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("kept for Hazel"), "{message}");
    // A stranger asking for any free seat gets another one.
    let (s, b) = post_json(addr, &seats, &json!({"name": "Eve"})).await;
    assert_eq!((s, &b["player"]), (200, &json!("b")), "{b}");
    // Hazel, with her link, takes hers.
    let token = created["seats"][0]["token"].as_str().unwrap();
    let (s, b) = post_json(addr, &seats, &json!({"token": token})).await;
    assert_eq!(
        (s, &b["player"], &b["name"]),
        (200, &json!("r"), &json!("Hazel")),
        "{b}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_refused_takeback_is_not_asked_again_before_the_next_turn() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let (_, legal) = players[0].my_turn().await.expect("red to move");
    assert_eq!(players[0].play(&legal[0]).await["type"], "ack");
    assert_eq!(
        players[0].command(json!({"type": "takeback"})).await["type"],
        "ack"
    );
    let no = players[1]
        .command(json!({"type": "takeback_answer", "yes": false}))
        .await;
    assert_eq!(no["type"], "ack", "{no}");
    let again = players[0].command(json!({"type": "takeback"})).await;
    assert_eq!(again["type"], "error", "{again}");
    assert_eq!(again["code"], "no_takeback");
    assert!(
        again["message"]
            .as_str()
            .unwrap()
            .contains("one request per turn"),
        "{again}"
    );
    server.stop().await;
}
