//! The HTTP API on a real server: games, seats, lists, records, health, metrics, the static
//! client, and the one error shape for every failure.

mod common;

use std::path::PathBuf;

use common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn creating_games() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;

    let (status, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "names": {"r": " Ann "}, "rules": {"turn_limit": 50}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    // Without --public-url, links use the address the creator used.
    assert_eq!(created["url"], format!("http://{addr}/game/{id}"));
    let seats = created["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    assert_eq!(seats[0]["name"], "Ann");
    for seat in seats {
        let token = seat["token"].as_str().unwrap();
        assert!(token.len() >= 22, "at least 128 bits");
        let invite = seat["invite_url"].as_str().unwrap();
        assert!(invite.ends_with(&format!(
            "#seat={}&token={token}",
            seat["player"].as_str().unwrap()
        )));
    }
    let (_, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["rules"]["turn_limit"], 50);
    assert_eq!(game["status"], "open");
    assert!(
        game.get("legal").is_none(),
        "the legal turns go to the seat to move only, over its socket"
    );

    let (status, created) =
        post_json(addr, "/api/games", &json!({"players": 3, "hostage": "y"})).await;
    assert_eq!(status, 201);
    let players: Vec<&str> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["r", "b", "g"]);
    let (_, game) = get_json(
        addr,
        &format!("/api/games/{}", created["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(game["hostage"], "y");
    assert_eq!(game["control"], "rbhg", "yellow is the hostage army");

    for (body, code, status) in [
        (json!({"players": 5}), "bad_request", 400),
        (json!({"players": 4, "hostage": "g"}), "bad_request", 400),
        (json!({"players": 3, "hostage": "x"}), "bad_request", 400),
        (json!({"players": 4, "colour": "red"}), "bad_request", 400),
        (
            json!({"players": 3, "hostage": "g", "names": {"g": "Gus"}}),
            "bad_request",
            400,
        ),
        (
            json!({"players": 4, "names": {"r": "x".repeat(33)}}),
            "bad_request",
            400,
        ),
        (
            json!({"players": 4, "rules": {"turn_limit": 0}}),
            "bad_request",
            400,
        ),
    ] {
        let (s, b) = post_json(addr, "/api/games", &body).await;
        assert_api_error(s, &b, status, code);
    }
    let (s, b) = http(addr, "POST", "/api/games", Some("{not json")).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 400, "bad_request");
    let huge = json!({"players": 4, "names": {"r": "x".repeat(300_000)}});
    let (s, b) = post_json(addr, "/api/games", &huge).await;
    assert_api_error(s, &b, 413, "too_large");
    let (s, b) = http(addr, "DELETE", "/api/games", None).await;
    assert_api_error(
        s,
        &serde_json::from_str(&b).unwrap(),
        405,
        "method_not_allowed",
    );
    server.stop().await;
}

#[tokio::test]
async fn claiming_seats() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "names": {"b": "Bob"}}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let seats = format!("/api/games/{id}/seats");
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_string();

    let (s, b) = post_json(addr, &seats, &json!({"name": "Ann", "token": "forged"})).await;
    assert_api_error(s, &b, 403, "bad_token");
    let (s, b) = post_json(addr, &seats, &json!({"name": "Ann"})).await;
    assert_api_error(s, &b, 403, "bad_token");
    let (s, b) = post_json(
        addr,
        &seats,
        &json!({"name": "Ann", "token": token(0), "player": "b"}),
    )
    .await;
    assert_api_error(s, &b, 403, "bad_token");
    let (s, b) = post_json(addr, &seats, &json!({"token": token(0)})).await;
    assert_api_error(s, &b, 400, "bad_request");
    let (s, b) = post_json(addr, &seats, &json!({"name": "\u{7}", "token": token(0)})).await;
    assert_api_error(s, &b, 400, "bad_request");

    let (s, b) = post_json(addr, &seats, &json!({"name": "Ann", "token": token(0)})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b, json!({"player": "r", "name": "Ann", "token": token(0)}));
    // The right invite again (another device): the seat is held with it, not someone else's.
    let (s, b) = post_json(addr, &seats, &json!({"name": "Eve", "token": token(0)})).await;
    assert_api_error(s, &b, 409, "seat_held");
    // A preset name serves when none is given.
    let (s, b) = post_json(addr, &seats, &json!({"token": token(1)})).await;
    assert_eq!((s, &b["name"]), (200, &json!("Bob")));

    let (s, b) = post_json(
        addr,
        "/api/games/00000000-0000-0000-0000-000000000000/seats",
        &json!({"name": "A"}),
    )
    .await;
    assert_api_error(s, &b, 404, "not_found");

    // Open games: any free seat, or a chosen one; a new token replaces the invite's.
    let (_, open) = post_json(addr, "/api/games", &json!({"players": 4, "open": true})).await;
    let open_id = open["id"].as_str().unwrap();
    let seats = format!("/api/games/{open_id}/seats");
    let (s, b) = post_json(addr, &seats, &json!({"name": "Gil", "player": "g"})).await;
    assert_eq!((s, &b["player"]), (200, &json!("g")));
    assert_ne!(b["token"], open["seats"][3]["token"]);
    let (s, b) = post_json(addr, &seats, &json!({"name": "Gus", "player": "g"})).await;
    assert_api_error(s, &b, 409, "seat_taken");
    let (s, b) = post_json(addr, &seats, &json!({"name": "Ann"})).await;
    assert_eq!((s, &b["player"]), (200, &json!("r")));
    server.stop().await;
}

/// Issue 46: opening an invite link, the page learns whether the link is wrong (mistyped, or
/// replaced by a new invite) or right with its seat held on another device, before claiming
/// anything: `seats/check` answers the seat or null (200 either way), and the claim itself
/// says `bad_token` for the one and `seat_held` for the other.
#[tokio::test]
async fn an_invite_link_tells_wrong_from_held_elsewhere() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (_, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    let id = created["id"].as_str().unwrap();
    let admin = created["admin_token"].as_str().unwrap();
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_string();
    let seats = format!("/api/games/{id}/seats");
    let check = format!("/api/games/{id}/seats/check");

    // A right link to a free seat; a mistyped one (one character changed); a made-up one.
    let (s, b) = post_json(addr, &check, &json!({"token": token(3)})).await;
    assert_eq!((s, b), (200, json!({"player": "g"})));
    let mut typo = token(3);
    typo.replace_range(0..1, if typo.starts_with('A') { "B" } else { "A" });
    for wrong in [typo.clone(), "x".repeat(200)] {
        let (s, b) = post_json(addr, &check, &json!({"token": wrong})).await;
        assert_eq!((s, b), (200, json!({"player": null})));
    }
    let (s, b) = post_json(addr, &seats, &json!({"name": "Yann", "token": typo})).await;
    assert_api_error(s, &b, 403, "bad_token");
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .contains("replaced or mistyped"),
        "{b}"
    );

    // Yann takes Green's seat; the same link on a second device: held, not wrong.
    let (s, _) = post_json(addr, &seats, &json!({"name": "Yann", "token": token(3)})).await;
    assert_eq!(s, 200);
    let (s, b) = post_json(addr, &check, &json!({"token": token(3)})).await;
    assert_eq!((s, b), (200, json!({"player": "g"})));
    let (s, b) = post_json(addr, &seats, &json!({"name": "Yves", "token": token(3)})).await;
    assert_api_error(s, &b, 409, "seat_held");

    // The creator replaces Blue's invite: the old link is wrong now, the new one right.
    let (s, fresh) = post_json_bearer(addr, &format!("{seats}/b/invite"), &json!({}), admin).await;
    assert_eq!(s, 200, "{fresh}");
    let (s, b) = post_json(addr, &check, &json!({"token": token(1)})).await;
    assert_eq!((s, b), (200, json!({"player": null})));
    let (s, b) = post_json(addr, &seats, &json!({"name": "Bea", "token": token(1)})).await;
    assert_api_error(s, &b, 403, "bad_token");
    let (s, b) = post_json(addr, &check, &json!({"token": fresh["token"]})).await;
    assert_eq!((s, b), (200, json!({"player": "b"})));

    // No such game: 404, as everywhere.
    let (s, b) = post_json(
        addr,
        "/api/games/00000000-0000-0000-0000-000000000000/seats/check",
        &json!({"token": token(0)}),
    )
    .await;
    assert_api_error(s, &b, 404, "not_found");
    server.stop().await;
}

#[tokio::test]
async fn listing_and_looking() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (open_id, _) = {
        let (_, c) = post_json(addr, "/api/games", &json!({"players": 4, "open": true})).await;
        (c["id"].as_str().unwrap().to_string(), ())
    };
    let listed = json!({"players": 4, "listed": true});
    let (live_id, _) = game_from(addr, &listed).await;
    let (done_id, tokens) = game_from(addr, &listed).await;
    // Finish it: everyone but red resigns.
    for token in &tokens[1..] {
        let (mut ws, _) = Ws::join(addr, &done_id, Some(token), None).await;
        assert_eq!(ws.command(json!({"type": "resign"})).await["type"], "ack");
    }

    for (status, id) in [
        ("open", &open_id),
        ("live", &live_id),
        ("finished", &done_id),
    ] {
        let (s, list) = get_json(addr, &format!("/api/games?status={status}")).await;
        assert_eq!(s, 200);
        let games = list["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{status}: {list}");
        assert_eq!(&games[0]["id"], id);
        assert_eq!(games[0]["status"], status);
    }
    let (_, all) = get_json(addr, "/api/games").await;
    assert_eq!(all["games"].as_array().unwrap().len(), 3);
    assert_eq!(
        all["games"][0]["id"],
        done_id.as_str(),
        "most recently changed first"
    );
    assert_eq!(all["games"][0]["result"], json!({"winner": "r"}));
    let (_, one) = get_json(addr, "/api/games?limit=1").await;
    assert_eq!(one["games"].as_array().unwrap().len(), 1);
    let (s, b) = get_json(addr, "/api/games?status=lost").await;
    assert_api_error(s, &b, 400, "bad_request");

    let (s, b) = get_json(addr, "/api/games/not-a-uuid").await;
    assert_api_error(s, &b, 404, "not_found");
    let (s, b) = get_json(addr, "/api/games/00000000-0000-0000-0000-000000000000").await;
    assert_api_error(s, &b, 404, "not_found");
    let (s, game) = get_json(addr, &format!("/api/games/{live_id}")).await;
    assert_eq!(s, 200);
    assert!(game.get("you").is_none());
    assert_eq!(game["seats"].as_array().unwrap().len(), 4);
    server.stop().await;
}

#[tokio::test]
async fn records_export_and_import() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    assert_eq!(red.play("b7-b5").await["type"], "ack");
    assert_eq!(blue.play("h7-h5").await["type"], "ack");

    let (status, head, body) =
        http_full(addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert!(head.to_ascii_lowercase().contains(&format!(
        "content-disposition: attachment; filename=\"djambi-{id}.json\""
    )));
    let record: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(record["format"], "djambi-game/1");
    assert_eq!(
        record["events"],
        json!([{"turn": 1, "player": "r", "move": "b7-b5"}, {"turn": 2, "player": "b", "move": "h7-h5"}])
    );

    // Import: the same game, going on from where it stands.
    let (status, created) = post_json(addr, "/api/games/import", &record).await;
    assert_eq!(status, 201, "{created}");
    let copy = created["id"].as_str().unwrap();
    let (_, original) = get_json(addr, &format!("/api/games/{id}")).await;
    let (_, imported) = get_json(addr, &format!("/api/games/{copy}")).await;
    assert_eq!(imported["dpn"], original["dpn"]);
    assert_eq!(imported["v"], 2);
    assert_eq!(
        imported["status"], "open",
        "its seats wait for their players"
    );

    // An illegal record is refused at its first illegal event, which it names.
    let mut bad = record.clone();
    bad["events"][1]["move"] = json!("h7-h2");
    let (s, b) = post_json(addr, "/api/games/import", &bad).await;
    assert_api_error(s, &b, 422, "invalid_record");
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("event 2:"),
        "{b}"
    );
    let (s, b) = post_json(addr, "/api/games/import", &json!({"format": "chess"})).await;
    assert_api_error(s, &b, 400, "bad_request");

    // A finished record with an agreed draw imports as a finished game.
    let drawn = json!({
        "format": "djambi-game/1", "rules": {}, "start": record["start"],
        "events": [{"turn": 1, "player": "r", "move": "b7-b5"}, {"draw": "agreed"}],
        "result": {"draw": ["r", "b", "y", "g"]}
    });
    let (s, created) = post_json(addr, "/api/games/import", &drawn).await;
    assert_eq!(s, 201, "{created}");
    let (_, game) = get_json(
        addr,
        &format!("/api/games/{}", created["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], json!({"draw": ["r", "b", "y", "g"]}));
    let (_, exported) = get_json(
        addr,
        &format!("/api/games/{}/record", created["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(exported["events"], drawn["events"]);
    server.stop().await;
}

#[tokio::test]
async fn health_metrics_and_sockets_on_unknown_games() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    assert_eq!(
        http(addr, "GET", "/healthz", None).await,
        (200, "ok".to_string())
    );
    assert_eq!(
        http(addr, "GET", "/readyz", None).await,
        (200, "ok".to_string())
    );
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (_watcher, _) = Ws::join(addr, &id, None, None).await;
    assert_eq!(red.play("b7-b5").await["type"], "ack");
    assert_eq!(red.play("b5-b4").await["type"], "error");
    let (status, head, metrics) = http_full(addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("text/plain; version=0.0.4"));
    for line in [
        "djambi_live_games 1",
        "djambi_connections{role=\"player\"} 1",
        "djambi_connections{role=\"spectator\"} 1",
        "djambi_turns_total{result=\"accepted\"} 1",
        "djambi_turns_total{result=\"rejected\"} 1",
        "djambi_db_errors_total 0",
        "djambi_commit_seconds_count 5",
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }

    let (s, b) = http(
        addr,
        "GET",
        "/ws/games/00000000-0000-0000-0000-000000000000",
        None,
    )
    .await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    let (s, b) = http(addr, "GET", &format!("/ws/games/{id}"), None).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 400, "bad_request");

    // The database gone: not ready.
    server.state.store.close().await;
    let (s, b) = get_json(addr, "/readyz").await;
    assert_api_error(s, &b, 503, "unavailable");
}

#[tokio::test]
async fn the_browser_client_is_served_from_its_folder() {
    let web = std::env::temp_dir().join(format!("djambi-web-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(web.join("js")).unwrap();
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>Djambi</title>",
    )
    .unwrap();
    std::fs::write(web.join("js/app.js"), "console.log('djambi');").unwrap();
    let db = TestDb::sqlite();
    let dir: PathBuf = web.clone();
    let server = TestServer::start_with(&db, move |c| c.web_dir = Some(dir)).await;
    let addr = server.addr;
    for path in [
        "/",
        "/rules",
        "/game/6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f",
        "/game/6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f/replay",
    ] {
        let (s, body) = http(addr, "GET", path, None).await;
        assert_eq!(
            (s, body.as_str()),
            (200, "<!doctype html><title>Djambi</title>"),
            "{path}"
        );
    }
    let (s, body) = http(addr, "GET", "/js/app.js", None).await;
    assert_eq!((s, body.as_str()), (200, "console.log('djambi');"));
    let (s, b) = http(addr, "GET", "/js/missing.js", None).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    let (s, b) = http(addr, "GET", "/api/nothing-here", None).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    // A browser loading a mistyped page gets the client (its own "no such page"), still 404;
    // an API path stays JSON even for a browser.
    let browser = "Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\n";
    let (s, head, body) = http_with(addr, "GET", "/gmae/oops", None, browser).await;
    assert_eq!(
        (s, body.as_str()),
        (404, "<!doctype html><title>Djambi</title>")
    );
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/html"),
        "{head}"
    );
    let (s, _, b) = http_with(addr, "GET", "/api/nothing-here", None, browser).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    server.stop().await;
    std::fs::remove_dir_all(&web).unwrap();
}

/// `index.html` is revalidated on every use and names the client's files under its hash, which
/// are cached for good; everything is compressed for clients that accept it.
#[tokio::test]
async fn the_client_is_cached_by_hash_and_compressed() {
    let web = std::env::temp_dir().join(format!("djambi-web-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(web.join("js")).unwrap();
    let page = format!(
        "<!doctype html><script type=\"module\" src=\"/js/app.js\"></script><a href=\"/rules\">{}</a>",
        "rules ".repeat(200)
    );
    std::fs::write(web.join("index.html"), &page).unwrap();
    std::fs::write(web.join("js/app.js"), "console.log('djambi');".repeat(100)).unwrap();
    let db = TestDb::sqlite();
    let dir: PathBuf = web.clone();
    let server = TestServer::start_with(&db, move |c| c.web_dir = Some(dir)).await;
    let addr = server.addr;
    let (s, head, body) = http_full(addr, "GET", "/", None).await;
    assert_eq!(s, 200);
    let head = head.to_ascii_lowercase();
    assert!(head.contains("cache-control: no-cache"), "{head}");
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an etag")
        .to_string();
    let start = body.find("/v/").expect("files under the hash");
    let script = &body[start..body[start..].find('"').unwrap() + start];
    assert!(script.ends_with("/js/app.js"), "{script}");
    assert!(body.contains("href=\"/rules\""), "a page link stays");
    // Revalidation: not modified.
    let (s, _, _) = http_with(
        addr,
        "GET",
        "/",
        None,
        &format!("If-None-Match: {etag}\r\n"),
    )
    .await;
    assert_eq!(s, 304);
    // The hashed file is immutable; the plain path is revalidated.
    let (s, head, _) = http_full(addr, "GET", script, None).await;
    assert_eq!(s, 200);
    assert!(head.to_ascii_lowercase().contains("immutable"), "{head}");
    let (_, head, _) = http_full(addr, "GET", "/js/app.js", None).await;
    assert!(
        head.to_ascii_lowercase()
            .contains("cache-control: no-cache"),
        "{head}"
    );
    // Compressed when asked.
    for (encoding, name) in [("br", "br"), ("gzip", "gzip")] {
        let (s, head, _) = http_with(
            addr,
            "GET",
            script,
            None,
            &format!("Accept-Encoding: {encoding}\r\n"),
        )
        .await;
        assert_eq!(s, 200);
        assert!(
            head.to_ascii_lowercase()
                .contains(&format!("content-encoding: {name}")),
            "{head}"
        );
    }
    server.stop().await;
    std::fs::remove_dir_all(&web).unwrap();

    // Without the folder, a clean 404.
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (s, b) = http(server.addr, "GET", "/", None).await;
    assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    server.stop().await;
}

/// A finished game nobody watches leaves memory, and comes back from the database on demand.
#[tokio::test]
async fn finished_games_leave_memory_and_come_back() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.games.idle_secs = 0).await;
    let addr = server.addr;
    let start = "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";
    let drawn = json!({
        "format": "djambi-game/1", "rules": {}, "start": start,
        "events": [{"turn": 1, "player": "r", "move": "b7-b5"}, {"draw": "agreed"}]
    });
    let (_, created) = post_json(addr, "/api/games/import", &drawn).await;
    let id = created["id"].as_str().unwrap();
    let loaded = |metrics: &str| -> u32 {
        let line = metrics
            .lines()
            .find(|l| l.starts_with("djambi_loaded_games "))
            .unwrap();
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let mut unloaded = false;
    for _ in 0..100 {
        if loaded(&http(addr, "GET", "/metrics", None).await.1) == 0 {
            unloaded = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(unloaded, "the finished game left memory");
    let (status, game) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["result"], json!({"draw": ["r", "b", "y", "g"]}));
    assert_eq!(
        game["v"], 5,
        "the move, the offer, two agreements and the last one"
    );
    let (_watcher, snapshot) = Ws::join(addr, id, None, None).await;
    assert_eq!(snapshot["game"]["status"], "finished");
    server.stop().await;
}
