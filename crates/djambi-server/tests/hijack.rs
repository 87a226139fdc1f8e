//! A seat is controlled only by the current holder of its token: when a seat's token is
//! replaced (a seat of an open game claimed again, which answers with a new token), every
//! socket that joined with the old one loses the seat at once — told why, then closed — and
//! nothing it sends acts for the seat any more.

mod common;

use std::time::Duration;

use common::*;
use djambi_server::game::Viewer;
use djambi_server::table::{Action, Role};
use djambi_server::token::TokenHash;
use serde_json::{Value, json};

const SHORT: Duration = Duration::from_millis(300);

/// An open game whose creator holds every invite token; returns (id, tokens).
async fn open_game(addr: std::net::SocketAddr) -> (String, Vec<String>) {
    let (status, created) =
        post_json(addr, "/api/games", &json!({"players": 4, "open": true})).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    (id, tokens)
}

/// Claims `player`'s seat of an open game without a token (the answer carries a new token).
async fn claim_open(addr: std::net::SocketAddr, id: &str, player: &str, name: &str) -> String {
    let (status, claimed) = post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": name, "player": player}),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    claimed["token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_stale_socket_loses_its_seat_when_the_token_is_replaced() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, invites) = open_game(addr).await;
    // The creator plays red with red's invite and sits on blue with blue's invite.
    let (mut creator_red, _) = Ws::join(addr, &id, Some(&invites[0]), None).await;
    let (mut stale, first) = Ws::join(addr, &id, Some(&invites[1]), None).await;
    assert_eq!(first["you"], json!({"role": "player", "player": "b"}));
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;

    // A stranger claims blue: a new token. The creator's blue socket is told, then closed.
    let bea = claim_open(addr, &id, "b", "Bea").await;
    assert_ne!(bea, invites[1]);
    let told = stale.recv_type("error").await;
    assert_eq!(told["code"], "seat_revoked", "{told}");
    let closed = stale.try_recv(WAIT).await.expect("closed").unwrap_err();
    assert!(closed.starts_with("1008"), "{closed}");

    // The old token no longer opens the seat; the new one does.
    let (_, first) = Ws::join(addr, &id, Some(&invites[1]), None).await;
    assert_eq!(first["code"], "bad_token", "{first}");
    let (mut blue, first) = Ws::join(addr, &id, Some(&bea), None).await;
    assert_eq!(first["you"], json!({"role": "player", "player": "b"}));

    // The rest of the table sits down; the game starts.
    let cid = claim_open(addr, &id, "y", "Cid").await;
    let dee = claim_open(addr, &id, "g", "Dee").await;
    let _ = claim_open(addr, &id, "r", "Ann").await;
    // Red was claimed without a token too: the creator's red socket is gone as well.
    assert_eq!(creator_red.recv_type("error").await["code"], "seat_revoked");
    let (mut yellow, _) = Ws::join(addr, &id, Some(&cid), None).await;
    let (_green, _) = Ws::join(addr, &id, Some(&dee), None).await;
    // A whisper to blue reaches the new holder only.
    let answer = yellow
        .command(json!({"type": "whisper", "to": "b", "text": "psst"}))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    assert_eq!(blue.recv_type("chat").await["text"], "psst");
    let _ = watcher.drain(SHORT).await;
    assert!(watcher.of_type("chat").is_empty(), "not for spectators");
    server.stop().await;
}

/// Commands racing the replacement: whatever the stale socket sends after the claim is refused
/// (`seat_revoked`) or never read (the socket is closed); none of it acts.
#[tokio::test]
async fn nothing_a_stale_socket_sends_acts_for_the_seat() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, invites) = open_game(addr).await;
    let (mut stale, _) = Ws::join(addr, &id, Some(&invites[1]), None).await;
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;
    let bea = claim_open(addr, &id, "b", "Bea").await;
    // Every command a seat has, sent at once after the claim.
    let commands = [
        json!({"type": "chat", "ack": 1, "text": "I am Bea"}),
        json!({"type": "whisper", "ack": 2, "to": "r", "text": "psst"}),
        json!({"type": "offer_draw", "ack": 3}),
        json!({"type": "accept_draw", "ack": 4}),
        json!({"type": "decline_draw", "ack": 5}),
        json!({"type": "resign", "ack": 6}),
        json!({"type": "move", "ack": 7, "turn": "h7-h5"}),
        json!({"type": "sync", "since": 0}),
    ];
    for c in &commands {
        if !stale.try_send(c).await {
            break;
        }
    }
    let mut answers: Vec<Value> = Vec::new();
    while let Some(Ok(m)) = stale.try_recv(WAIT).await {
        answers.push(m);
    }
    assert!(
        answers.iter().all(|m| m["type"] != "ack"),
        "nothing acked: {answers:?}"
    );
    assert!(
        answers
            .iter()
            .any(|m| m["type"] == "error" && m["code"] == "seat_revoked"),
        "{answers:?}"
    );
    // Nothing happened in the game: no chat, no event.
    let seen = watcher.drain(SHORT).await;
    assert!(
        seen.iter()
            .all(|m| m["type"] != "chat" && m["type"] != "event"),
        "{seen:?}"
    );
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 0);
    assert!(game["chat"].as_array().unwrap().is_empty());
    // Whatever the race, the game itself refuses the old token: a command that reaches the
    // actor with it is `seat_revoked`.
    let game = server
        .state
        .registry
        .get(id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    let stale_viewer = Viewer {
        conn: 424_242,
        role: Role::Player(djambi_core::Army::Blue),
        name: "Blue".into(),
        token: Some(TokenHash::of(&invites[1])),
        spectator_room: false,
        address: None,
    };
    for action in [
        Action::Chat("hi".into()),
        Action::Whisper(djambi_core::Army::Red, "psst".into()),
        Action::Resign,
        Action::OfferDraw,
    ] {
        let reply = game.act(stale_viewer.clone(), 99, action).await.unwrap();
        assert!(!reply.accepted);
        assert!(
            reply.text.as_str().contains("seat_revoked"),
            "{}",
            reply.text.as_str()
        );
    }
    // The new holder plays the seat.
    let (mut blue, _) = Ws::join(addr, &id, Some(&bea), None).await;
    let answer = blue.command(json!({"type": "chat", "text": "hello"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    server.stop().await;
}

/// A claim with the invite's own token keeps the token: its sockets keep the seat.
#[tokio::test]
async fn claiming_with_the_invite_keeps_its_sockets() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, invites) = open_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&invites[0]), None).await;
    let (status, _) = post_json(
        addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Ann", "token": invites[0]}),
    )
    .await;
    assert_eq!(status, 200);
    let answer = red
        .command(json!({"type": "chat", "text": "still here"}))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    server.stop().await;
}

/// A seat opened in more windows than allowed: the newest gets in, the oldest is told and
/// closed (seats always get in).
#[tokio::test]
async fn a_seat_opened_too_often_closes_its_oldest_socket() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.max_sockets_per_seat = 2).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut first, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (_second, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut third, snapshot) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    assert_eq!(snapshot["type"], "snapshot");
    assert_eq!(first.recv_type("error").await["code"], "replaced");
    assert!(first.try_recv(WAIT).await.expect("closed").is_err());
    assert_eq!(third.play("b7-b5").await["type"], "ack");
    server.stop().await;
}
