//! Nobody blocks a game: the creator's rights before the start (cancel, re-invite, a bot),
//! clocks and deadlines that run out, a restart in the middle of a clocked turn, votes on an
//! absent player, a seat going back to its person, takebacks, and draws that an absent player
//! does not block.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use serde_json::{Value, json};

const SHORT: Duration = Duration::from_millis(300);

/// Creates a game with `body`, claims every seat a person plays: (id, tokens by seat letter,
/// admin token).
async fn game_with(addr: SocketAddr, body: Value) -> (String, Vec<(String, String)>, String) {
    let (status, created) = post_json(addr, "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        let claim = json!({"name": NAMES[i], "token": token});
        let (status, answer) = post_json(addr, &format!("/api/games/{id}/seats"), &claim).await;
        assert_eq!(status, 200, "{answer}");
        tokens.push((seat["player"].as_str().unwrap().to_string(), token));
    }
    (
        id,
        tokens,
        created["admin_token"].as_str().unwrap().to_string(),
    )
}

async fn admin(addr: SocketAddr, method: &str, path: &str, token: &str) -> (u16, Value) {
    let header = format!("Authorization: Bearer {token}\r\n");
    let (status, _, body) = http_with(addr, method, path, None, &header).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The first event of `kind` received so far, or the next one to come.
async fn until_kind(ws: &mut Ws, kind: &str) -> Value {
    if let Some(seen) = ws
        .of_type("event")
        .into_iter()
        .find(|e| e["event"]["kind"] == kind)
    {
        return seen;
    }
    loop {
        let e = ws.event().await;
        if e["event"]["kind"] == kind {
            return e;
        }
    }
}

#[tokio::test]
async fn the_creator_cancels_reinvites_and_seats_a_bot_before_the_start() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin_token = created["admin_token"].as_str().unwrap().to_string();
    let invite = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_string();

    // A wrong admin token, or none, is refused.
    let (status, body) = admin(addr, "DELETE", &format!("/api/games/{id}"), "nope").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("bad_token"))
    );

    // Re-invite blue: the old token's socket loses the seat at once.
    let (mut old_blue, _) = Ws::join(addr, &id, Some(&invite(1)), None).await;
    let path = format!("/api/games/{id}/seats/b/invite");
    let (status, new_invite) = admin(addr, "POST", &path, &admin_token).await;
    assert_eq!(status, 200, "{new_invite}");
    assert_eq!(old_blue.recv_type("error").await["code"], "seat_revoked");
    let new_blue = new_invite["token"].as_str().unwrap();
    assert_ne!(new_blue, invite(1));
    assert!(
        new_invite["invite_url"]
            .as_str()
            .unwrap()
            .ends_with(new_blue)
    );
    let (_, first) = Ws::join(addr, &id, Some(&invite(1)), None).await;
    assert_eq!(first["code"], "bad_token");

    // Green goes to a bot; the others claim: the game starts, and the bot plays green.
    let path = format!("/api/games/{id}/seats/g/bot");
    let header = format!("Authorization: Bearer {admin_token}\r\n");
    let (status, _, _) =
        http_with(addr, "POST", &path, Some(r#"{"level": "easy"}"#), &header).await;
    assert_eq!(status, 200);
    for (token, name) in [
        (invite(0), "Ann"),
        (new_blue.to_string(), "Bea"),
        (invite(2), "Cid"),
    ] {
        let claim = json!({"name": name, "token": token});
        let (status, body) = post_json(addr, &format!("/api/games/{id}/seats"), &claim).await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "live");
    assert_eq!(game["seats"][3]["bot"], "easy");
    // Started: the creator's rights are over.
    let (status, body) = admin(addr, "DELETE", &format!("/api/games/{id}"), &admin_token).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("started"))
    );
    server.stop().await;
}

#[tokio::test]
async fn the_creator_cancels_a_game_that_has_not_started() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    let id = created["id"].as_str().unwrap();
    let admin_token = created["admin_token"].as_str().unwrap();
    let (mut watcher, _) = Ws::join(addr, id, None, None).await;
    let (status, body) = admin(addr, "DELETE", &format!("/api/games/{id}"), admin_token).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("cancelled")));
    let event = watcher.event().await;
    assert_eq!(
        event["event"],
        json!({"kind": "cancelled", "reason": "creator"})
    );
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(
        (game["status"].as_str(), game["cancelled"].as_str()),
        (Some("cancelled"), Some("creator"))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_live_clock_runs_out_and_the_player_resigns() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens, _) = game_with(
        addr,
        json!({"players": 4, "clock": {"initial_s": 2, "increment_s": 0}}),
    )
    .await;
    let (mut red, snapshot) = Ws::join(addr, &id, Some(&tokens[0].1), None).await;
    let clock = &snapshot["game"]["clock"];
    assert_eq!(clock["kind"], "live", "{clock}");
    assert_eq!(clock["running"], "r");
    assert_eq!(snapshot["game"]["settings"]["on_timeout"], "resign");
    // Red does not move: after 2 s, its time is out, and it resigns.
    let timeout = until_kind(&mut red, "timeout").await;
    assert_eq!(timeout["event"]["player"], "r");
    let resign = red.event().await;
    assert_eq!(resign["event"]["kind"], "resign");
    assert_eq!(resign["event"]["player"], "r");
    assert_eq!(resign["event"]["clock"]["running"], "b");
    assert_eq!(resign["event"]["clock"]["remaining_ms"]["r"], 0);
    server.stop().await;
}

#[tokio::test]
async fn a_correspondence_deadline_hands_the_seat_to_a_bot() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.min_turn_deadline_secs = 1).await;
    let addr = server.addr;
    let (id, tokens, _) = game_with(
        addr,
        json!({"players": 4, "clock": {"per_turn_s": 2}, "bot_movetime_ms": 200}),
    )
    .await;
    let (mut blue, snapshot) = Ws::join(addr, &id, Some(&tokens[1].1), None).await;
    assert_eq!(snapshot["game"]["settings"]["on_timeout"], "bot");
    let deadline = snapshot["game"]["clock"]["deadline"].as_i64().unwrap();
    let timeout = until_kind(&mut blue, "timeout").await;
    assert_eq!(timeout["event"]["player"], "r");
    let taken = blue.event().await;
    assert_eq!(taken["event"]["kind"], "seat_to_bot", "{taken}");
    assert_eq!(taken["event"]["reason"], "timeout");
    assert_eq!(taken["event"]["level"], "medium");
    // The bot plays red's turn; blue gets its own deadline.
    let turn = until_kind(&mut blue, "turn").await;
    assert_eq!(turn["event"]["player"], "r");
    assert!(turn["event"]["clock"]["deadline"].as_i64().unwrap() > deadline);
    // Red comes back and takes its seat back.
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0].1), None).await;
    assert_eq!(
        red.command(json!({"type": "chat", "text": "back"})).await["type"],
        "ack"
    );
    let answer = red.command(json!({"type": "reclaim"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let back = until_kind(&mut red, "seat_to_human").await;
    assert_eq!(back["event"]["player"], "r");
    server.stop().await;
}

/// The server is stopped in the middle of red's clocked turn and starts again 3 s later: the
/// downtime is charged to nobody. (Red's first turn is never charged: the stop falls in its
/// second one, after the bots' first turns.)
#[tokio::test]
async fn a_restart_neither_gives_nor_takes_time() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens, _) = game_with(
        addr,
        json!({"players": 4, "clock": {"initial_s": 60, "increment_s": 0},
               "bots": {"b": "easy", "y": "easy", "g": "easy"}, "bot_movetime_ms": 200}),
    )
    .await;
    let (mut red, snapshot) = Ws::join(addr, &id, Some(&tokens[0].1), None).await;
    assert_eq!(snapshot["game"]["clock"]["first_turn"], true);
    assert_eq!(red.play("b7-b5").await["type"], "ack");
    loop {
        let event = red.event().await;
        if event["event"]["kind"] == "turn" && event["event"]["player"] == "g" {
            assert!(
                event["event"]["clock"].get("first_turn").is_none(),
                "{event}"
            );
            break;
        }
    }
    drop(red);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.stop().await;
    tokio::time::sleep(Duration::from_secs(3)).await;

    let server = TestServer::start(&db).await;
    let (mut red, snapshot) = Ws::join(server.addr, &id, Some(&tokens[0].1), None).await;
    let clock = &snapshot["game"]["clock"];
    let now = snapshot["game"]["clock"]["since"].as_i64().unwrap();
    let left =
        clock["remaining_ms"]["r"].as_i64().unwrap() - (now - clock["since"].as_i64().unwrap());
    // About 1.5 s used before the stop; the 3 s of downtime are not charged.
    assert!((57_000..=59_200).contains(&left), "{clock}");
    let paused = red
        .of_type("event")
        .into_iter()
        .chain(red.events_within(SHORT).await)
        .find(|e| e["event"]["kind"] == "paused");
    let (_, game) = get_json(server.addr, &format!("/api/games/{id}/events?since=0")).await;
    let kinds: Vec<&str> = game["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"]["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"paused"), "{kinds:?} {paused:?}");
    server.stop().await;
}

#[tokio::test]
async fn the_others_vote_an_absent_player_out_and_it_takes_its_seat_back() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.absent_grace_secs = 1).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut seats = Vec::new();
    for token in &tokens[1..] {
        seats.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    // Red (to move) never connected: after the grace period blue opens a vote.
    let vote = json!({"type": "vote", "target": "r", "action": "bot", "level": "easy"});
    let early = seats[0].command(vote.clone()).await;
    assert_eq!(early["code"], "no_vote", "{early}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let answer = seats[0].command(vote).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let opened = until_kind(&mut seats[1], "vote_opened").await;
    assert_eq!(opened["event"]["voters"], json!(["b", "y", "g"]));
    // Yellow says yes: 2 of 3, passed; a bot plays red at once.
    let answer = seats[1]
        .command(json!({"type": "vote_answer", "yes": true}))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let closed = until_kind(&mut seats[2], "vote_closed").await;
    assert_eq!(closed["event"]["passed"], true);
    let taken = seats[2].event().await;
    assert_eq!(taken["event"]["kind"], "seat_to_bot");
    assert_eq!(taken["event"]["reason"], "vote");
    let turn = until_kind(&mut seats[2], "turn").await;
    assert_eq!(turn["event"]["player"], "r");
    // Red comes back: its moves are refused while the bot plays; it asks for its seat back.
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let refused = red.play("b7-b5").await;
    assert_eq!(refused["code"], "bot_seat", "{refused}");
    let answer = red.command(json!({"type": "reclaim"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let back = until_kind(&mut seats[0], "seat_to_human").await;
    assert_eq!(back["event"]["player"], "r");
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["seats"][0]["bot"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn a_takeback_needs_every_other_player() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut p = Vec::new();
    for token in &tokens {
        p.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    assert_eq!(p[0].play("b7-b5").await["type"], "ack");
    // Asked, everyone agrees: the turn is taken back, red is to move again.
    assert_eq!(
        p[0].command(json!({"type": "takeback"})).await["type"],
        "ack"
    );
    for ws in &mut p[1..] {
        let answer = ws
            .command(json!({"type": "takeback_answer", "yes": true}))
            .await;
        assert_eq!(answer["type"], "ack", "{answer}");
    }
    let back = until_kind(&mut p[3], "taken_back").await;
    assert_eq!(back["event"]["player"], "r");
    assert_eq!(back["event"]["undone"], json!([2]));
    assert_eq!(back["event"]["to_move"], "r");
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert!(game["turns"].as_array().unwrap().is_empty());
    // The record keeps only the turns that stand.
    let (_, record) = get_json(addr, &format!("/api/games/{id}/record")).await;
    assert!(record["events"].as_array().unwrap().is_empty(), "{record}");
    // Played again, asked again; refused: blue says no.
    assert_eq!(p[0].play("b7-b5").await["type"], "ack");
    assert_eq!(
        p[0].command(json!({"type": "takeback"})).await["type"],
        "ack"
    );
    assert_eq!(
        p[1].command(json!({"type": "takeback_answer", "yes": false}))
            .await["type"],
        "ack"
    );
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(
        (
            game["takeback"].clone(),
            game["turns"].as_array().unwrap().len()
        ),
        (Value::Null, 1),
        "refused: nothing pending, the turn stands"
    );
    // One request per turn: not again before the next turn (issue 21).
    let again = p[0].command(json!({"type": "takeback"})).await;
    assert_eq!(again["code"], "no_takeback", "{again}");
    // Once the next turn is played, there is nothing to take back.
    assert_eq!(p[1].play("h7-h6").await["type"], "ack");
    let late = p[0].command(json!({"type": "takeback"})).await;
    assert_eq!(late["code"], "no_takeback");
    server.stop().await;
}

/// A draw offered and accepted by every connected living player is agreed, without a player
/// away for longer than the grace period.
#[tokio::test]
async fn an_absent_player_does_not_block_a_draw() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.absent_grace_secs = 1).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut p = Vec::new();
    for token in &tokens[..3] {
        p.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        p[0].command(json!({"type": "offer_draw"})).await["type"],
        "ack"
    );
    assert_eq!(
        p[1].command(json!({"type": "accept_draw"})).await["type"],
        "ack"
    );
    assert_eq!(
        p[2].command(json!({"type": "accept_draw"})).await["type"],
        "ack"
    );
    let agreed = until_kind(&mut p[0], "draw_agreed").await;
    assert_eq!(
        agreed["event"]["result"],
        json!({"draw": ["r", "b", "y", "g"]})
    );
    server.stop().await;
}
