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

/// Reads `ws` until a message of type `ty` comes (or was already read).
async fn until_type(ws: &mut Ws, ty: &str) -> serde_json::Value {
    if let Some(seen) = ws.of_type(ty).pop() {
        return seen;
    }
    ws.recv_type(ty).await
}

#[tokio::test]
async fn after_the_game_a_rematch_seats_the_same_table_rotated() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Ann (red), Bea (blue) and Cid (yellow) against an easy bot (green).
    let body = json!({"players": 4, "bots": {"g": "easy"}, "bot_movetime_ms": 200});
    let (id, tokens) = game_from(addr, &body).await;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let (mut zed, _) = Ws::join(addr, &id, None, None).await;

    // Not before the end.
    let early = seats[0].command(json!({"type": "rematch"})).await;
    assert_eq!(early["code"], "no_rematch", "{early}");
    // The people resign: the bot wins.
    for ws in &mut seats {
        assert_eq!(ws.command(json!({"type": "resign"})).await["type"], "ack");
    }
    // Spectators do not ask.
    let watcher = zed.command(json!({"type": "rematch"})).await;
    assert_eq!(watcher["code"], "spectator", "{watcher}");

    // Bea asks: everyone, the spectator too, hears of it.
    let asked = seats[1].command(json!({"type": "rematch"})).await;
    assert_eq!(asked["type"], "ack", "{asked}");
    let offer = until_type(&mut zed, "rematch").await;
    assert_eq!(offer["by"], "b");
    assert_eq!(
        offer["seats"],
        json!({"r": "b", "b": "y", "y": "g", "g": "r"})
    );
    let new_id = offer["game"].as_str().unwrap().to_string();
    for ws in &mut seats {
        assert_eq!(until_type(ws, "rematch").await["game"], new_id.as_str());
    }
    // Asking again changes nothing; a snapshot carries the offer.
    assert_eq!(
        seats[0].command(json!({"type": "rematch"})).await["type"],
        "ack"
    );
    let (_, snapshot) = Ws::join(addr, &id, None, None).await;
    assert_eq!(snapshot["game"]["rematch"]["game"], new_id.as_str());

    // The new game: the same names one seat on, the bot now red; unlisted like the old one.
    let (_, game) = get_json(addr, &format!("/api/games/{new_id}")).await;
    let names: Vec<_> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["player"].clone(), s["name"].clone(), s["bot"].clone()))
        .collect();
    assert_eq!(
        names,
        [
            (json!("r"), json!(null), json!("easy")),
            (json!("b"), json!("Ann"), json!(null)),
            (json!("y"), json!("Bea"), json!(null)),
            (json!("g"), json!("Cid"), json!(null)),
        ],
        "{game}"
    );
    let (_, list) = get_json(addr, "/api/games").await;
    assert!(!list.to_string().contains(&new_id), "{list}");

    // A stranger cannot take a seat; each person joins with the token of their old seat.
    let claim = format!("/api/games/{new_id}/seats");
    let (s, refused) = post_json(addr, &claim, &json!({"name": "Eve"})).await;
    assert_api_error(s, &refused, 403, "bad_token");
    for (i, token) in tokens.iter().enumerate() {
        let (s, joined) = post_json(addr, &claim, &json!({"token": token})).await;
        assert_eq!(s, 200, "{joined}");
        assert_eq!(joined["player"], ["b", "y", "g"][i], "{joined}");
        assert_eq!(joined["name"], NAMES[i], "{joined}");
    }
    let (_, game) = get_json(addr, &format!("/api/games/{new_id}")).await;
    assert_eq!(game["status"], "live", "{game}");
    server.stop().await;
}
