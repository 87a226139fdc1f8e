//! Circles over several nodes (issue 47, docs/SCALING.md): two nodes in this process over one
//! Postgres database and the local NATS server. A circle made on one node is joined and read
//! on the other; a circle game owned by node a gets its members' seats through node b (the
//! claim crosses to the owner over NATS, as every seat call does); its end, played from sockets
//! on both nodes, shows in the standings read on either node, which agree.
//!
//! Needs `DJAMBI_TEST_POSTGRES_URL` and `DJAMBI_TEST_NATS_URL` (skipped without them, failing
//! with `DJAMBI_REQUIRE_NATS=1`, as in CI).

use std::time::{Duration, Instant};

use crate::common::circle::*;
use crate::common::cluster::*;
use crate::common::*;
use serde_json::{Value, json};

async fn read(addr: std::net::SocketAddr, circle: &str, key: &str) -> Value {
    let (s, _, body) = http_with(
        addr,
        "GET",
        &format!("/api/circles/{circle}"),
        None,
        &format!("Authorization: Bearer {key}\r\n"),
    )
    .await;
    assert_eq!(s, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_circle_reads_and_rates_the_same_on_every_node() {
    let Some((_db, url, a, b)) = two_nodes().await else {
        return;
    };
    // Made on a, joined on b.
    let joiners = [("Bea", b.addr), ("Cid", b.addr), ("Dee", a.addr)];
    let (c, _, members) = form_circle(a.addr, "Across", &joiners).await;
    let circle = c["id"].as_str().unwrap().to_string();
    // A game made on a (so a owns it); every member takes a seat through b.
    let (s, g) = post_json(
        a.addr,
        "/api/games",
        &json!({"players": 4, "circle": {"id": circle, "key": members[0].key}}),
    )
    .await;
    assert_eq!(s, 201, "{g}");
    let game = g["id"].as_str().unwrap().to_string();
    assert!(owner(&url, &game).await.0.unwrap().starts_with("a-"));
    let mut tokens = Vec::new();
    for (i, Member { id, key }) in members.iter().enumerate() {
        let (s, seat) = post_json(
            b.addr,
            &format!("/api/games/{game}/seats"),
            &json!({"member": {"circle": circle, "id": id, "key": key}}),
        )
        .await;
        assert_eq!(s, 200, "{seat}");
        assert_eq!(seat["player"], ["r", "b", "y", "g"][i]);
        tokens.push(seat["token"].as_str().unwrap().to_string());
    }
    // A second seat for Ann, through b: the owner refuses it.
    let (s, e) = post_json(
        b.addr,
        &format!("/api/games/{game}/seats"),
        &json!({"member": {"circle": circle, "id": members[0].id, "key": members[0].key}}),
    )
    .await;
    assert_api_error(s, &e, 409, "member_seated");
    let (_, snap) = get_json(b.addr, &format!("/api/games/{game}")).await;
    assert_eq!(snap["seats"][3]["member"], members[3].id.as_str());

    // Blue resigns on b, green on a, red on b: yellow (Cid) wins.
    for (seat, node) in [(1, b.addr), (3, a.addr), (0, b.addr)] {
        let (mut ws, _) = Ws::join(node, &game, Some(&tokens[seat]), None).await;
        assert_eq!(ws.command(json!({"type": "resign"})).await["type"], "ack");
        ws.close().await;
    }
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, snap) = get_json(b.addr, &format!("/api/games/{game}")).await;
        if snap["status"] == "finished" {
            break;
        }
        assert!(Instant::now() < until, "{snap}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Read on b first (it computes and stores the places), then on a: the same page.
    let on_b = read(b.addr, &circle, &members[1].key).await;
    let on_a = read(a.addr, &circle, &members[1].key).await;
    assert_eq!(on_b, on_a);
    let places = &on_b["games"][0]["places"];
    assert_eq!(places, &json!({"r": 2, "b": 4, "y": 1, "g": 3}));
    assert_eq!(
        on_b["members"][0]["id"],
        members[2].id.as_str(),
        "Cid leads"
    );
    assert_eq!(on_b["head_to_head"].as_array().unwrap().len(), 6);
    a.stop().await;
    b.stop().await;
}
