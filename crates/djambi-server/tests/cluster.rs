//! Several nodes in this process over one Postgres database and the local NATS server
//! (docs/SCALING.md): a game is played from sockets on every node, claimed and managed through
//! any node; a stale owner's commit is refused (fencing), and without fencing it would land; a
//! new game is never taken by another node; a server alone refuses a cluster's database. How
//! games move between nodes is in `handover.rs`.
//!
//! Needs `DJAMBI_TEST_POSTGRES_URL` and `DJAMBI_TEST_NATS_URL` (skipped without them, failing
//! with `DJAMBI_REQUIRE_NATS=1`, as in CI).

mod common;

use std::time::Duration;

use common::cluster::*;
use common::*;
use serde_json::{Value, json};

/// Checks that every event a client received is the next version after the one before.
fn assert_contiguous(ws: &Ws) {
    let mut last = None;
    for m in &ws.log {
        let v = m["v"].as_u64();
        match m["type"].as_str() {
            Some("snapshot") => last = v,
            Some("event") => {
                let v = v.unwrap();
                if let Some(before) = last {
                    assert_eq!(v, before + 1, "events out of order: {:?}", ws.log);
                }
                last = Some(v);
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_from_sockets_on_every_node() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    let (id, tokens) = standard_game(a.addr).await;
    let (owner_node, epoch) = owner(&url, &id).await;
    assert!(
        owner_node.unwrap().starts_with("a-"),
        "the creating node owns the game"
    );
    assert_eq!(epoch, 1);

    // Red and yellow on a, blue and green on b; a spectator on b.
    let mut players = seats(&[a.addr, b.addr], &id, &tokens).await;
    let (mut spectator, first) = Ws::join(b.addr, &id, None, None).await;
    assert_eq!(first["type"], "snapshot");
    let played = play_turns(&mut players, 12).await;
    assert_eq!(played.len(), 12);
    let last = played.last().unwrap().1;
    wait_version(&mut spectator, last).await;
    for ws in players.iter().chain([&spectator]) {
        assert_contiguous(ws);
    }
    // The same event text on both nodes.
    let texts = |ws: &Ws| -> Vec<Value> {
        ws.of_type("event")
            .into_iter()
            .filter(|e| e["v"].as_u64() <= Some(last))
            .collect()
    };
    assert_eq!(texts(&players[0]).len(), texts(&players[1]).len());
    assert_eq!(texts(&spectator), texts(&players[2]));

    // A whisper from blue (on b) to red (on a): only the two of them read it.
    let answer = players[1]
        .command(json!({"type": "whisper", "to": "r", "text": "between us"}))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let whisper = players[0].recv_type("chat").await;
    assert_eq!(whisper["text"], "between us");
    let others = spectator.drain(Duration::from_millis(400)).await;
    assert!(
        others.iter().all(|m| m["text"] != "between us"),
        "a spectator on b read a whisper: {others:?}"
    );

    // Lists on either node show who is connected, wherever the sockets are.
    for addr in [a.addr, b.addr] {
        let mut connected = false;
        for _ in 0..50 {
            let (status, list) = get_json(addr, &format!("/api/games?ids={id}")).await;
            assert_eq!(status, 200);
            let game = &list["games"][0];
            connected = game["seats"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["connected"] == true)
                && game["spectators"] == 1;
            if connected {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            connected,
            "the list on {addr} does not show everyone connected"
        );
    }

    // The snapshot over HTTP is the same on both nodes.
    let (_, from_a) = get_json(a.addr, &format!("/api/games/{id}")).await;
    let (_, from_b) = get_json(b.addr, &format!("/api/games/{id}")).await;
    assert_eq!(from_a["v"], from_b["v"]);
    assert_eq!(from_a["dpn"], from_b["dpn"]);
    let (status, record) = get_json(b.addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["events"].as_array().unwrap().len(), 12);

    // A move out of turn from b is refused by the owner, with the current version.
    let mover = to_move(&players[0]).unwrap();
    let idle = if mover == 1 { 3 } else { 1 };
    let answer = players[idle].play("a1-a2").await;
    assert_eq!(answer["code"], "not_your_turn", "{answer}");
    assert!(answer["v"].as_u64().unwrap() >= last, "{answer}");
    let (_, metrics) = http(b.addr, "GET", "/metrics", None).await;
    assert!(
        !metrics.contains("djambi_cluster_requests_total 0\n"),
        "b forwarded nothing"
    );
    assert!(
        metrics.contains("djambi_cluster_lease_valid 1\n"),
        "{metrics}"
    );
    for p in players {
        p.close().await;
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claims_and_the_creators_rights_work_from_any_node() {
    let Some((_db, _url, a, b)) = two_nodes().await else {
        return;
    };
    let (status, created) =
        post_json(a.addr, "/api/games", &json!({"players": 4, "open": true})).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    // A claim without a token through b (the game runs on a).
    let (status, claimed) = post_json(
        b.addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Zoe", "player": "y"}),
    )
    .await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["player"], "y");
    // The same seat again: the owner refuses it, and b says so with the owner's error.
    let (status, again) = post_json(
        b.addr,
        &format!("/api/games/{id}/seats"),
        &json!({"name": "Ann", "player": "y"}),
    )
    .await;
    assert_eq!(status, 409, "{again}");
    assert_eq!(again["error"]["code"], "seat_taken");
    // The claimed token plays on a.
    let (ws, first) = Ws::join(a.addr, &id, claimed["token"].as_str(), None).await;
    assert_eq!(first["you"]["player"], "y", "{first}");
    ws.close().await;
    // The creator cancels through b, with its admin token (a wrong one is refused).
    let (status, _, body) = http_with(
        b.addr,
        "DELETE",
        &format!("/api/games/{id}"),
        None,
        "Authorization: Bearer nope\r\n",
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (status, _, body) = http_with(
        b.addr,
        "DELETE",
        &format!("/api/games/{id}"),
        None,
        &format!("Authorization: Bearer {admin}\r\n"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (_, game) = get_json(a.addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "cancelled");
    a.stop().await;
    b.stop().await;
}

/// A node paused past its lease (as by a long GC pause, or a stopped VM) still believes it owns
/// its game; another node has taken it meanwhile. The paused node's commit must be refused:
/// with `fencing`, it is; the same test without fencing shows the stale commit landing, so the
/// check is what keeps two owners from both committing.
async fn paused_owner(fencing: bool) -> (bool, u64, u64) {
    let Some((db, nats)) = cluster_db().await else {
        return (!fencing, 0, 0);
    };
    let url = db.url();
    let a = node(&url, &nats, "a", 1).await;
    let b = node(&url, &nats, "b", 1).await;
    let (id, tokens) = standard_game(a.addr).await;
    let mut players = seats(&[a.addr], &id, &tokens).await;
    let played = play_turns(&mut players, 2).await;
    let v = played.last().unwrap().1;
    let cluster_a = a.state.cluster.as_ref().unwrap().cluster().clone();
    if !fencing {
        cluster_a.disable_fencing();
    }
    // a pauses: its lease is no longer renewed, and it does not notice.
    cluster_a.lease().freeze(true);
    eventually("b takes the game over", Duration::from_secs(10), || async {
        b.state
            .cluster
            .as_ref()
            .unwrap()
            .adopt(b.state.registry.clone(), 10)
            .await;
        owner(&url, &id)
            .await
            .0
            .is_some_and(|n| n.starts_with("b-"))
    })
    .await;
    // The player to move, still on a, moves: a's actor commits under its old epoch.
    let mover = to_move(&players[0]).unwrap();
    let (_, legal) = players[mover].my_turn().await.unwrap();
    let ack = players[mover].ack();
    players[mover]
        .send(&json!({"type": "move", "turn": legal[0], "ack": ack}))
        .await;
    let answered = loop {
        match players[mover].try_recv(Duration::from_secs(5)).await {
            Some(Ok(m)) if m["ack"] == ack => break Some(m),
            Some(Ok(_)) => continue,
            _ => break None,
        }
    };
    let stored = stored_versions(&url, &id).await;
    let landed = stored > v;
    cluster_a.lease().freeze(false);
    if fencing {
        assert!(
            answered.is_none(),
            "a stale owner acked a move: {answered:?}"
        );
        let (_, metrics) = http(a.addr, "GET", "/metrics", None).await;
        assert!(
            metrics.contains("djambi_cluster_fenced_total 1\n"),
            "{metrics}"
        );
        // The player comes back on b, sends the move again, and b applies it — once.
        let mut back = rejoin(b.addr, &id, &tokens[mover], v, ack).await;
        let answer = back.play(&legal[0]).await;
        assert_eq!(answer["type"], "ack", "{answer}");
        assert_eq!(answer["v"], v + 1);
    }
    a.stop().await;
    b.stop().await;
    (landed, v, stored)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_cannot_commit_after_another_node_took_its_game() {
    let (landed, v, stored) = paused_owner(true).await;
    assert!(
        !landed,
        "a stale owner committed version {stored} after v {v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_fencing_a_paused_owner_commits_behind_the_new_owners_back() {
    let (landed, v, stored) = paused_owner(false).await;
    assert!(
        landed,
        "without fencing the stale commit should land (v {v}, stored {stored}): the fencing test would not catch its absence"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_alone_refuses_a_database_where_nodes_run() {
    let Some((db, nats)) = cluster_db().await else {
        return;
    };
    let a = node(&db.url(), &nats, "a", 5).await;
    let config = djambi_server::Config::for_database(&db.url());
    let refused = djambi_server::AppState::new(config).await;
    let Err(e) = refused else {
        panic!("a server without --nats started beside a cluster node");
    };
    assert!(e.to_string().contains("--nats"), "{e}");
    a.stop().await;
}

/// A game is owned from the transaction that creates it: another node looking for games
/// nobody runs, at the very same moment, never takes a new one (it once could, between the
/// game's row and its ownership: the creating node's actor was then fenced at its first commit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_is_never_taken_by_another_node() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    // b looks for games nobody runs, in a tight loop, from four tasks at once…
    let mut hunters = Vec::new();
    for _ in 0..4 {
        let registry = b.state.registry.clone();
        let node = b.state.cluster.clone().unwrap();
        hunters.push(tokio::spawn(async move {
            let mut taken = 0;
            for _ in 0..300 {
                taken += node.adopt(registry.clone(), 100).await;
            }
            taken
        }));
    }
    // …while a creates games from four clients at once (as many as one address may have
    // waiting for players).
    let mut creators = Vec::new();
    for _ in 0..4 {
        let addr = a.addr;
        creators.push(tokio::spawn(async move {
            let mut ids = Vec::new();
            for _ in 0..5 {
                let (status, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
                assert_eq!(status, 201, "{created}");
                ids.push(created["id"].as_str().unwrap().to_string());
            }
            ids
        }));
    }
    let mut ids = Vec::new();
    for creator in creators {
        ids.extend(creator.await.unwrap());
    }
    let mut taken = 0;
    for hunter in hunters {
        taken += hunter.await.unwrap();
    }
    assert_eq!(taken, 0, "b took games a had just created");
    for id in &ids {
        let (node, epoch) = owner(&url, id).await;
        assert!(node.unwrap().starts_with("a-"), "{id}");
        assert_eq!(epoch, 1, "{id}");
    }
    a.stop().await;
    b.stop().await;
}
