//! Live play against a real server over real sockets: a whole scripted game, presence, chat and
//! whispers, reconnection and resends.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};

const SHORT: Duration = Duration::from_millis(300);

/// Four players and two spectators play the scripted game to red's win. Every client sees
/// every event in order; the spectators end on the server's position.
#[tokio::test]
async fn a_scripted_game_to_a_winner() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = scripted_game(addr).await;

    let mut players = Vec::new();
    for (token, letter) in tokens.iter().zip(["r", "b", "y", "g"]) {
        let (ws, snapshot) = Ws::join(addr, &id, Some(token), None).await;
        assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
        assert_eq!(snapshot["you"], json!({"role": "player", "player": letter}));
        assert_eq!(snapshot["game"]["status"], "live");
        // The last claim started the game: the `started` event is version 1.
        assert_eq!(snapshot["v"], 1);
        players.push(ws);
    }
    let mut spectators = Vec::new();
    for _ in 0..2 {
        let (ws, snapshot) = Ws::join(addr, &id, None, None).await;
        assert_eq!(snapshot["you"], json!({"role": "spectator"}));
        assert_eq!(snapshot["game"]["dpn"], SCRIPT_START);
        assert!(
            snapshot["game"].get("legal").is_none(),
            "spectators get no legal turns"
        );
        spectators.push(ws);
    }
    const R: usize = 0;
    const B: usize = 1;
    const Y: usize = 2;
    const G: usize = 3;

    // 1. Red kills blue's chief; yellow can only pass, and the server passes for it.
    let answer = players[R].play("h8-i9@e7").await;
    assert_eq!(answer, json!({"type": "ack", "ack": 1, "v": 2}));
    let events = players[R].of_type("event");
    assert_eq!(events.len(), 1, "the event comes before its ack");
    let event = &events[0]["event"];
    assert_eq!(event["kind"], "turn");
    assert_eq!(event["turn"], "h8-i9@e7");
    let effects: Vec<&str> = event["effects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert!(
        effects.contains(&"killed") && effects.contains(&"eliminated"),
        "{effects:?}"
    );
    assert_eq!(event["eliminated"], "b");
    assert_eq!(event["control"], "rryg", "red controls blue");
    let pass = players[R].event().await;
    assert_eq!(pass["v"], 3);
    assert_eq!(pass["event"]["turn"], "pass");
    assert_eq!(pass["event"]["player"], "y");
    assert_eq!(pass["event"]["to_move"], "g");

    // Blue is out: it may still talk, not play.
    let answer = players[B].play("a9-a8").await;
    assert_error(&answer, "eliminated", 3);

    // 2. Green offers a draw; red declines.
    let answer = players[G].command(json!({"type": "offer_draw"})).await;
    assert_eq!(answer["v"], 4);
    let answer = players[R].command(json!({"type": "decline_draw"})).await;
    assert_eq!(answer["v"], 5);

    // 3. Table talk: public chat, a whisper only red and green see, a spectator's word (for
    // the spectators' room).
    let answer = players[B]
        .command(json!({"type": "chat", "text": "<b>well played</b>"}))
        .await;
    assert_eq!(answer["type"], "ack");
    let answer = players[R]
        .command(json!({"type": "whisper", "to": "g", "text": "our secret"}))
        .await;
    assert_eq!(answer["type"], "ack");
    let answer = spectators[0]
        .command(json!({"type": "chat", "text": "go yellow"}))
        .await;
    assert_eq!(answer["type"], "ack");

    // 4. The rest of the game; yellow, walled in, resigns.
    for (who, turn, v) in [
        (G, "c5-c6", 6),
        (R, "a4-a3", 7),
        (G, "c6-c7", 9),
        (R, "a3-a1@e3", 10),
    ] {
        let answer = players[who].play(turn).await;
        assert_eq!(answer["type"], "ack", "{turn}: {answer}");
        assert_eq!(answer["v"], v, "{turn}");
    }
    let answer = players[Y].command(json!({"type": "resign"})).await;
    assert_eq!(answer["v"], 12);

    // Everyone saw the eleven events after the start, in order; the last one ends the game.
    let expected_kinds = [
        "turn",
        "turn",
        "draw_offered",
        "draw_declined",
        "turn",
        "turn",
        "turn",
        "turn",
        "turn",
        "turn",
        "resign",
    ];
    let mut finals = Vec::new();
    let players_len = players.len();
    for (i, ws) in players.iter_mut().chain(spectators.iter_mut()).enumerate() {
        let events = ws.events_within(SHORT).await;
        let versions: Vec<u64> = events.iter().map(|e| e["v"].as_u64().unwrap()).collect();
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| e["event"]["kind"].as_str().unwrap())
            .collect();
        assert_eq!(versions, (2..=12).collect::<Vec<_>>(), "client {i}");
        assert_eq!(kinds, expected_kinds, "client {i}");
        let chat: Vec<String> = ws
            .of_type("chat")
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect();
        let sees_whisper = i == R || i == G;
        assert_eq!(
            chat.contains(&"our secret".to_string()),
            sees_whisper,
            "client {i}"
        );
        // A spectator's word stays in the spectators' room: no player opened it.
        let spectator = i >= players_len;
        assert_eq!(
            chat.contains(&"go yellow".to_string()),
            spectator,
            "client {i}: {chat:?}"
        );
        assert_eq!(
            chat.len(),
            if sees_whisper || spectator { 2 } else { 1 },
            "client {i}: {chat:?}"
        );
        let last = &events.last().unwrap()["event"];
        assert_eq!(last["result"], json!({"winner": "r"}));
        assert_eq!(last["ranking"], json!(["r", "y", "g", "b"]));
        assert_eq!(last["to_move"], Value::Null);
        assert!(last.get("legal").is_none());
        finals.push(last["dpn"].clone());
    }
    let (status, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["v"], 12);
    for dpn in &finals {
        assert_eq!(dpn, &game["dpn"]);
    }
    assert_eq!(
        game["turns"].as_array().unwrap().len(),
        8,
        "{}",
        game["turns"]
    );

    // After the end: typed refusal, nothing changes.
    let answer = players[0].play("a9-a8").await;
    assert_error(&answer, "game_over", 12);

    // The record replays to the same game.
    let (status, record) = get_json(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200);
    assert_eq!(record["result"], json!({"winner": "r"}));
    assert_eq!(record["events"].as_array().unwrap().len(), 9);
    server.stop().await;
}

/// Public chat reaches everyone; a whisper only its two players; the snapshot keeps both
/// (each viewer its own whispers).
#[tokio::test]
async fn whispers_stay_between_two_players() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let (mut spectator, _) = Ws::join(addr, &id, None, None).await;

    let answer = players[0]
        .command(json!({"type": "whisper", "to": "y", "text": "ally?"}))
        .await;
    assert_eq!(answer["type"], "ack");
    let answer = players[1]
        .command(json!({"type": "chat", "text": "hello <all> & \"you\""}))
        .await;
    assert_eq!(answer["type"], "ack");

    let chats =
        |ms: Vec<Value>| -> Vec<Value> { ms.into_iter().filter(|m| m["type"] == "chat").collect() };
    for (i, ws) in players.iter_mut().enumerate() {
        ws.drain(SHORT).await;
        let got = chats(ws.log.clone());
        let texts: Vec<&str> = got.iter().map(|c| c["text"].as_str().unwrap()).collect();
        match i {
            0 | 2 => assert_eq!(texts, ["ally?", "hello <all> & \"you\""], "player {i}"),
            _ => assert_eq!(texts, ["hello <all> & \"you\""], "player {i}"),
        }
        if i == 2 {
            assert_eq!(got[0]["from"], "r");
            assert_eq!(got[0]["to"], "y");
        }
    }
    spectator.drain(SHORT).await;
    let got = chats(spectator.log.clone());
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0]["text"], "hello <all> & \"you\"",
        "stored and sent raw"
    );

    // Snapshots: yellow sees the whisper, green and spectators do not.
    let (_, snap) = Ws::join(addr, &id, Some(&tokens[2]), None).await;
    assert_eq!(snap["game"]["chat"].as_array().unwrap().len(), 2);
    let (_, snap) = Ws::join(addr, &id, Some(&tokens[3]), None).await;
    assert_eq!(snap["game"]["chat"].as_array().unwrap().len(), 1);
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["chat"].as_array().unwrap().len(), 1);
    server.stop().await;
}

/// Presence: who plays which seat and how many watch.
#[tokio::test]
async fn presence_counts_players_and_spectators() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Listed, so that the lobby's list shows it.
    let (id, tokens) = game_from(addr, &json!({"players": 4, "listed": true})).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let presence = red.recv_type("presence").await;
    assert_eq!(presence["seats"][0]["connected"], true);
    assert_eq!(presence["seats"][1]["connected"], false);
    let (spectator, _) = Ws::join(addr, &id, None, None).await;
    let presence = red.recv_type("presence").await;
    assert_eq!(presence["spectators"], 1);
    let (_, list) = get_json(addr, "/api/games?status=live").await;
    let listed = &list["games"][0];
    assert_eq!(listed["spectators"], 1);
    assert_eq!(listed["seats"][0]["connected"], true);
    spectator.close().await;
    let presence = red.recv_type("presence").await;
    assert_eq!(presence["spectators"], 0);
    server.stop().await;
}

/// A client drops, three turns are played, it comes back with its last `v`: it receives
/// exactly the three events it missed, in order, and nothing else that is versioned.
#[tokio::test]
async fn a_reconnecting_client_gets_exactly_what_it_missed() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    assert_eq!(players[0].play("b7-b5").await["v"], 2);
    let red = players.remove(0);
    let last_v = 2;
    red.close().await;

    // Blue, yellow and green play while red is away.
    for (i, turn) in [(0, "h7-h5"), (1, "h3-h4"), (2, "b3-b4")] {
        let answer = players[i].play(turn).await;
        assert_eq!(answer["type"], "ack", "{answer}");
    }
    let seen_by_blue: Vec<Value> = players[0]
        .events_within(SHORT)
        .await
        .into_iter()
        .filter(|e| e["v"].as_u64() > Some(2))
        .collect();
    assert_eq!(seen_by_blue.len(), 3);

    let (mut red, first) = Ws::join(addr, &id, Some(&tokens[0]), Some(last_v)).await;
    assert_eq!(first["type"], "resume", "{first}");
    assert_eq!(first["from"], 2);
    assert_eq!(first["v"], 5);
    assert_eq!(first["you"], json!({"role": "player", "player": "r"}));
    let missed = red.events_within(SHORT).await;
    let versions: Vec<u64> = missed.iter().map(|e| e["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, [3, 4, 5]);
    assert_eq!(
        missed, seen_by_blue,
        "the same events as those who were there"
    );
    // And it plays on. Ack ids belong to the seat, so a client keeps counting across
    // connections: ack 1 again would be answered as the committed b7-b5.
    assert_eq!(
        red.play("b5-b4").await,
        json!({"type": "ack", "ack": 1, "v": 2})
    );
    red.next_ack = 2;
    assert_eq!(red.play("a7-a6").await["v"], 6);

    // Already up to date: an empty resume.
    let (mut again, first) = Ws::join(addr, &id, Some(&tokens[3]), Some(6)).await;
    assert_eq!(first["type"], "resume");
    assert!(again.events_within(SHORT).await.is_empty());
    // From the future: a snapshot.
    let (_, first) = Ws::join(addr, &id, None, Some(99)).await;
    assert_eq!(first["type"], "snapshot");
    server.stop().await;
}

/// A reconnecting client gets the events it missed only from the memory window
/// (`--replay-memory`): further behind, a snapshot — the database is never read for a
/// catch-up, so catch-ups cannot be turned into a flood of work. After a restart the window is
/// rebuilt from the game in memory, with the same bytes.
#[tokio::test]
async fn catch_up_comes_from_memory_else_a_snapshot() {
    let db = TestDb::sqlite();
    let tweak = |c: &mut djambi_server::Config| {
        c.games.replay_memory = 2;
        c.games.max_catchup = 1000;
    };
    let server = TestServer::start_with(&db, tweak).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;
    for (i, turn) in [(0, "b7-b5"), (1, "h7-h5"), (2, "h3-h4"), (3, "b3-b4")] {
        assert_eq!(players[i].play(turn).await["type"], "ack");
    }
    let live = watcher.events_within(SHORT).await;
    assert_eq!(live.len(), 4);

    let (mut late, first) = Ws::join(addr, &id, None, Some(3)).await;
    assert_eq!(first["type"], "resume");
    assert_eq!(late.events_within(SHORT).await, live[2..], "from memory");
    let (_, first) = Ws::join(addr, &id, None, Some(2)).await;
    assert_eq!(first["type"], "snapshot", "3 behind with a window of 2");
    drop((players, watcher, late));
    server.stop().await;

    let server = TestServer::start_with(&db, tweak).await;
    let (mut late, first) = Ws::join(server.addr, &id, None, Some(3)).await;
    assert_eq!(first["type"], "resume", "{first}");
    assert_eq!(
        late.events_within(SHORT).await,
        live[2..],
        "rebuilt, identical"
    );
    server.stop().await;
}

/// A command resent with the same ack id (even from another connection of the seat, even with
/// another turn) is applied once and answered as the first time.
#[tokio::test]
async fn a_resent_ack_is_applied_once() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut watcher, _) = Ws::join(addr, &id, None, None).await;

    let m = json!({"type": "move", "ack": 7, "turn": "b7-b5"});
    red.send(&m).await;
    let first = red.reply(7).await;
    assert_eq!(first, json!({"type": "ack", "ack": 7, "v": 2}));
    red.send(&m).await;
    assert_eq!(red.reply(7).await, first);
    red.send(&json!({"type": "move", "ack": 7, "turn": "a7-a6"}))
        .await;
    assert_eq!(red.reply(7).await, first);
    let (mut red2, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    red2.send(&m).await;
    assert_eq!(red2.reply(7).await, first);

    let events = watcher.events_within(SHORT).await;
    assert_eq!(events.len(), 1, "applied once");
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 2);
    server.stop().await;
}
