//! Circles of friends (issue 47) over HTTP and WebSocket on a real server: the contract of
//! PROTOCOL §2.5 (201/401/403/409, member seats, snapshots naming members), games played to
//! the end (resignations, a draw among bots, a seat handed to a bot on a timeout, a guest, a
//! cancelled game), places, standings and head-to-head as the rule of docs/CIRCLES.md gives
//! them, leaving and removing, the exports, the budgets, and the admin command that recomputes
//! everything from the logs.

use std::collections::BTreeMap;

use crate::common::circle::*;
use crate::common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn a_circle_forms_plays_and_keeps_its_standings() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (circle, invite, ms) = circle_of_four(addr).await;
    let [ann, bea, cid, dee] = [&ms[0], &ms[1], &ms[2], &ms[3]];
    let path = format!("/api/circles/{circle}");

    // Joining: a wrong invite is 403, a name already there (even dressed up) 409.
    let join = format!("{path}/members");
    let (s, b) = post_json(addr, &join, &json!({"invite": "nope", "name": "Eve"})).await;
    assert_api_error(s, &b, 403, "bad_invite");
    let (s, b) = post_json(addr, &join, &json!({"invite": invite, "name": " ANN "})).await;
    assert_api_error(s, &b, 409, "name_taken");
    let (s, b) = post_json(
        addr,
        &join,
        &json!({"invite": invite, "name": "Red player"}),
    )
    .await;
    assert_api_error(s, &b, 400, "bad_request");
    let (s, b) = post_json(
        addr,
        "/api/circles/6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f/members",
        &json!({"invite": invite, "name": "Eve"}),
    )
    .await;
    assert_api_error(s, &b, 403, "bad_invite");

    // Reading: no key 401, a wrong key or another circle's 403, and nothing about the circle.
    let (s, b) = get_json(addr, &path).await;
    assert_api_error(s, &b, 401, "unauthorized");
    let (s, b) = get_keyed(addr, &path, "not-a-key").await;
    assert_api_error(s, &b, 403, "bad_key");
    let (s, other) = post_json(
        addr,
        "/api/circles",
        &json!({"name": "Others", "member_name": "Zed"}),
    )
    .await;
    assert_eq!(s, 201);
    let zed = Member {
        id: other["member"]["id"].as_str().unwrap().into(),
        key: other["member"]["key"].as_str().unwrap().into(),
    };
    let (s, b) = get_keyed(addr, &path, &zed.key).await;
    assert_api_error(s, &b, 403, "bad_key");
    let (s, view) = get_keyed(addr, &path, &bea.key).await;
    assert_eq!(s, 200, "{view}");
    assert_eq!(view["name"], "Thursday club");
    assert_eq!(view["you"], bea.id.as_str());
    assert_eq!(view["creator"], ann.id.as_str());
    assert_eq!(view["members"].as_array().unwrap().len(), 4);
    for m in view["members"].as_array().unwrap() {
        assert_eq!(m["provisional"], true);
        assert_eq!(m["games"], 0);
        assert_eq!(m["average_place"], Value::Null);
    }

    // Game 1: the four friends, each seated from the circle's page; no invite link sent.
    let (g1, _, _) = circle_game(addr, &circle, ann, json!({"players": 4})).await;
    let mut t1 = BTreeMap::new();
    for (m, p) in [(ann, "r"), (bea, "b"), (cid, "y"), (dee, "g")] {
        t1.insert(p, seat_token(addr, &g1, &circle, m, p).await);
    }
    // One seat per member; another circle's member, a wrong key, a stranger's game: refused.
    let (s, b) = take_seat(addr, &g1, &circle, ann, None).await;
    assert_api_error(s, &b, 409, "member_seated");
    let mut wrong = ann.clone();
    wrong.key = "wrong".into();
    let (s, b) = take_seat(addr, &g1, &circle, &wrong, None).await;
    assert_api_error(s, &b, 403, "bad_key");
    let (plain, _) = {
        let (_, c) = post_json(addr, "/api/games", &json!({"players": 4})).await;
        (c["id"].as_str().unwrap().to_string(), ())
    };
    let (s, b) = take_seat(addr, &plain, &circle, ann, None).await;
    assert_api_error(s, &b, 403, "forbidden");
    let other_circle = other["id"].as_str().unwrap();
    let (s, b) = take_seat(addr, &g1, other_circle, &zed, None).await;
    assert_api_error(s, &b, 403, "forbidden");
    // The snapshot names the circle and its members.
    let (_, snap) = get_json(addr, &format!("/api/games/{g1}")).await;
    assert_eq!(snap["circle"], circle.as_str());
    assert_eq!(snap["status"], "live");
    for (seat, m) in snap["seats"].as_array().unwrap().iter().zip(&ms) {
        assert_eq!(seat["member"], m.id.as_str(), "{seat}");
    }
    assert_eq!(snap["seats"][0]["name"], "Ann");
    // Bea resigns, then Dee, then Ann: Cid wins.
    for p in ["b", "g", "r"] {
        resign(addr, &g1, &t1[p]).await;
    }
    finished(addr, &g1).await;

    // Game 2: Ann and Bea with an easy and a hard bot, a turn limit of 3: both resign, the
    // bots finish it (by a draw, or one eliminates the other).
    let (g2, _, _) = circle_game(
        addr,
        &circle,
        bea,
        json!({"players": 4, "bots": {"b": "easy", "g": "hard"}, "bot_movetime_ms": 200,
               "rules": {"turn_limit": 3}}),
    )
    .await;
    let ann2 = seat_token(addr, &g2, &circle, ann, "r").await;
    let bea2 = seat_token(addr, &g2, &circle, bea, "y").await;
    resign(addr, &g2, &ann2).await;
    resign(addr, &g2, &bea2).await;
    let snap2 = finished(addr, &g2).await;

    // Game 3: a live clock of 2 s that hands a seat to a bot; Ann never moves, so her seat goes
    // to a bot at once; Eve is a guest with an ordinary invite; Bea, Cid, then Eve resign.
    let (g3, invites3, _) = circle_game(
        addr,
        &circle,
        cid,
        json!({"players": 4, "clock": {"initial_s": 2, "increment_s": 0},
               "on_timeout": "bot", "bot_movetime_ms": 200}),
    )
    .await;
    let mut t3 = BTreeMap::new();
    for (m, p) in [(ann, "r"), (bea, "b"), (cid, "y")] {
        t3.insert(p, seat_token(addr, &g3, &circle, m, p).await);
    }
    let (s, b) = post_json(
        addr,
        &format!("/api/games/{g3}/seats"),
        &json!({"name": "Eve", "token": invites3["g"]}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let (mut watch, _) = Ws::join(addr, &g3, None, None).await;
    loop {
        let e = watch.event().await;
        if e["event"]["kind"] == "seat_to_bot" {
            assert_eq!(e["event"]["player"], "r");
            assert_eq!(e["event"]["reason"], "timeout");
            break;
        }
    }
    for p in ["b", "y"] {
        resign(addr, &g3, &t3[p]).await;
    }
    resign(addr, &g3, &invites3["g"]).await;
    let snap3 = finished(addr, &g3).await;
    assert_eq!(snap3["result"]["winner"], "r", "the bot on Ann's seat won");

    // Game 4: cancelled by its creator before the start.
    let (g4, _, admin4) = circle_game(addr, &circle, dee, json!({"players": 4})).await;
    let (s, _, _) = http_with(
        addr,
        "DELETE",
        &format!("/api/games/{g4}"),
        None,
        &format!("Authorization: Bearer {admin4}\r\n"),
    )
    .await;
    assert_eq!(s, 200);

    // The circle's page, read by Dee.
    let (s, view) = get_keyed(addr, &path, &dee.key).await;
    assert_eq!(s, 200, "{view}");
    let games = view["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["id"], g4.as_str(), "newest first");
    let v1 = game_in(&view, &g1);
    assert_eq!(v1["status"], "finished");
    assert_eq!(v1["rated"], true);
    let expected: BTreeMap<String, u64> = [("y", 1), ("r", 2), ("g", 3), ("b", 4)]
        .into_iter()
        .map(|(p, n)| (p.to_string(), n))
        .collect();
    assert_eq!(places_of(v1), expected);
    assert_eq!(v1["seats"][2]["end"], "won");
    assert_eq!(v1["seats"][1]["end"], "out");
    assert!(v1["finished"].is_string());
    // Game 2: no seat handed over, so its places are R9.7's ranking.
    let v2 = game_in(&view, &g2);
    assert_eq!(v2["rated"], true, "two members");
    assert_eq!(places_of(v2), places_of_ranking(&snap2["ranking"]));
    assert_eq!(v2["places"]["r"], 4, "Ann resigned first");
    assert_eq!(v2["places"]["y"], 3);
    assert_eq!(v2["seats"][1]["bot"], "easy");
    // Game 3: Ann's seat handed to a bot at the start ranks her out first, though her seat won.
    let v3 = game_in(&view, &g3);
    let expected: BTreeMap<String, u64> = [("g", 1), ("y", 2), ("b", 3), ("r", 4)]
        .into_iter()
        .map(|(p, n)| (p.to_string(), n))
        .collect();
    assert_eq!(places_of(v3), expected, "{v3}");
    assert_eq!(v3["seats"][0]["end"], "replaced");
    assert_eq!(v3["seats"][3]["member"], Value::Null, "Eve is a guest");
    assert_eq!(v3["seats"][3]["name"], "Eve");
    assert_eq!(v3["rated"], true);
    let v4 = game_in(&view, &g4);
    assert_eq!(v4["status"], "cancelled");
    assert_eq!(v4["rated"], false);
    assert_eq!(v4["places"], json!({}));

    // Standings: games, wins, average places, provisional; best conservative rating first.
    let count = |m: &Member, k: &str| standing(&view, m)[k].as_u64().unwrap();
    assert_eq!(
        [ann, bea, cid, dee].map(|m| count(m, "games")),
        [3, 3, 2, 1]
    );
    assert_eq!([ann, bea, cid, dee].map(|m| count(m, "wins")), [0, 0, 1, 0]);
    assert_eq!(standing(&view, ann)["average_place"], json!(3.33));
    assert_eq!(standing(&view, cid)["average_place"], json!(1.5));
    let ratings: Vec<f64> = view["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let r = m["rating"].as_f64().unwrap();
            let (mu, sigma) = (m["mu"].as_f64().unwrap(), m["sigma"].as_f64().unwrap());
            assert!((r - (mu - 2.0 * sigma)).abs() < 0.011, "{m}");
            assert_eq!(m["provisional"], true);
            r
        })
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    assert_eq!(
        view["members"][0]["id"],
        cid.id.as_str(),
        "Cid won and never lost"
    );
    // Head-to-head: the API's grid is the test's reading of the games' places.
    for (i, a) in ms.iter().enumerate() {
        for b in &ms[i + 1..] {
            assert_eq!(
                api_pair(&view, &a.id, &b.id),
                pair(&view, &a.id, &b.id),
                "{a:?} {b:?}"
            );
        }
    }
    assert_eq!(api_pair(&view, &ann.id, &bea.id), (1, 2, 3));
    assert_eq!(api_pair(&view, &ann.id, &cid.id), (0, 2, 2));
    assert_eq!(api_pair(&view, &cid.id, &dee.id), (1, 0, 1));
    // The chart: one point per rated game, each naming its members' ratings after it.
    let history = view["history"].as_array().unwrap();
    assert_eq!(history.len(), 3);
    assert_eq!(history[0]["game"], g1.as_str());
    assert_eq!(history[0]["ratings"].as_object().unwrap().len(), 4);
    assert_eq!(history[1]["ratings"].as_object().unwrap().len(), 2);
    assert_eq!(
        history[2]["ratings"][&ann.id],
        standing(&view, ann)["rating"],
        "the last point is the rating"
    );
    assert_eq!(view["anchors"]["medium"], json!(25.0));

    // Exports.
    let (s, head, csv) = http_with(
        addr,
        "GET",
        &format!("{path}/standings.csv"),
        None,
        &format!("Authorization: Bearer {}\r\n", ann.key),
    )
    .await;
    assert_eq!(s, 200);
    assert!(head.contains("text/csv"), "{head}");
    assert!(csv.starts_with("rank,member,name,status,rating"), "{csv}");
    assert_eq!(csv.lines().count(), 5);
    let (s, _, csv) = http_with(
        addr,
        "GET",
        &format!("{path}/games.csv"),
        None,
        &format!("Authorization: Bearer {}\r\n", ann.key),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(csv.lines().count(), 1 + 4 * 4);

    // Renaming: the creator only.
    let (s, b) = send_keyed(
        addr,
        "PATCH",
        &path,
        Some(&json!({"name": "Jeudi"})),
        &bea.key,
    )
    .await;
    assert_api_error(s, &b, 403, "forbidden");
    let (s, b) = send_keyed(addr, "PATCH", &path, Some(&json!({"name": "  "})), &ann.key).await;
    assert_api_error(s, &b, 400, "bad_request");
    let (s, b) = send_keyed(
        addr,
        "PATCH",
        &path,
        Some(&json!({"name": "Jeudi"})),
        &ann.key,
    )
    .await;
    assert_eq!((s, &b["name"]), (200, &json!("Jeudi")));
    // Leaving and removing: the key stops working, the games and standings stay.
    let (s, b) = send_keyed(
        addr,
        "DELETE",
        &format!("{path}/members/{}", dee.id),
        None,
        &bea.key,
    )
    .await;
    assert_api_error(s, &b, 403, "forbidden");
    let (s, b) = send_keyed(
        addr,
        "DELETE",
        &format!("{path}/members/{}", dee.id),
        None,
        &dee.key,
    )
    .await;
    assert_eq!((s, &b["status"]), (200, &json!("left")), "{b}");
    let (s, b) = get_keyed(addr, &path, &dee.key).await;
    assert_api_error(s, &b, 403, "bad_key");
    let (s, b) = send_keyed(
        addr,
        "DELETE",
        &format!("{path}/members/{}", bea.id),
        None,
        &ann.key,
    )
    .await;
    assert_eq!((s, &b["status"]), (200, &json!("removed")), "{b}");
    let (s, after) = get_keyed(addr, &path, &cid.key).await;
    assert_eq!(s, 200);
    assert_eq!(after["name"], "Jeudi");
    assert_eq!(standing(&after, dee)["status"], "left");
    assert_eq!(standing(&after, bea)["status"], "removed");
    assert_eq!(standing(&after, dee)["games"], 1);
    assert_eq!(after["head_to_head"], view["head_to_head"]);
    assert_eq!(game_in(&after, &g1)["seats"][3]["member"], dee.id.as_str());
    // A name of one who left may be taken again (by a new member).
    let (s, b) = post_json(addr, &join, &json!({"invite": invite, "name": "Dee"})).await;
    assert_eq!(s, 201, "{b}");
    // A new invite: the old link stops working.
    let (s, b) = send_keyed(addr, "POST", &format!("{path}/invite"), None, &ann.key).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = post_json(addr, &join, &json!({"invite": invite, "name": "Fay"})).await;
    assert_api_error(s, &b, 403, "bad_invite");

    // The admin's recomputation from the logs finds what is stored and served.
    let report = djambi_server::circle::recompute::recompute(&server.state.store, None, false)
        .await
        .unwrap();
    assert_eq!(report.circles, 2);
    assert_eq!(report.games, 3);
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    server.stop().await;

    // The same as the `djambi-server circles recompute` command, on the database at rest;
    // then a tampered place is found and repaired.
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_djambi-server"))
            .args([
                "--database-url",
                &db.url(),
                "--log",
                "warn",
                "circles",
                "recompute",
            ])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("2 circle(s), 3 finished game(s)"), "{text}");
    assert!(text.contains("as stored and served"), "{text}");
    tamper(&db.url(), &g1).await;
    let out = run(&["--circle", &circle]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains(&format!("game {g1}: stored places")),
        "{text}"
    );
    assert!(text.contains("standings served differ"), "{text}");
    let out = run(&["--repair"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 game(s) repaired"));
    let out = run(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Swaps two seats' places of a stored game (as a bug or a hand in the database would).
async fn tamper(url: &str, game: &str) {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let row = sqlx::query("SELECT places FROM circle_places WHERE game_id = $1")
        .bind(game)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let mut places: Value = serde_json::from_str(&row.get::<String, _>(0)).unwrap();
    let first = places[0]["place"].clone();
    places[0]["place"] = places[1]["place"].clone();
    places[1]["place"] = first;
    sqlx::query("UPDATE circle_places SET places = $1 WHERE game_id = $2")
        .bind(places.to_string())
        .bind(game)
        .execute(&mut conn)
        .await
        .unwrap();
}
