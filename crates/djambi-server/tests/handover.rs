//! How games move between nodes (docs/SCALING.md), with several nodes in this process over one
//! Postgres database and the local NATS server: a node that stops hands its games to the others
//! at once, its sockets on other nodes' games included; a game of bots goes on, taken over by
//! another node's watchdog; a node cut off from Postgres stops within its lease and the others
//! take over.
//!
//! Needs `DJAMBI_TEST_POSTGRES_URL` and `DJAMBI_TEST_NATS_URL` (skipped without them, failing
//! with `DJAMBI_REQUIRE_NATS=1`, as in CI).

mod common;

use std::time::{Duration, Instant};

use common::cluster::*;
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_stops_hands_its_games_to_the_others() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    let (id, tokens) = standard_game(a.addr).await;
    let mut players = seats(&[a.addr, b.addr], &id, &tokens).await;
    let played = play_turns(&mut players, 6).await;
    let v = played.last().unwrap().1;
    let (node_a, epoch_a) = owner(&url, &id).await;

    // a stops (SIGTERM-like): every socket of the game, on a and on b, is told to reconnect.
    let b_addr = b.addr;
    a.stop().await;
    for ws in &mut players {
        loop {
            match ws.try_recv(WAIT).await {
                Some(Ok(m)) if m["type"] == "restarting" => {}
                Some(Ok(_)) => continue,
                Some(Err(close)) => {
                    assert_eq!(close, "1012 server restarting");
                    break;
                }
                None => panic!("no close after the owner stopped"),
            }
        }
    }
    // They come back on b, which takes the game at once (it was released), and play on.
    let mut players2 = Vec::new();
    for (token, old) in tokens.iter().zip(&players) {
        players2.push(rejoin(b_addr, &id, token, v, old.next_ack).await);
    }
    let (node_b, epoch_b) = owner(&url, &id).await;
    assert_ne!(node_b, node_a);
    assert!(node_b.unwrap().starts_with("b-"));
    assert_eq!(epoch_b, epoch_a + 1, "each take adds one to the epoch");
    let more = play_turns(&mut players2, 4).await;
    assert_eq!(
        more.first().unwrap().1,
        v + 1,
        "nothing lost, nothing twice"
    );
    assert_eq!(stored_versions(&url, &id).await, more.last().unwrap().1);
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgres_stops_within_its_lease_and_the_others_take_over() {
    let Some((db, nats)) = cluster_db().await else {
        return;
    };
    // b (the test's own role) first: it migrates the database, so a's role owns nothing.
    let b = node(&db.url(), &nats, "b", 2).await;
    let role = NodeRole::create(&db).await;
    let a_url = role.url(&db);
    let a = node(&a_url, &nats, "a", 2).await;
    let url = db.url();
    let (id, tokens) = standard_game(a.addr).await;
    let mut players = seats(&[a.addr], &id, &tokens).await;
    let played = play_turns(&mut players, 4).await;
    let v = played.last().unwrap().1;
    let (node_a, epoch_a) = owner(&url, &id).await;
    assert!(node_a.as_deref().unwrap().starts_with("a-"));

    // Cut a off from the database.
    let cut = std::time::Instant::now();
    role.cut().await;
    // Within its lease a stops acting: its game's sockets are closed, it is not ready.
    for ws in &mut players {
        let mut closed = false;
        while let Some(next) = ws.try_recv(Duration::from_secs(4)).await {
            if let Err(reason) = next {
                assert!(reason.starts_with("1012"), "{reason}");
                closed = true;
                break;
            }
        }
        assert!(closed, "a's socket stayed open after a lost its lease");
    }
    let stopped = cut.elapsed();
    assert!(
        stopped < Duration::from_millis(2500),
        "a acted {stopped:?} after being cut off"
    );
    let (status, _) = http(a.addr, "GET", "/readyz", None).await;
    assert_eq!(status, 503);

    // The others take the game over once a's lease has expired, and play goes on there.
    eventually("b takes the game over", Duration::from_secs(10), || async {
        owner(&url, &id)
            .await
            .0
            .is_some_and(|n| n.starts_with("b-"))
    })
    .await;
    assert!(owner(&url, &id).await.1 > epoch_a);
    let mut players2 = Vec::new();
    for (token, old) in tokens.iter().zip(&players) {
        players2.push(rejoin(b.addr, &id, token, v, old.next_ack).await);
    }
    let more = play_turns(&mut players2, 3).await;
    assert_eq!(more[0].1, v + 1);

    // a comes back as a new incarnation, and serves the game's sockets from b.
    role.heal().await;
    eventually("a is ready again", Duration::from_secs(10), || async {
        http(a.addr, "GET", "/readyz", None).await.0 == 200
    })
    .await;
    let (mut on_a, first) = Ws::join(a.addr, &id, Some(&tokens[0]), None).await;
    assert_eq!(first["type"], "snapshot", "{first}");
    assert_eq!(first["v"], more.last().unwrap().1);
    let (node_now, _) = owner(&url, &id).await;
    assert!(node_now.unwrap().starts_with("b-"), "b still runs it");
    on_a.send(&json!({"type": "ping"})).await;
    assert_eq!(on_a.recv_type("pong").await["type"], "pong");
    let (_, metrics) = http(a.addr, "GET", "/metrics", None).await;
    assert!(
        metrics.contains("djambi_cluster_lease_losses_total 1\n"),
        "{metrics}"
    );
    a.stop().await;
    b.stop().await;
    drop(role);
}

/// A node that stops tells its sockets on games other nodes run to reconnect too (no actor of
/// its own would), so its stop takes no longer than its own games' commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_stops_closes_its_sockets_on_other_nodes_games_at_once() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    let (id, tokens) = standard_game(a.addr).await;
    assert!(owner(&url, &id).await.0.unwrap().starts_with("a-"));
    // Every seat and a spectator on b: all of them mirrored from a.
    let mut players = seats(&[b.addr], &id, &tokens).await;
    let (mut spectator, _) = Ws::join(b.addr, &id, None, None).await;
    play_turns(&mut players, 2).await;
    let started = Instant::now();
    b.stop().await;
    let took = started.elapsed();
    for ws in players.iter_mut().chain([&mut spectator]) {
        let mut told = false;
        loop {
            match ws.try_recv(WAIT).await {
                Some(Ok(m)) => told |= m["type"] == "restarting",
                Some(Err(close)) => {
                    assert_eq!(close, "1012 server restarting");
                    break;
                }
                None => panic!("b's socket stayed open"),
            }
        }
        assert!(told, "no `restarting` before the close");
    }
    assert!(took < Duration::from_secs(5), "b took {took:?} to stop");
    a.stop().await;
}

/// A game of bots has no player to come back for it: when its node stops, another node's
/// watchdog takes it over, and the bots go on there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_bots_goes_on_on_another_node_when_its_node_stops() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    // Bots that think half a second a turn: the game lasts long enough to be stopped midway.
    let bots = json!({"r": "hard", "b": "hard", "y": "hard", "g": "hard"});
    let (status, created) = post_json(
        a.addr,
        "/api/games",
        &json!({"players": 4, "bots": bots, "bot_movetime_ms": 500}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let version = |addr| {
        let id = id.clone();
        async move { get_json(addr, &format!("/api/games/{id}")).await.1["v"].as_u64() }
    };
    eventually("the bots play on a", Duration::from_secs(10), || async {
        version(a.addr).await.is_some_and(|v| v >= 3)
    })
    .await;
    let b_addr = b.addr;
    a.stop().await;
    let stopped_at = stored_versions(&url, &id).await;
    let status = query_one(&url, &format!("SELECT status FROM games WHERE id = '{id}'")).await;
    assert_eq!(
        status.as_deref(),
        Some("live"),
        "the game ended before its node stopped"
    );
    eventually("the bots play on b", Duration::from_secs(10), || async {
        owner(&url, &id)
            .await
            .0
            .is_some_and(|n| n.starts_with("b-"))
            && stored_versions(&url, &id).await >= stopped_at + 3
    })
    .await;
    assert!(version(b_addr).await.unwrap() >= stopped_at + 3);
    b.stop().await;
}
