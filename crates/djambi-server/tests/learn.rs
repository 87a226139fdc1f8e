//! Lessons and puzzles over HTTP (issue 22), against the real app: positions outside any game
//! (their legal turns, a turn tried on them and judged by the core, the engine's hint under
//! its own budget), the puzzles (list, one puzzle without its solution, answers, the
//! solution), and the client's pages for them. Bad input is refused with the error shape of
//! PROTOCOL §1 and changes nothing.

mod common;

use common::*;
use djambi_core::{Position, Rules};
use djambi_server::protocol::expand_legal as expand;
use serde_json::{Value, json};

/// Red's Militant on d4, Blue's chief on f6 beyond the empty maze: short lists of turns.
const SMALL: &str = "9/9/9/5Cb3/9/3Mr5/9/9/Cr8 r rb-- - 0 - 0 1";

/// The legal turns of `dpn` as the core lists them, sorted.
fn core_legal(dpn: &str) -> Vec<String> {
    let pos = Position::from_dpn(dpn, Rules::default()).unwrap();
    let mut turns: Vec<String> = pos.legal_turns().iter().map(|t| t.to_string()).collect();
    turns.sort();
    turns
}

/// The turns of a compact legal object, sorted.
fn expanded(legal: &Value) -> Vec<String> {
    let mut turns = expand(legal);
    turns.sort();
    turns
}

#[tokio::test]
async fn a_position_comes_back_canonical_with_its_legal_turns() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    for dpn in [SMALL, djambi_core::START_DPN] {
        let (status, body) = post_json(addr, "/api/positions", &json!({"position": dpn})).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["position"], dpn);
        assert_eq!(body["to_move"], "r");
        assert_eq!(expanded(&body["legal"]), core_legal(dpn));
        assert_eq!(body["result"], Value::Null);
    }
    // A finished game: nobody to move, no turns, its result.
    let over = "Cr8/9/9/9/9/9/9/9/X8 - r--- r 0 - 0 9";
    let (status, body) = post_json(addr, "/api/positions", &json!({"position": over})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["to_move"], Value::Null);
    assert_eq!(body["legal"], json!({}));
    assert_eq!(body["result"], json!({"winner": "r"}));
    server.stop().await;
}

#[tokio::test]
async fn a_bad_position_is_refused_with_the_cores_reason() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    for (body, says) in [
        (
            json!({"position": "Cr9/9/9/9/9/9/9/9/Cb8 r rb-- - 0 - 0 1"}),
            "position: board:",
        ),
        (
            json!({"position": "Cr8/9/9/9/9/9/9/9/Cb8 b rb-- - 0 - 0"}),
            "position: position:",
        ),
        (json!({"position": "x".repeat(600)}), "at most 512 bytes"),
        (json!({"position": 5}), "position"),
        (json!({"dpn": SMALL}), "unknown field"),
        (json!({"position": SMALL, "extra": 1}), "unknown field"),
    ] {
        for path in ["/api/positions", "/api/positions/hint"] {
            let (status, answer) = post_json(addr, path, &body).await;
            assert_api_error(status, &answer, 400, "bad_request");
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(message.contains(says), "{path} {body}: {message}");
        }
    }
    let (status, answer) = http(addr, "POST", "/api/positions", Some("{not json")).await;
    assert_api_error(
        status,
        &serde_json::from_str(&answer).unwrap(),
        400,
        "bad_request",
    );
    server.stop().await;
}

#[tokio::test]
async fn a_turn_is_judged_by_the_core() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // The Militant kills the chief: Blue is out, Red takes its army and wins.
    let (status, played) = post_json(
        addr,
        "/api/positions/play",
        &json!({"position": SMALL, "turn": "D4-F6@A9"}),
    )
    .await;
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["turn"], "d4-f6@a9", "the turn comes back canonical");
    assert_eq!(played["player"], "r");
    assert_eq!(
        played["effects"],
        json!([
            {"type": "moved", "piece": "Mr", "from": "d4", "to": "f6"},
            {"type": "killed", "piece": "Cb", "at": "f6", "by": "Mr"},
            {"type": "eliminated", "player": "b"},
            {"type": "took_control", "player": "r", "armies": ["b"], "from": "b"},
            {"type": "corpse_moved", "from": "f6", "to": "a9"},
            {"type": "game_over", "outcome": {"winner": "r"}}
        ])
    );
    let mut after = Position::from_dpn(SMALL, Rules::default()).unwrap();
    after.play(&after.parse_turn("d4-f6@a9").unwrap()).unwrap();
    assert_eq!(played["position"], after.to_dpn());
    assert_eq!(played["to_move"], Value::Null);
    assert_eq!(played["legal"], json!({}));
    assert_eq!(played["result"], json!({"winner": "r"}));

    // A quiet move: the next player's turns come with it.
    let (status, played) = post_json(
        addr,
        "/api/positions/play",
        &json!({"position": SMALL, "turn": "d4-c4"}),
    )
    .await;
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["to_move"], "b");
    let next = played["position"].as_str().unwrap();
    assert_eq!(expanded(&played["legal"]), core_legal(next));

    // Illegal turns: the core's reason, citing the rule.
    for (turn, says) in [
        ("d4-e5", "only a chief may end a move on the maze (R3.5)"),
        ("d4-d7", "a Militant moves 1 or 2 squares (R3.2)"),
        ("f6-f5", "does not control army b (R2.4)"),
        ("d4-f6", "(R10.1)"),
        ("b1-b2", "b1: no piece there"),
        ("d4+f6", "malformed turn"),
    ] {
        let (status, answer) = post_json(
            addr,
            "/api/positions/play",
            &json!({"position": SMALL, "turn": turn}),
        )
        .await;
        assert_api_error(status, &answer, 422, "illegal");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{turn}: {message}");
    }
    // Bad fields are bad requests, not illegal turns.
    for body in [
        json!({"position": SMALL}),
        json!({"position": SMALL, "turn": "a".repeat(40)}),
        json!({"position": "nonsense", "turn": "d4-c4"}),
    ] {
        let (status, answer) = post_json(addr, "/api/positions/play", &body).await;
        assert_api_error(status, &answer, 400, "bad_request");
    }
    server.stop().await;
}

/// Issue 46: a lesson that asks to see a rule refuse a turn gets the refusal as an answer
/// (200), not as an HTTP error the browser would log; a legal turn is answered as by `play`.
#[tokio::test]
async fn a_turn_tried_is_answered_played_or_refused() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let try_turn = |turn: &str| {
        let body = json!({"position": SMALL, "turn": turn});
        async move { post_json(addr, "/api/positions/try", &body).await }
    };
    let (status, tried) = try_turn("d4-c4").await;
    let (_, played) = post_json(
        addr,
        "/api/positions/play",
        &json!({"position": SMALL, "turn": "d4-c4"}),
    )
    .await;
    assert_eq!((status, &tried), (200, &played));
    for (turn, says) in [
        ("d4-e5", "only a chief may end a move on the maze (R3.5)"),
        ("d4-d7", "a Militant moves 1 or 2 squares (R3.2)"),
        ("d4+f6", "malformed turn"),
    ] {
        let (status, tried) = try_turn(turn).await;
        assert_eq!(status, 200, "{tried}");
        assert_eq!(tried.as_object().unwrap().len(), 1, "{tried}");
        let reason = tried["refused"].as_str().unwrap();
        assert!(reason.contains(says), "{turn}: {reason}");
    }
    // Bad fields are still bad requests.
    let (status, answer) = try_turn(&"a".repeat(40)).await;
    assert_api_error(status, &answer, 400, "bad_request");
    server.stop().await;
}

#[tokio::test]
async fn bodies_past_the_small_limit_are_too_large() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    // Far below the app's limit, far above what a position and a turn take.
    let big = json!({"position": SMALL, "turn": "d4-c4", "pad": "x".repeat(8 * 1024)});
    for path in [
        "/api/positions",
        "/api/positions/play",
        "/api/positions/try",
        "/api/positions/hint",
        "/api/puzzles/p001/answer",
    ] {
        let (status, answer) = post_json(addr, path, &big).await;
        assert_api_error(status, &answer, 413, "too_large");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_hint_is_a_legal_turn_of_the_player_to_move_within_its_budget() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.hint_burst = 2;
        c.budgets.hint_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (status, hint) = post_json(addr, "/api/positions/hint", &json!({"position": SMALL})).await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["player"], "r");
    // The engine sees the kill of the chief (any burial square wins).
    let turn = hint["turn"].as_str().unwrap();
    assert!(turn.starts_with("d4-f6@"), "{hint}");
    assert!(core_legal(SMALL).contains(&turn.to_string()));
    // A finished game has no hint (and spends nothing).
    let over = "Cr8/9/9/9/9/9/9/9/X8 - r--- r 0 - 0 9";
    let (status, answer) = post_json(addr, "/api/positions/hint", &json!({"position": over})).await;
    assert_api_error(status, &answer, 400, "bad_request");
    let (status, _) = post_json(addr, "/api/positions/hint", &json!({"position": SMALL})).await;
    assert_eq!(status, 200);
    // The budget spent: refused, with when to come back; other requests still work.
    let (status, head, body) = http_with(
        addr,
        "POST",
        "/api/positions/hint",
        Some(&json!({"position": SMALL}).to_string()),
        "",
    )
    .await;
    assert_api_error(
        status,
        &serde_json::from_str(&body).unwrap(),
        429,
        "rate_limited",
    );
    assert!(head.to_ascii_lowercase().contains("retry-after:"), "{head}");
    let (status, _) = post_json(addr, "/api/positions", &json!({"position": SMALL})).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn position_requests_have_a_budget() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.positions_burst = 3;
        c.budgets.positions_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let body = json!({"position": SMALL});
    for _ in 0..3 {
        assert_eq!(post_json(addr, "/api/positions", &body).await.0, 200);
    }
    let (status, answer) = get_json(addr, "/api/puzzles").await;
    assert_api_error(status, &answer, 429, "rate_limited");
    server.stop().await;
}

/// The embedded puzzle file, as the server reads it.
fn puzzle_file() -> Value {
    let text = include_str!("../../../data/puzzles.json");
    serde_json::from_str(text).unwrap()
}

#[tokio::test]
async fn puzzles_are_listed_and_served_without_their_solution() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let file = puzzle_file();
    let entries = file["puzzles"].as_array().unwrap();
    let (status, list) = get_json(addr, "/api/puzzles").await;
    assert_eq!(status, 200, "{list}");
    let listed = list["puzzles"].as_array().unwrap();
    assert_eq!(listed.len(), entries.len());
    for (item, entry) in listed.iter().zip(entries) {
        for field in ["id", "theme", "difficulty", "player"] {
            assert_eq!(item[field], entry[field], "{field}");
        }
        assert_eq!(item.as_object().unwrap().len(), 4, "{item}");
    }
    let first = &entries[0];
    let id = first["id"].as_str().unwrap();
    let (status, puzzle) = get_json(addr, &format!("/api/puzzles/{id}")).await;
    assert_eq!(status, 200, "{puzzle}");
    assert_eq!(puzzle["id"], first["id"]);
    assert_eq!(puzzle["position"], first["position"]);
    assert_eq!(puzzle["player"], first["player"]);
    assert_eq!(puzzle["to_move"], first["player"]);
    assert_eq!(puzzle["theme"], first["theme"]);
    assert_eq!(puzzle["difficulty"], first["difficulty"]);
    let dpn = first["position"].as_str().unwrap();
    assert_eq!(expanded(&puzzle["legal"]), core_legal(dpn));
    let text = puzzle.to_string();
    assert!(
        puzzle.get("solution").is_none() && puzzle.get("line").is_none(),
        "{text}"
    );
    for (status, answer) in [
        get_json(addr, "/api/puzzles/p999").await,
        get_json(addr, "/api/puzzles/nothing").await,
        get_json(addr, "/api/puzzles/p999/solution").await,
        post_json(addr, "/api/puzzles/p999/answer", &json!({"turn": "pass"})).await,
    ] {
        assert_api_error(status, &answer, 404, "not_found");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_answer_is_right_or_wrong_and_an_illegal_one_is_refused() {
    let db = TestDb::sqlite();
    // Every puzzle of the file is asked about four times: more than one address's budget.
    let server = TestServer::start_with(&db, |c| c.budgets.unlimited()).await;
    let addr = server.addr;
    let file = puzzle_file();
    for entry in file["puzzles"].as_array().unwrap() {
        let id = entry["id"].as_str().unwrap();
        let path = format!("/api/puzzles/{id}/answer");
        let solution = entry["solution"].as_str().unwrap();
        // The solution, in capitals: right, and written back canonically.
        let (status, answer) =
            post_json(addr, &path, &json!({"turn": solution.to_uppercase()})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            answer,
            json!({"correct": true, "turn": solution, "solution": solution, "line": entry["line"]})
        );
        // Any other legal turn: wrong, and the solution is given.
        let dpn = entry["position"].as_str().unwrap();
        let other = core_legal(dpn).into_iter().find(|t| t != solution).unwrap();
        let (status, answer) = post_json(addr, &path, &json!({"turn": other})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["correct"], false);
        assert_eq!(answer["turn"], other);
        assert_eq!(answer["solution"], solution);
        // Not a legal turn: the core's reason.
        let (status, answer) = post_json(addr, &path, &json!({"turn": "e5-e5"})).await;
        assert_api_error(status, &answer, 422, "illegal");
        let (status, solved) = get_json(addr, &format!("/api/puzzles/{id}/solution")).await;
        assert_eq!(status, 200);
        assert_eq!(solved, json!({"solution": solution, "line": entry["line"]}));
    }
    let (status, answer) = post_json(addr, "/api/puzzles/p001/answer", &json!({"move": "x"})).await;
    assert_api_error(status, &answer, 400, "bad_request");
    server.stop().await;
}

#[tokio::test]
async fn the_lesson_and_puzzle_pages_are_the_client() {
    let web = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"));
    let index = std::fs::read_to_string(web.join("index.html")).unwrap();
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.web_dir = Some(web)).await;
    let addr = server.addr;
    for path in ["/learn", "/learn/militant", "/puzzles", "/puzzles/p001"] {
        let (status, head, body) = http_full(addr, "GET", path, None).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            head.to_ascii_lowercase().contains("text/html"),
            "{path}: {head}"
        );
        // The same page as `/` (its files under the client's hash).
        assert!(body.starts_with("<!doctype html>"), "{path}");
        assert_eq!(body.lines().count(), index.lines().count(), "{path}");
        let (status, _) = http(addr, "POST", path, Some("{}")).await;
        assert_eq!(status, 405, "{path}");
    }
    server.stop().await;
}
