//! Game records with their metadata (issue 21): the JSON export names the players, the game's
//! times, its clock and the result in words; the readable text export; imports with and
//! without metadata, which never take anything rule-related from it.

mod common;

use common::*;
use djambi_core::{Game, GameRecord};
use serde_json::{Value, json};

fn is_utc_time(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|s| s.len() >= 20 && s.ends_with('Z') && s.as_bytes()[10] == b'T')
}

/// An RFC 3339 time to the second (`2026-11-21T10:00:00`), which orders as text.
fn to_second(value: &Value) -> &str {
    &value.as_str().unwrap()[..19]
}

#[tokio::test]
async fn the_export_names_the_players_times_clock_and_result() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) =
        game_from(addr, &json!({"players": 4, "clock": {"per_turn_s": 86400}})).await;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    assert_eq!(seats[0].play("b7-b5").await["type"], "ack");
    assert_eq!(seats[1].play("g7-g5").await["type"], "ack");

    // A running game: who, when, on what clock; no end yet.
    let (status, record) = get_json(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200);
    let meta = &record["meta"];
    assert_eq!(meta["site"], "Djambi Online");
    assert_eq!(
        meta["players"],
        json!({"r": {"name": "Ann"}, "b": {"name": "Bea"}, "y": {"name": "Cid"}, "g": {"name": "Dee"}})
    );
    assert!(is_utc_time(&meta["created"]), "{meta}");
    assert!(is_utc_time(&meta["started"]), "{meta}");
    assert!(to_second(&meta["created"]) <= to_second(&meta["started"]));
    assert!(meta.get("finished").is_none(), "{meta}");
    assert!(meta.get("result_text").is_none(), "{meta}");
    assert_eq!(meta["clock"], json!({"per_turn_s": 86400}));

    // Everyone but Red resigns.
    for seat in &mut seats[1..] {
        assert_eq!(seat.command(json!({"type": "resign"})).await["type"], "ack");
    }
    let (_, record) = get_json(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(record["result"], json!({"winner": "r"}));
    let meta = &record["meta"];
    assert_eq!(meta["result_text"], "Red wins");
    assert!(is_utc_time(&meta["finished"]), "{meta}");
    assert!(to_second(&meta["started"]) <= to_second(&meta["finished"]));

    // The record replays, meta and all, to the game the core writes without it.
    let parsed: GameRecord = serde_json::from_value(record.clone()).unwrap();
    let game = Game::from_record(&parsed).unwrap();
    let mut plain = record.clone();
    plain.as_object_mut().unwrap().remove("meta");
    assert_eq!(serde_json::to_value(game.record()).unwrap(), plain);

    // The readable text: a header, an empty line, the turns.
    let (status, head, text) =
        http_full(addr, "GET", &format!("/api/games/{id}/record.txt"), None).await;
    assert_eq!(status, 200);
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains("content-type: text/plain; charset=utf-8"),
        "{head}"
    );
    assert!(
        head.contains(&format!(
            "content-disposition: attachment; filename=\"djambi-{id}.txt\""
        )),
        "{head}"
    );
    let (header, turns) = text.split_once("\n\n").expect("a header, then the turns");
    let header: Vec<&str> = header.lines().collect();
    assert_eq!(header[0], "Site: Djambi Online");
    assert_eq!(header[1], format!("Game: http://{addr}/game/{id}"));
    assert!(header[2].starts_with("Date: 20"), "{text}");
    for line in [
        "Red: Ann",
        "Blue: Bea",
        "Yellow: Cid",
        "Green: Dee",
        "Clock: 1 day per turn",
        "Rules: standard",
        "Result: Red wins",
        "Ranking: 1. Red; 2. Green; 3. Yellow; 4. Blue",
    ] {
        assert!(header.contains(&line), "{line:?} in\n{text}");
    }
    assert_eq!(
        turns,
        "1. Red b7-b5\n2. Blue g7-g5\nBlue resigns\nYellow resigns\nGreen resigns\n"
    );
    let (status, body) = get_json(addr, "/api/games/not-a-game/record.txt").await;
    assert_api_error(status, &body, 404, "not_found");
    server.stop().await;
}

/// A finished game's record (three resignations) from the standard start.
fn finished_record() -> Value {
    json!({
        "format": "djambi-game/1",
        "rules": {"own_kills": false, "diplomat_to_maze": true, "turn_limit": null},
        "start": djambi_core::START_DPN,
        "events": [
            {"turn": 1, "player": "r", "move": "b7-b5"},
            {"resign": "b"}, {"resign": "y"}, {"resign": "g"}
        ],
        "result": {"winner": "r"},
        "ranking": [["r"], ["g"], ["y"], ["b"]]
    })
}

#[tokio::test]
async fn imports_with_and_without_meta() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;

    // With meta: the names that would be accepted at creation are kept; the rest of it —
    // another site, a clock, a result text that is not the game's, a bot — is not taken.
    let mut record = finished_record();
    record["meta"] = json!({
        "site": "Elsewhere",
        "players": {
            "r": {"name": " Zoe "},
            "b": {"name": "Red player"},
            "y": {"bot": "hard"},
            "g": {"name": "Gil\u{202E}", "elo": 1800}
        },
        "created": "1999-01-01T00:00:00Z",
        "clock": {"initial_s": 1, "increment_s": 0},
        "result_text": "Blue wins",
        "tournament": "unknown members are ignored"
    });
    let (status, created) = post_json(addr, "/api/games/import", &record).await;
    assert_eq!(status, 201, "{created}");
    let copy = created["id"].as_str().unwrap();
    let (_, game) = get_json(addr, &format!("/api/games/{copy}")).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], json!({"winner": "r"}));
    let names: Vec<&Value> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["name"])
        .collect();
    assert_eq!(
        names,
        [&json!("Zoe"), &Value::Null, &Value::Null, &Value::Null]
    );
    assert!(
        game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["bot"].is_null()),
        "{game}"
    );
    let (_, exported) = get_json(addr, &format!("/api/games/{copy}/record")).await;
    assert_eq!(exported["events"], record["events"]);
    let meta = &exported["meta"];
    assert_eq!(meta["site"], "Djambi Online");
    assert_eq!(meta["players"], json!({"r": {"name": "Zoe"}}));
    assert_eq!(meta["result_text"], "Red wins");
    assert!(meta.get("clock").is_none(), "{meta}");
    assert_ne!(meta["created"], "1999-01-01T00:00:00Z");

    // Without meta, and with a meta of the wrong shape: imported the same.
    for meta in [
        None,
        Some(json!("not an object")),
        Some(json!({"players": 5})),
    ] {
        let mut record = finished_record();
        if let Some(meta) = meta {
            record["meta"] = meta;
        }
        let (status, created) = post_json(addr, "/api/games/import", &record).await;
        assert_eq!(status, 201, "{created}");
        let copy = created["id"].as_str().unwrap();
        let (_, game) = get_json(addr, &format!("/api/games/{copy}")).await;
        assert_eq!(game["result"], json!({"winner": "r"}));
        assert!(
            game["seats"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["name"].is_null()),
            "{game}"
        );
        let (_, exported) = get_json(addr, &format!("/api/games/{copy}/record")).await;
        assert_eq!(exported["meta"]["result_text"], "Red wins");
        assert!(exported["meta"].get("players").is_none(), "{exported}");
    }

    // Meta cannot make an illegal record legal.
    let mut bad = finished_record();
    bad["result"] = json!({"winner": "b"});
    bad["meta"] = json!({"result_text": "Blue wins"});
    let (status, body) = post_json(addr, "/api/games/import", &bad).await;
    assert_api_error(status, &body, 422, "invalid_record");
    server.stop().await;
}
