//! Web Push to a circle's members (issue 47) when a game of the circle is created, end to end:
//! a real server with `--push-allow-loopback` and the test's own push service (the one of
//! tests/push.rs, which checks each push's VAPID JWT and decrypts it as a browser would). The
//! members' browsers subscribe with their keys, under the same budgets as seats' browsers.

#[path = "../push/service.rs"]
mod service;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

use crate::common::circle::*;
use crate::common::*;
use serde_json::json;
use service::PushService;

/// A circle of Ann (its creator), Bea and Cid.
async fn circle(addr: SocketAddr) -> (String, Vec<Member>) {
    let (created, _, members) =
        form_circle(addr, "Les amis", &[("Bea", addr), ("Cid", addr)]).await;
    (created["id"].as_str().unwrap().to_string(), members)
}

async fn new_game(addr: SocketAddr, circle: &str, key: &str) -> String {
    let (s, g) = post_json(
        addr,
        "/api/games",
        &json!({"players": 4, "circle": {"id": circle, "key": key}}),
    )
    .await;
    assert_eq!(s, 201, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// Every push received within `wait` of each other.
async fn received(service: &mut PushService, wait: Duration) -> Vec<service::Received> {
    let mut out = Vec::new();
    while let Some(r) = service.next(wait).await {
        out.push(r);
    }
    out
}

#[tokio::test]
async fn members_who_asked_are_told_of_a_new_circle_game() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.push.push_allow_loopback = true;
        c.push.push_subscribe_burst = 11;
        c.push.push_subscribe_per_minute = 1;
    })
    .await;
    let addr = server.addr;
    let (_, key) = get_json(addr, "/api/push/key").await;
    let mut service = PushService::start(key["key"].as_str().unwrap()).await;
    let (circle, ms) = circle(addr).await;
    let push = format!("/api/circles/{circle}/push");
    let member_id = |i: usize| uuid::Uuid::parse_str(&ms[i].id).unwrap();

    // Each member's browser subscribes with the member's key, in its language.
    for (i, (name, lang)) in [("ann", "en"), ("bea", "fr-FR"), ("cid", "it")]
        .into_iter()
        .enumerate()
    {
        let sub = service.browser(name).subscription(&service);
        let (s, b) = send_keyed(
            addr,
            "POST",
            &push,
            Some(&json!({"subscription": sub, "lang": lang})),
            &ms[i].key,
        )
        .await;
        assert_eq!(s, 201, "{b}");
        assert_eq!(b["member"], ms[i].id.as_str());
    }
    // No key, a wrong key, an endpoint on a private address: refused.
    let sub = service.browser("eve").subscription(&service);
    let (s, b) = post_json(addr, &push, &json!({"subscription": sub})).await;
    assert_api_error(s, &b, 401, "unauthorized");
    let (s, b) = send_keyed(
        addr,
        "POST",
        &push,
        Some(&json!({"subscription": sub})),
        "wrong",
    )
    .await;
    assert_api_error(s, &b, 403, "bad_key");
    let mut private = sub.clone();
    private["endpoint"] = json!("https://10.0.0.1/push/x");
    let (s, b) = send_keyed(
        addr,
        "POST",
        &push,
        Some(&json!({"subscription": private})),
        &ms[1].key,
    )
    .await;
    assert_api_error(s, &b, 400, "bad_request");

    // Ann creates a game: Bea (in French) and Cid (in Italian) are told; Ann, who made it, not.
    let game = new_game(addr, &circle, &ms[0].key).await;
    let pushes = received(&mut service, Duration::from_secs(3)).await;
    let who: BTreeSet<&str> = pushes.iter().map(|p| p.browser.as_str()).collect();
    assert_eq!(who, BTreeSet::from(["bea", "cid"]), "{pushes:?}");
    for p in &pushes {
        assert_eq!(p.payload["kind"], "circle_game");
        assert_eq!(p.payload["game"], game.as_str());
        assert_eq!(p.payload["circle"], circle.as_str());
        assert_eq!(p.payload.as_object().unwrap().len(), 5, "{}", p.payload);
    }
    let bea = pushes.iter().find(|p| p.browser == "bea").unwrap();
    assert_eq!(
        bea.payload["title"],
        "Nouvelle partie dans Les amis — Djambi"
    );
    assert!(
        bea.payload["body"]
            .as_str()
            .unwrap()
            .starts_with("Ann a créé une partie")
    );
    let cid = pushes.iter().find(|p| p.browser == "cid").unwrap();
    assert_eq!(cid.payload["title"], "Nuova partita in Les amis — Djambi");

    // A member keeps at most 5 browsers (the seats' cap): the oldest go.
    for i in 0..6 {
        let sub = service.browser(&format!("bea{i}")).subscription(&service);
        let (s, b) = send_keyed(
            addr,
            "POST",
            &push,
            Some(&json!({"subscription": sub})),
            &ms[1].key,
        )
        .await;
        assert_eq!(s, 201, "{b}");
    }
    assert_eq!(
        server
            .state
            .push
            .member_subscriptions(member_id(1))
            .await
            .unwrap(),
        5
    );
    // The address's budget of subscriptions is spent (11 at once).
    let sub = service.browser("late").subscription(&service);
    let (s, head, body) = http_with(
        addr,
        "POST",
        &push,
        Some(&json!({"subscription": sub}).to_string()),
        &format!("Authorization: Bearer {}\r\n", ms[2].key),
    )
    .await;
    assert_rate_limited(s, &head, &body);

    // Bea leaves: her browsers are forgotten; a new game tells Cid only.
    let (s, _) = send_keyed(
        addr,
        "DELETE",
        &format!("/api/circles/{circle}/members/{}", ms[1].id),
        Some(&json!(null)),
        &ms[1].key,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(
        server
            .state
            .push
            .member_subscriptions(member_id(1))
            .await
            .unwrap(),
        0
    );
    let _ = new_game(addr, &circle, &ms[0].key).await;
    let pushes = received(&mut service, Duration::from_secs(2)).await;
    let who: BTreeSet<&str> = pushes.iter().map(|p| p.browser.as_str()).collect();
    assert_eq!(who, BTreeSet::from(["cid"]), "only Cid is still told");
    server.stop().await;
}

#[tokio::test]
async fn a_member_unsubscribes() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| c.push.push_allow_loopback = true).await;
    let addr = server.addr;
    let (_, key) = get_json(addr, "/api/push/key").await;
    let mut service = PushService::start(key["key"].as_str().unwrap()).await;
    let (circle, ms) = circle(addr).await;
    let push = format!("/api/circles/{circle}/push");
    let sub = service.browser("bea").subscription(&service);
    let (s, _) = send_keyed(
        addr,
        "POST",
        &push,
        Some(&json!({"subscription": sub})),
        &ms[1].key,
    )
    .await;
    assert_eq!(s, 201);
    let (s, _) = send_keyed(
        addr,
        "DELETE",
        &push,
        Some(&json!({"subscription": {"endpoint": sub["endpoint"]}})),
        &ms[1].key,
    )
    .await;
    assert_eq!(s, 204);
    let bea = uuid::Uuid::parse_str(&ms[1].id).unwrap();
    assert_eq!(
        server.state.push.member_subscriptions(bea).await.unwrap(),
        0
    );
    let _ = new_game(addr, &circle, &ms[0].key).await;
    assert!(
        received(&mut service, Duration::from_secs(1))
            .await
            .is_empty()
    );
    server.stop().await;
}
