//! Circles' limits (issue 47) on a real server: the budgets of circles and circle requests per
//! address, the members' cap, wrong invites counted as wrong tokens, bodies and names; and a
//! rematch of a circle game, which keeps its circle and its members.

use crate::common::circle::*;
use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn circles_have_budgets_and_limits() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, |c| {
        c.budgets.circle_create_burst = 2;
        c.budgets.circle_create_per_minute = 1;
        c.budgets.circle_read_burst = 6;
        c.budgets.circle_read_per_minute = 1;
        c.budgets.bad_token_burst = 3;
        c.budgets.bad_token_per_minute = 1;
        c.games.max_circle_members = 2;
        c.net.trusted_proxy = djambi_server::net::TrustedProxies::parse("127.0.0.1").unwrap();
    })
    .await;
    let addr = server.addr;
    let new = json!({"name": "A", "member_name": "Ann"});
    let (s, a) = post_json_as(addr, "/api/circles", &new, "10.0.0.1").await;
    assert_eq!(s, 201);
    let (s, _) = post_json_as(addr, "/api/circles", &new, "10.0.0.1").await;
    assert_eq!(s, 201);
    let (s, head, body) = http_with(
        addr,
        "POST",
        "/api/circles",
        Some(&new.to_string()),
        "X-Forwarded-For: 10.0.0.1\r\n",
    )
    .await;
    assert_rate_limited(s, &head, &body);
    // Another address has its own budget.
    let (s, _) = post_json_as(addr, "/api/circles", &new, "10.0.0.2").await;
    assert_eq!(s, 201);

    // Members: at most 2 present (the creator and one).
    let id = a["id"].as_str().unwrap();
    let invite = a["invite_url"].as_str().unwrap().split_once('#').unwrap().1;
    let join = format!("/api/circles/{id}/members");
    let (s, _) = post_json_as(
        addr,
        &join,
        &json!({"invite": invite, "name": "Bea"}),
        "10.0.0.3",
    )
    .await;
    assert_eq!(s, 201);
    let (s, b) = post_json_as(
        addr,
        &join,
        &json!({"invite": invite, "name": "Cid"}),
        "10.0.0.3",
    )
    .await;
    assert_api_error(s, &b, 409, "circle_full");

    // Wrong invites count as wrong tokens: past the budget, the address is refused.
    let bad = json!({"invite": "guess", "name": "Eve"});
    for _ in 0..3 {
        let (s, b) = post_json_as(addr, &join, &bad, "10.0.0.4").await;
        assert_api_error(s, &b, 403, "bad_invite");
    }
    let (s, b) = post_json_as(addr, &join, &bad, "10.0.0.4").await;
    assert_api_error(s, &b, 429, "rate_limited");
    // … even with the right invite, for a while.
    let (s, b) = post_json_as(
        addr,
        &join,
        &json!({"invite": invite, "name": "Eve"}),
        "10.0.0.4",
    )
    .await;
    assert_api_error(s, &b, 429, "rate_limited");

    // Reads have a budget per address.
    let key = a["member"]["key"].as_str().unwrap();
    let read = |who: &'static str| {
        let path = format!("/api/circles/{id}");
        let headers = format!("Authorization: Bearer {key}\r\nX-Forwarded-For: {who}\r\n");
        async move { http_with(addr, "GET", &path, None, &headers).await }
    };
    for _ in 0..6 {
        assert_eq!(read("10.0.0.5").await.0, 200);
    }
    let (s, head, body) = read("10.0.0.5").await;
    assert_rate_limited(s, &head, &body);
    assert_eq!(read("10.0.0.6").await.0, 200);

    // Bodies are small; names are checked and cut at their limits.
    let big = json!({"name": "x".repeat(8000), "member_name": "Ann"});
    let (s, b) = post_json_as(addr, "/api/circles", &big, "10.0.0.7").await;
    assert_api_error(s, &b, 413, "too_large");
    let long = json!({"name": "x".repeat(49), "member_name": "Ann"});
    let (s, b) = post_json_as(addr, "/api/circles", &long, "10.0.0.7").await;
    assert_api_error(s, &b, 400, "bad_request");
    let bidi = json!({"name": "Club", "member_name": "A\u{202E}nn"});
    let (s, b) = post_json_as(addr, "/api/circles", &bidi, "10.0.0.8").await;
    assert_api_error(s, &b, 400, "bad_request");
    let extra = json!({"name": "Club", "member_name": "Ann", "admin": true});
    let (s, b) = post_json_as(addr, "/api/circles", &extra, "10.0.0.8").await;
    assert_api_error(s, &b, 400, "bad_request");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_of_a_circle_game_keeps_its_circle_and_members() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (circle, _, ms) = circle_of_four(addr).await;
    let (g, _, _) = circle_game(addr, &circle, &ms[0], json!({"players": 4})).await;
    let mut tokens = Vec::new();
    for (m, p) in ms.iter().zip(["r", "b", "y", "g"]) {
        tokens.push(seat_token(addr, &g, &circle, m, p).await);
    }
    for t in &tokens[1..] {
        resign(addr, &g, t).await;
    }
    finished(addr, &g).await;
    let (mut ann, _) = Ws::join(addr, &g, Some(&tokens[0]), None).await;
    assert_eq!(ann.command(json!({"type": "rematch"})).await["type"], "ack");
    let offer = ann.recv_type("rematch").await;
    let next = offer["game"].as_str().unwrap();
    // Ann (red) moves to blue, and joins with her old token; her seat still names her.
    let (_, snap) = get_json(addr, &format!("/api/games/{next}")).await;
    assert_eq!(snap["circle"], circle.as_str());
    assert_eq!(snap["seats"][1]["member"], ms[0].id.as_str());
    let (s, b) = post_json(
        addr,
        &format!("/api/games/{next}/seats"),
        &json!({"token": tokens[0]}),
    )
    .await;
    assert_eq!((s, &b["player"]), (200, &json!("b")), "{b}");
    let (_, snap) = get_json(addr, &format!("/api/games/{next}")).await;
    assert_eq!(snap["seats"][1]["member"], ms[0].id.as_str());
    // She already has her seat: the circle's page offers her no second one.
    let (s, b) = take_seat(addr, next, &circle, &ms[0], None).await;
    assert_api_error(s, &b, 409, "member_seated");
    server.stop().await;
}
