//! Web Push, end to end (issue 23): a real server on port 0 with `--push-allow-loopback`, and a
//! push service run by the test itself on 127.0.0.1: it checks each push's VAPID JWT (ES256
//! under the key of `GET /api/push/key`, `aud` = its own origin, `exp` ahead and within 24 h)
//! and decrypts the aes128gcm payload with the subscription's keys, as a browser's push service
//! and the browser would.

mod common;

#[path = "push/service.rs"]
mod service;

use std::time::Duration;

use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::*;
use serde_json::{Value, json};
use service::PushService;

/// A server for push tests: loopback endpoints allowed, `tweak` for the rest.
async fn server(db: &TestDb, tweak: impl FnOnce(&mut djambi_server::Config)) -> TestServer {
    TestServer::start_with(db, |c| {
        c.push.push_allow_loopback = true;
        tweak(c);
    })
    .await
}

async fn vapid_key(addr: std::net::SocketAddr) -> String {
    let (status, body) = get_json(addr, "/api/push/key").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    body["key"].as_str().unwrap().to_string()
}

async fn subscribe(
    addr: std::net::SocketAddr,
    id: &str,
    token: &str,
    sub: &Value,
    lang: &str,
) -> (u16, Value) {
    post_json(
        addr,
        &format!("/api/games/{id}/push"),
        &json!({"token": token, "subscription": sub, "lang": lang}),
    )
    .await
}

async fn unsubscribe(addr: std::net::SocketAddr, id: &str, token: &str, sub: &Value) -> u16 {
    let body = json!({"token": token, "subscription": sub}).to_string();
    http(
        addr,
        "DELETE",
        &format!("/api/games/{id}/push"),
        Some(&body),
    )
    .await
    .0
}

/// Plays the first legal turn of the seat `ws` plays (it must be its turn).
async fn play_first(ws: &mut Ws) {
    let (_, turns) = ws.my_turn().await.expect("the game goes on");
    assert_eq!(ws.play(&turns[0]).await["type"], "ack");
}

/// The subscriptions of each seat of `id`.
async fn counts(server: &TestServer, id: &str) -> Vec<(djambi_core::Player, usize)> {
    let id = uuid::Uuid::parse_str(id).unwrap();
    server.state.push.counts(id).await.unwrap()
}

/// A push test's world: a server (loopback endpoints allowed), the test's push service, and a
/// standard game with every seat claimed.
struct World {
    server: TestServer,
    addr: std::net::SocketAddr,
    key: String,
    service: PushService,
    id: String,
    tokens: Vec<String>,
}

impl World {
    async fn new(db: &TestDb, tweak: impl FnOnce(&mut djambi_server::Config)) -> World {
        let server = server(db, tweak).await;
        let addr = server.addr;
        let key = vapid_key(addr).await;
        let service = PushService::start(&key).await;
        let (id, tokens) = standard_game(addr).await;
        World {
            server,
            addr,
            key,
            service,
            id,
            tokens,
        }
    }

    /// Subscribes a new browser of the push service, `name`, to seat `seat` (base order), in
    /// `lang`: 201.
    async fn subscribed(&self, seat: usize, name: &str, lang: &str) -> service::Browser {
        let browser = self.service.browser(name);
        let sub = browser.subscription(&self.service);
        let (status, body) = subscribe(self.addr, &self.id, &self.tokens[seat], &sub, lang).await;
        assert_eq!(status, 201, "{body}");
        browser
    }
}

#[tokio::test]
async fn your_turn_is_pushed_to_a_seat_with_no_socket_and_not_to_one_with_a_socket() {
    let db = TestDb::sqlite();
    let w = World::new(&db, |_| {}).await;
    let World {
        server,
        addr,
        key,
        mut service,
        id,
        tokens,
    } = w;
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65);
    let blue = service.browser("blue");
    let (status, body) = subscribe(addr, &id, &tokens[1], &blue.subscription(&service), "en").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["player"], "b");
    let yellow = service.browser("yellow");
    let (status, body) = subscribe(
        addr,
        &id,
        &tokens[2],
        &yellow.subscription(&service),
        "fr-FR",
    )
    .await;
    assert_eq!(status, 201, "{body}");
    // Yellow keeps a socket open; blue has none.
    let (mut yellow_ws, _) = Ws::join(addr, &id, Some(&tokens[2]), None).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    play_first(&mut red).await;
    let push = service.next(WAIT).await.expect("blue is told");
    assert_eq!(push.browser, "blue");
    assert_eq!(push.payload["game"], id.as_str());
    assert_eq!(push.payload["kind"], "your_turn");
    assert_eq!(push.payload["title"], "Your turn — Djambi");
    assert_eq!(push.payload["body"], "It is your turn to play Blue.");
    assert_eq!(
        push.payload.as_object().unwrap().len(),
        4,
        "{}",
        push.payload
    );
    // Blue comes and plays: now yellow is to move, with a socket open: no push.
    let (mut blue_ws, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    play_first(&mut blue_ws).await;
    assert!(yellow_ws.my_turn().await.is_some());
    assert!(service.next(Duration::from_millis(800)).await.is_none());
    // Yellow closes its socket; red offers a draw: yellow (away) is told, in French.
    yellow_ws.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        red.command(json!({"type": "offer_draw"})).await["type"],
        "ack"
    );
    let push = service.next(WAIT).await.expect("yellow is told");
    assert_eq!(push.browser, "yellow");
    assert_eq!(push.payload["kind"], "draw_offer");
    assert_eq!(
        push.payload["body"],
        "Rouge propose la nulle : acceptez-vous ?"
    );
    // Blue has a socket: not told.
    assert!(service.next(Duration::from_millis(500)).await.is_none());
    let metrics = &server.state.metrics;
    assert_eq!(metrics.pushes("sent"), 2);
    assert_eq!(metrics.pushes("failed"), 0);
    server.stop().await;
}

#[tokio::test]
async fn a_subscription_answered_410_is_deleted_and_delete_stops_pushes() {
    let db = TestDb::sqlite();
    let w = World::new(&db, |_| {}).await;
    w.subscribed(1, "blue", "en").await;
    let yellow = w.subscribed(2, "yellow", "en").await;
    let World {
        server,
        addr,
        mut service,
        id,
        tokens,
        ..
    } = w;
    use djambi_core::Army::{Blue, Yellow};
    assert_eq!(counts(&server, &id).await, vec![(Blue, 1), (Yellow, 1)]);
    // Yellow's browser stops its notifications: 204, gone from the table.
    assert_eq!(
        unsubscribe(addr, &id, &tokens[2], &yellow.subscription(&service)).await,
        204
    );
    assert_eq!(counts(&server, &id).await, vec![(Blue, 1)]);
    // The push service has forgotten blue's subscription.
    *service.service.status.lock().unwrap() = StatusCode::GONE;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    play_first(&mut red).await;
    assert_eq!(
        service.next(WAIT).await.expect("blue is tried").browser,
        "blue"
    );
    let deleted = async {
        while !counts(&server, &id).await.is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, deleted)
        .await
        .expect("410 deletes the subscription");
    assert_eq!(server.state.metrics.pushes("gone"), 1);
    // Blue plays: yellow (unsubscribed) is to move with no socket: nothing is pushed.
    *service.service.status.lock().unwrap() = StatusCode::CREATED;
    let (mut blue_ws, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    play_first(&mut blue_ws).await;
    assert!(service.next(Duration::from_millis(800)).await.is_none());
    server.stop().await;
}

#[tokio::test]
async fn the_queue_and_the_seats_rate_drop_what_is_past_their_limits() {
    let db = TestDb::sqlite();
    let w = World::new(&db, |c| {
        c.push.push_queue = 1;
        c.push.push_senders = 1;
        c.push.push_seat_burst = 1;
        c.push.push_seat_per_minute = 1;
    })
    .await;
    *w.service.service.delay.lock().unwrap() = Duration::from_millis(1500);
    for (i, name) in [(1, "blue"), (2, "yellow"), (3, "green")] {
        w.subscribed(i, name, "it").await;
    }
    let World {
        server,
        addr,
        mut service,
        id,
        tokens,
        ..
    } = w;
    let metrics = &server.state.metrics;
    let queued = metrics.pushes("queued");
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    // Blue's turn: sent (slowly); then a draw offer to blue, yellow and green, a takeback
    // request to the same three: one sender and a queue of one cannot take them all, and blue
    // is past its rate (one push a minute).
    play_first(&mut red).await;
    assert_eq!(
        red.command(json!({"type": "offer_draw"})).await["type"],
        "ack"
    );
    assert_eq!(
        red.command(json!({"type": "takeback"})).await["type"],
        "ack"
    );
    let alerts = metrics.pushes("queued") - queued + metrics.pushes("dropped");
    assert_eq!(
        alerts, 7,
        "your turn, three draw offers, three takeback requests"
    );
    assert!(metrics.pushes("dropped") >= 1, "the queue of one is full");
    let mut got = Vec::new();
    while let Some(push) = service.next(Duration::from_secs(4)).await {
        got.push((
            push.browser,
            push.payload["kind"].as_str().unwrap().to_string(),
        ));
    }
    assert_eq!(got[0], ("blue".to_string(), "your_turn".to_string()));
    assert_eq!(
        got.iter().filter(|(b, _)| b == "blue").count(),
        1,
        "{got:?}"
    );
    assert!(got.len() < 7, "{got:?}");
    assert_eq!(
        metrics.pushes("sent") + metrics.pushes("dropped") + metrics.pushes("limited"),
        7
    );
    assert!(metrics.pushes("limited") >= 1);
    server.stop().await;
}

#[tokio::test]
async fn a_restart_keeps_the_key_and_the_subscriptions() {
    restart_keeps_the_key_and_the_subscriptions(TestDb::sqlite()).await;
}

/// The same on Postgres (with `DJAMBI_TEST_POSTGRES_URL`): its migration, upserts and deletes.
#[tokio::test]
async fn a_restart_keeps_the_key_and_the_subscriptions_on_postgres() {
    if let Some(db) = TestDb::postgres().await {
        restart_keeps_the_key_and_the_subscriptions(db).await;
    }
}

async fn restart_keeps_the_key_and_the_subscriptions(db: TestDb) {
    let w = World::new(&db, |_| {}).await;
    let blue = w.subscribed(1, "blue", "it").await;
    let World {
        server,
        key,
        mut service,
        id,
        tokens,
        ..
    } = w;
    server.stop().await;

    let server = self::server(&db, |_| {}).await;
    let addr = server.addr;
    assert_eq!(vapid_key(addr).await, key, "the same key after a restart");
    assert_eq!(
        counts(&server, &id).await,
        vec![(djambi_core::Army::Blue, 1)]
    );
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    play_first(&mut red).await;
    let push = service
        .next(WAIT)
        .await
        .expect("blue is told after the restart");
    assert_eq!(push.payload["kind"], "your_turn");
    assert_eq!(push.payload["body"], "Tocca a te giocare Blu.");
    // The same browser again: its row is renewed, not doubled; then it stops.
    let sub = blue.subscription(&service);
    let (status, body) = subscribe(addr, &id, &tokens[1], &sub, "en").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        counts(&server, &id).await,
        vec![(djambi_core::Army::Blue, 1)]
    );
    assert_eq!(unsubscribe(addr, &id, &tokens[1], &sub).await, 204);
    assert!(counts(&server, &id).await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn a_correspondence_deadline_is_pushed_when_a_tenth_is_left() {
    let db = TestDb::sqlite();
    let server = server(&db, |c| c.games.min_turn_deadline_secs = 1).await;
    let addr = server.addr;
    let key = vapid_key(addr).await;
    let mut service = PushService::start(&key).await;
    let (id, tokens) = game_from(addr, &json!({"players": 4, "clock": {"per_turn_s": 4}})).await;
    let red = service.browser("red");
    let (status, body) = subscribe(addr, &id, &tokens[0], &red.subscription(&service), "en").await;
    assert_eq!(status, 201, "{body}");
    let push = service
        .next(Duration::from_secs(6))
        .await
        .expect("red is warned");
    assert_eq!(push.payload["kind"], "deadline");
    assert_eq!(
        push.payload["body"],
        "Less than a minute left to play your turn as Red."
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_change_nothing() {
    let db = TestDb::sqlite();
    let strict = TestServer::start(&db).await;
    let addr = strict.addr;
    let key = vapid_key(addr).await;
    let service = PushService::start(&key).await;
    let (id, tokens) = standard_game(addr).await;
    let blue = service.browser("blue");
    let sub = blue.subscription(&service);
    // Without --push-allow-loopback, 127.0.0.1 is refused, as are other private endpoints.
    let (status, body) = subscribe(addr, &id, &tokens[1], &sub, "en").await;
    assert_api_error(status, &body, 400, "bad_request");
    for endpoint in [
        "https://localhost/push/x",
        "https://10.0.0.8/push/x",
        "https://[::1]/push/x",
        "https://169.254.169.254/latest",
        "http://push.example.net/x",
        "not a url",
    ] {
        let mut sub = sub.clone();
        sub["endpoint"] = json!(endpoint);
        let (status, body) = subscribe(addr, &id, &tokens[1], &sub, "en").await;
        assert_api_error(status, &body, 400, "bad_request");
    }
    // A wrong token: 403; no game: 404; bad keys: 400; too large: 413; no subscription: 400.
    let (status, body) = subscribe(addr, &id, "not-a-token", &sub, "en").await;
    assert_api_error(status, &body, 403, "bad_token");
    let none = uuid::Uuid::new_v4();
    let (status, body) = subscribe(addr, &none.to_string(), &tokens[1], &sub, "en").await;
    assert_api_error(status, &body, 404, "not_found");
    let mut bad_keys = sub.clone();
    bad_keys["keys"]["auth"] = json!("short");
    let (status, body) = subscribe(addr, &id, &tokens[1], &bad_keys, "en").await;
    assert_api_error(status, &body, 400, "bad_request");
    let mut big = sub.clone();
    big["endpoint"] = json!(format!("https://push.example.net/{}", "a".repeat(8000)));
    let (status, body) = subscribe(addr, &id, &tokens[1], &big, "en").await;
    assert_api_error(status, &body, 413, "too_large");
    let (status, body) = post_json(
        addr,
        &format!("/api/games/{id}/push"),
        &json!({"token": tokens[1]}),
    )
    .await;
    assert_api_error(status, &body, 400, "bad_request");
    let body = json!({"token": "wrong", "subscription": sub}).to_string();
    let (status, answer) = http(
        addr,
        "DELETE",
        &format!("/api/games/{id}/push"),
        Some(&body),
    )
    .await;
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_api_error(status, &answer, 403, "bad_token");
    assert!(counts(&strict, &id).await.is_empty());
    strict.stop().await;
}

#[tokio::test]
async fn a_seat_keeps_its_newest_subscriptions_only() {
    let db = TestDb::sqlite();
    let w = World::new(&db, |c| c.push.push_subscriptions_per_seat = 2).await;
    for name in ["one", "two", "three"] {
        w.subscribed(1, name, "en").await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let World { server, id, .. } = w;
    assert_eq!(
        counts(&server, &id).await,
        vec![(djambi_core::Army::Blue, 2)]
    );
    let uuid = uuid::Uuid::parse_str(&id).unwrap();
    let subs = server
        .state
        .push
        .subscriptions(uuid, djambi_core::Army::Blue)
        .await
        .unwrap();
    let names: Vec<&str> = subs
        .iter()
        .map(|s| s.endpoint.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names, ["three", "two"]);
    server.stop().await;
}

#[tokio::test]
async fn a_new_invite_or_a_claim_forgets_the_former_holders_browsers() {
    let db = TestDb::sqlite();
    let server = server(&db, |_| {}).await;
    let addr = server.addr;
    let service = PushService::start(&vapid_key(addr).await).await;
    let (status, created) = post_json(addr, "/api/games", &json!({"players": 4})).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap();
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_string();
    // Blue's and yellow's invites (not claimed yet) subscribe a browser each.
    for (i, name) in [(1, "blue"), (2, "yellow")] {
        let sub = service.browser(name).subscription(&service);
        let (status, body) = subscribe(addr, &id, &token(i), &sub, "en").await;
        assert_eq!(status, 201, "{body}");
    }
    use djambi_core::Army::{Blue, Yellow};
    assert_eq!(counts(&server, &id).await, vec![(Blue, 1), (Yellow, 1)]);
    // Blue gets a new invite: the old one's browser is forgotten.
    let path = format!("/api/games/{id}/seats/b/invite");
    let (status, body) = post_json_bearer(addr, &path, &json!({}), admin).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(counts(&server, &id).await, vec![(Yellow, 1)]);
    // Yellow's seat is claimed: from now on its holder's browsers only.
    let claim = json!({"name": "Cid", "token": token(2)});
    let (status, body) = post_json(addr, &format!("/api/games/{id}/seats"), &claim).await;
    assert_eq!(status, 200, "{body}");
    assert!(counts(&server, &id).await.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn a_stalled_endpoint_delays_only_its_own_pushes_and_is_dropped() {
    let db = TestDb::sqlite();
    let w = World::new(&db, |c| c.push.push_timeout_secs = 2).await;
    let World {
        server,
        addr,
        mut service,
        id,
        tokens,
        ..
    } = w;
    // An endpoint that accepts connections and never answers.
    let stall = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let stalled = stall.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = stall.accept().await {
            held.push(socket);
        }
    });
    // Red: five browsers behind it (the seat's cap); blue: one healthy browser.
    for i in 0..5 {
        let browser = service.browser(&format!("stalled{i}"));
        let mut sub = browser.subscription(&service);
        sub["endpoint"] = json!(format!("http://{stalled}/push/stalled{i}"));
        let (status, body) = subscribe(addr, &id, &tokens[0], &sub, "en").await;
        assert_eq!(status, 201, "{body}");
    }
    let blue = service.browser("blue");
    let (status, body) = subscribe(addr, &id, &tokens[1], &blue.subscription(&service), "en").await;
    assert_eq!(status, 201, "{body}");
    // Red is alerted five times (25 pushes to the stalled endpoint), then blue once.
    use djambi_server::game::Alert;
    let alerts = server.state.push.alerts();
    let game = uuid::Uuid::parse_str(&id).unwrap();
    let alert = |seat| Alert {
        game,
        seat,
        notice: djambi_server::table::Notice::YourTurn,
    };
    for _ in 0..5 {
        alerts.alert(alert(djambi_core::Player::Red));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sent = std::time::Instant::now();
    alerts.alert(alert(djambi_core::Player::Blue));
    let push = service
        .next(Duration::from_secs(5))
        .await
        .expect("blue is told");
    let waited = sent.elapsed();
    assert_eq!(push.browser, "blue");
    assert!(waited < Duration::from_secs(1), "blue waited {waited:?}");
    // The stalled endpoints time out, three times in a row each: their subscriptions go.
    let since = std::time::Instant::now();
    while counts(&server, &id)
        .await
        .iter()
        .any(|(p, n)| *p == djambi_core::Player::Red && *n > 0)
    {
        assert!(
            since.elapsed() < Duration::from_secs(30),
            "{:?}",
            counts(&server, &id).await
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let metrics = &server.state.metrics;
    println!(
        "push: 5 alerts to a seat of 5 stalled endpoints, then one to a healthy one: delivered in \
         {} ms; the stalled subscriptions deleted after {:.1} s; sent {}, failed {}, dropped {}",
        waited.as_millis(),
        since.elapsed().as_secs_f64(),
        metrics.pushes("sent"),
        metrics.pushes("failed"),
        metrics.pushes("dropped")
    );
    server.stop().await;
}
