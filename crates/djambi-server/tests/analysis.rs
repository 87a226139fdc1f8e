//! The engine's analysis of finished games (`GET /api/games/{id}/analysis`) against the real
//! app: computed once (concurrent first requests included) and stored, so a restart serves it
//! without computing it again; only finished games; a per-address budget; a bounded queue.

mod common;

use std::time::{Duration, Instant};

use common::*;
use djambi_core::{GameRecord, Position};
use serde_json::{Value, json};

/// The moves of a 14-turn game from the standard start (played by random bots), then three
/// resignations: red wins.
const MOVES: [(&str, &str); 14] = [
    ("r", "c9-d9"),
    ("b", "g8-f7"),
    ("y", "h3-h4"),
    ("g", "c3-f3"),
    ("r", "d9-f7@f9"),
    ("b", "h8-c8@g5"),
    ("y", "g1-f1"),
    ("g", "b2-g7@b2"),
    ("r", "g5-g3@h8"),
    ("b", "c8-b8@e6"),
    ("y", "g2-g3@a4"),
    ("g", "g7-g9@c5"),
    ("r", "f7-h7@d9"),
    ("b", "b8-b7@c6"),
];

/// The finished game's record (NOTATION §4).
fn finished_record() -> Value {
    let mut events: Vec<Value> = MOVES
        .iter()
        .enumerate()
        .map(|(i, (p, m))| json!({"turn": i + 1, "player": p, "move": m}))
        .collect();
    for p in ["y", "b", "g"] {
        events.push(json!({ "resign": p }));
    }
    json!({
        "format": "djambi-game/1",
        "rules": {},
        "start": Position::new().to_dpn(),
        "events": events,
    })
}

/// Imports the finished game: its id.
async fn finished_game(addr: std::net::SocketAddr) -> String {
    let (status, created) = post_json(addr, "/api/games/import", &finished_record()).await;
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_string()
}

/// Asks for the analysis until it is done (polling its progress): the body as sent.
async fn analysis_done(addr: std::net::SocketAddr, id: &str) -> String {
    let path = format!("/api/games/{id}/analysis");
    let since = Instant::now();
    loop {
        let (status, body) = http(addr, "GET", &path, None).await;
        match status {
            200 => return body,
            202 => {
                let progress: Value = serde_json::from_str(&body).unwrap();
                assert!(
                    matches!(progress["status"].as_str(), Some("pending" | "running")),
                    "{progress}"
                );
                assert_eq!(progress["game"], id);
                assert!(
                    progress["done"].as_u64().unwrap() <= progress["total"].as_u64().unwrap()
                        || progress["total"] == 0,
                    "{progress}"
                );
            }
            _ => panic!("{status}: {body}"),
        }
        assert!(
            since.elapsed() < Duration::from_secs(120),
            "no analysis in time"
        );
        // Polls spend the address's analysis budget (1 unit each, 1 a second back): every
        // 250 ms keeps a few seconds of polling within it, as the page's 1.5 s does forever.
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// An analysis answer says what the protocol says, about this game's turns.
fn check_analysis(body: &str, id: &str) {
    let a: Value = serde_json::from_str(body).unwrap();
    assert_eq!(a["status"], "done");
    assert_eq!(a["game"], id);
    assert_eq!(a["model"], "maxn1-softmax-1");
    let floats = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let start = floats(&a["start"]);
    assert!((start.iter().sum::<f64>() - 1.0).abs() < 0.001, "{start:?}");
    assert!(start.iter().all(|c| (0.2..0.3).contains(c)), "{start:?}");
    let turns = a["turns"].as_array().unwrap();
    let chances = a["chances"].as_array().unwrap();
    // Each player's accuracy, 0 to 100: all four played.
    let accuracy = floats(&a["accuracy"]);
    assert_eq!(accuracy.len(), 4);
    assert!(
        accuracy.iter().all(|x| (0.0..=100.0).contains(x)),
        "{accuracy:?}"
    );
    let mut previous = start;
    assert_eq!((turns.len(), chances.len()), (MOVES.len(), MOVES.len()));
    let mut pos = Position::new();
    for (i, (turn, (player, played))) in turns.iter().zip(MOVES).enumerate() {
        // Imported events are versions 1, 2, …: a turn's `v` is its event's.
        assert_eq!(turn["v"], i + 1, "{turn}");
        assert_eq!(turn["turn"], i + 1, "{turn}");
        assert_eq!(turn["player"], player, "{turn}");
        assert_eq!(turn["played"], played, "{turn}");
        let best = turn["best"].as_str().unwrap();
        assert!(
            pos.parse_turn(best).is_ok(),
            "the engine's choice is legal: {turn}"
        );
        for field in ["before", "after", "kept"] {
            let x = turn[field].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{turn}");
        }
        // One truth per position: `before` is what the turn before left the mover, and the
        // engine's choice keeps at least what the turn played does.
        let mover = "rbyg".find(player).unwrap();
        assert_eq!(turn["before"].as_f64().unwrap(), previous[mover], "{turn}");
        assert!(
            turn["kept"].as_f64().unwrap() >= turn["after"].as_f64().unwrap(),
            "{turn}"
        );
        let label = turn["label"].as_str().unwrap();
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"].contains(&label),
            "{turn}"
        );
        // Every player's chance after the turn, the mover's being `after`; they add up to 1.
        let c = floats(&chances[i]);
        assert_eq!(c[mover], turn["after"].as_f64().unwrap(), "{i}: {c:?}");
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 0.001, "{i}: {c:?}");
        previous = c;
        pos.play(&pos.parse_turn(played).unwrap()).unwrap();
    }
}

#[tokio::test]
async fn an_analysis_is_computed_once_stored_and_kept_across_a_restart() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let id = finished_game(addr).await;
    let path = format!("/api/games/{id}/analysis");

    // Four first requests at once: each is told it is on its way; one computation starts.
    let (a, b, c, d) = tokio::join!(
        get_json(addr, &path),
        get_json(addr, &path),
        get_json(addr, &path),
        get_json(addr, &path)
    );
    for (status, progress) in [a, b, c, d] {
        assert_eq!(status, 202, "{progress}");
        assert_eq!(progress["game"], id.as_str());
    }
    let body = analysis_done(addr, &id).await;
    check_analysis(&body, &id);
    let stored = server.state.store.load_analysis(id.parse().unwrap()).await;
    let stored = stored.unwrap().expect("stored");
    assert_eq!(stored.body, body);

    // Asked again: the stored one, the same to the byte, never computed again.
    for _ in 0..3 {
        let (status, again) = http(addr, "GET", &path, None).await;
        assert_eq!((status, again.as_str()), (200, body.as_str()));
    }
    assert_eq!(server.state.analyses.computed(), 1, "computed once");
    let still = server.state.store.load_analysis(id.parse().unwrap()).await;
    assert_eq!(still.unwrap().unwrap().created_at, stored.created_at);
    server.stop().await;

    // After a restart: served from the database at the first request.
    let server = TestServer::start(&db).await;
    let (status, again) = http(server.addr, "GET", &path, None).await;
    assert_eq!((status, again.as_str()), (200, body.as_str()));
    assert_eq!(server.state.analyses.computed(), 0, "not computed again");
    server.stop().await;
}

#[tokio::test]
async fn looking_without_starting_starts_nothing() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let id = finished_game(addr).await;
    let look = format!("/api/games/{id}/analysis?start=false");
    for _ in 0..2 {
        let (status, body) = get_json(addr, &look).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            json!({"status": "not_started", "game": id, "done": 0, "total": 0})
        );
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.state.analyses.computed(), 0, "nothing was started");
    // Started by a request that may start it; then looking sees it on its way, then done.
    let (status, _) = get_json(addr, &format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, 202);
    let body = analysis_done(addr, &id).await;
    let (status, looked) = http(addr, "GET", &look, None).await;
    assert_eq!((status, looked), (200, body));
    // Looking at a game that is not finished, or not there, says so as starting would.
    let (live, _) = standard_game(addr).await;
    let (status, body) = get_json(addr, &format!("/api/games/{live}/analysis?start=false")).await;
    assert_api_error(status, &body, 409, "not_finished");
    let unknown = uuid::Uuid::new_v4();
    let (status, body) =
        get_json(addr, &format!("/api/games/{unknown}/analysis?start=false")).await;
    assert_api_error(status, &body, 404, "not_found");
    let (status, body) = get_json(addr, &format!("/api/games/{id}/analysis?begin=1")).await;
    assert_api_error(status, &body, 400, "bad_request");
    server.stop().await;
}

#[tokio::test]
async fn only_finished_games_are_analysed() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (live, _) = standard_game(addr).await;
    let (status, body) = get_json(addr, &format!("/api/games/{live}/analysis")).await;
    assert_api_error(status, &body, 409, "not_finished");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only a finished game"),
        "{body}"
    );
    let unknown = uuid::Uuid::new_v4();
    let (status, body) = get_json(addr, &format!("/api/games/{unknown}/analysis")).await;
    assert_api_error(status, &body, 404, "not_found");
    let (status, body) = get_json(addr, "/api/games/not-a-game/analysis").await;
    assert_api_error(status, &body, 404, "not_found");
    // A record still being played, imported, is not finished either.
    let mut running = finished_record();
    running["events"].as_array_mut().unwrap().truncate(3);
    let (status, created) = post_json(addr, "/api/games/import", &running).await;
    assert_eq!(status, 201, "{created}");
    let path = format!("/api/games/{}/analysis", created["id"].as_str().unwrap());
    let (status, body) = get_json(addr, &path).await;
    assert_api_error(status, &body, 409, "not_finished");
    assert_eq!(server.state.analyses.computed(), 0);
    server.stop().await;
}

#[tokio::test]
async fn analysis_requests_have_a_budget_per_address() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.analysis_burst = 12;
        c.budgets.analysis_per_minute = 1;
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
    })
    .await;
    let addr = server.addr;
    let id = finished_game(addr).await;
    let path = format!("/api/games/{id}/analysis");
    // Starting costs 10 units, each poll 1: 12 units are one start and two polls.
    for _ in 0..3 {
        let (status, body) = get_json(addr, &path).await;
        assert!(status == 202 || status == 200, "{status} {body}");
    }
    let (status, head, body) = http_full(addr, "GET", &path, None).await;
    assert_rate_limited(status, &head, &body);
    // Another address has its own budget.
    let (status, _, _) =
        http_with(addr, "GET", &path, None, "X-Forwarded-For: 203.0.113.9\r\n").await;
    assert_ne!(status, 429);
    server.stop().await;
}

#[tokio::test]
async fn a_full_queue_is_refused_as_busy_with_when_to_retry() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.analysis.analysis_queue = 1;
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
    })
    .await;
    let addr = server.addr;
    let first = finished_game(addr).await;
    let second = finished_game(addr).await;
    // The bot threads busy, so the first is still on its way when the second comes.
    let hold = server.hold_bots().await;
    let (status, body) = get_json(addr, &format!("/api/games/{first}/analysis")).await;
    assert_eq!(status, 202, "{body}");
    // Another address (its own share is free: the queue itself is full).
    let (status, head, body) = http_with(
        addr,
        "GET",
        &format!("/api/games/{second}/analysis"),
        None,
        "X-Forwarded-For: 203.0.113.9\r\n",
    )
    .await;
    assert_api_error(
        status,
        &serde_json::from_str(&body).unwrap(),
        503,
        "unavailable",
    );
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 30"),
        "{head}"
    );
    // The one on its way is still answered with its progress.
    let (status, body) = get_json(addr, &format!("/api/games/{first}/analysis")).await;
    assert_eq!(status, 202, "{body}");
    drop(hold);
    server.stop().await;
}

#[tokio::test]
async fn the_store_keeps_the_first_analysis_written() {
    let mut dbs = vec![TestDb::sqlite()];
    dbs.extend(TestDb::postgres().await);
    for db in &dbs {
        let server = TestServer::start(db).await;
        let id = finished_game(server.addr).await.parse().unwrap();
        let store = &server.state.store;
        let first = djambi_server::store::StoredAnalysis {
            movetime_ms: 100,
            body: r#"{"first":true}"#.into(),
            created_at: 1,
        };
        let second = djambi_server::store::StoredAnalysis {
            movetime_ms: 5,
            body: r#"{"second":true}"#.into(),
            created_at: 2,
        };
        assert!(store.save_analysis(id, &first).await.unwrap());
        // Another node that computed it at the same time: its own is not written.
        assert!(!store.save_analysis(id, &second).await.unwrap());
        assert_eq!(store.load_analysis(id).await.unwrap(), Some(first));
        assert_eq!(
            store.load_analysis(uuid::Uuid::new_v4()).await.unwrap(),
            None
        );
        server.stop().await;
    }
}

/// The record of a game is what the analysis judged: its turns replay from the start.
#[test]
fn the_finished_record_replays() {
    let record: GameRecord = serde_json::from_value(finished_record()).unwrap();
    let game = djambi_core::Game::from_record(&record).unwrap();
    assert!(game.position().is_game_over());
}

#[test]
fn golden_files_pin_the_analysis_bodies() {
    use djambi_core::Army;
    use djambi_server::protocol::analysis::{
        AnalysisProgress, AnalysisStatus, AnalysisView, Chances, TurnVerdict,
    };
    let game = "6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f".parse().unwrap();
    let mut failures = Vec::new();
    let progress = AnalysisProgress {
        status: AnalysisStatus::Running,
        game,
        done: 12,
        total: 40,
    };
    golden::check(
        "http_analysis_progress",
        serde_json::to_value(&progress).unwrap(),
        &mut failures,
    );
    let verdict =
        |v, player, played: &str, best: &str, [before, after, kept]: [f64; 3], label, chief| {
            TurnVerdict {
                v,
                turn: v as u32,
                player,
                played: played.into(),
                best: best.into(),
                before,
                after,
                kept,
                label,
                chief,
            }
        };
    let view = AnalysisView {
        status: AnalysisStatus::Done,
        game,
        model: "maxn1-softmax-1",
        start: Chances([0.2508, 0.2497, 0.2497, 0.2498]),
        turns: vec![
            verdict(
                1,
                Army::Red,
                "b7-b5",
                "c7-f4",
                [0.2508, 0.2436, 0.2508],
                "good",
                false,
            ),
            verdict(
                2,
                Army::Blue,
                "h8-g8",
                "h8-g8",
                [0.2521, 0.2561, 0.2561],
                "best",
                false,
            ),
            verdict(
                3,
                Army::Yellow,
                "h3-g4",
                "g2-f1",
                [0.2533, 0.0412, 0.2533],
                "blunder",
                true,
            ),
        ],
        chances: vec![
            Chances([0.2436, 0.2521, 0.2521, 0.2522]),
            Chances([0.2398, 0.2561, 0.2533, 0.2508]),
            Chances([0.3127, 0.3302, 0.0412, 0.3159]),
        ],
        accuracy: [Some(84.2), Some(100.0), Some(3.5), None],
    };
    golden::check(
        "http_analysis",
        serde_json::to_value(&view).unwrap(),
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
