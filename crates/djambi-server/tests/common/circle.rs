//! Helpers of the circles' tests (issue 47): members' requests, a circle of four, circle games
//! and seats taken by members, resignations, waiting for a game's end.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::*;

/// A GET with a member's key.
pub async fn get_keyed(addr: SocketAddr, path: &str, key: &str) -> (u16, Value) {
    let (status, _, body) = http_with(
        addr,
        "GET",
        path,
        None,
        &format!("Authorization: Bearer {key}\r\n"),
    )
    .await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// Any method with a member's key and a JSON body.
pub async fn send_keyed(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    key: &str,
) -> (u16, Value) {
    let body = body.map(Value::to_string);
    let (status, _, text) = http_with(
        addr,
        method,
        path,
        body.as_deref(),
        &format!("Authorization: Bearer {key}\r\n"),
    )
    .await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A member of the test's circle.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: String,
    pub key: String,
}

/// A circle named `name` that Ann makes on `creator` and each of `joiners` joins on its node
/// with the invite: (the creation's answer, the invite, the members, Ann first).
pub async fn form_circle(
    creator: SocketAddr,
    name: &str,
    joiners: &[(&str, SocketAddr)],
) -> (Value, String, Vec<Member>) {
    let (s, created) = post_json(
        creator,
        "/api/circles",
        &json!({"name": name, "member_name": "Ann"}),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let invite = created["invite_url"].as_str().unwrap();
    let invite = invite.split_once('#').unwrap().1.to_string();
    let mut members = vec![Member {
        id: created["member"]["id"].as_str().unwrap().into(),
        key: created["member"]["key"].as_str().unwrap().into(),
    }];
    for (joiner, node) in joiners {
        let (s, joined) = post_json(
            *node,
            &format!("/api/circles/{id}/members"),
            &json!({"invite": invite, "name": joiner}),
        )
        .await;
        assert_eq!(s, 201, "{joined}");
        assert_eq!(joined["name"], name);
        members.push(Member {
            id: joined["member"]["id"].as_str().unwrap().into(),
            key: joined["member"]["key"].as_str().unwrap().into(),
        });
    }
    (created, invite, members)
}

/// A circle of Ann (its creator), Bea, Cid and Dee: (id, invite, members).
pub async fn circle_of_four(addr: SocketAddr) -> (String, String, Vec<Member>) {
    let joiners = [("Bea", addr), ("Cid", addr), ("Dee", addr)];
    let (created, invite, members) = form_circle(addr, "Thursday club", &joiners).await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(
        created["url"],
        format!("http://{addr}/circle/{id}"),
        "{created}"
    );
    let base = created["invite_url"]
        .as_str()
        .unwrap()
        .split_once('#')
        .unwrap()
        .0;
    assert_eq!(base, format!("http://{addr}/circle/{id}/join"));
    (id, invite, members)
}

/// A circle game made by `by` with `body`: (id, seat tokens by seat, admin token).
pub async fn circle_game(
    addr: SocketAddr,
    circle: &str,
    by: &Member,
    mut body: Value,
) -> (String, BTreeMap<String, String>, String) {
    body["circle"] = json!({"id": circle, "key": by.key});
    let (s, created) = post_json(addr, "/api/games", &body).await;
    assert_eq!(s, 201, "{created}");
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player"].as_str().unwrap().to_string(),
                s["token"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (
        created["id"].as_str().unwrap().to_string(),
        tokens,
        created["admin_token"].as_str().unwrap().to_string(),
    )
}

/// A member takes seat `player` (or the first free one): the seat token.
pub async fn take_seat(
    addr: SocketAddr,
    game: &str,
    circle: &str,
    m: &Member,
    player: Option<&str>,
) -> (u16, Value) {
    let mut body = json!({"member": {"circle": circle, "id": m.id, "key": m.key}});
    if let Some(p) = player {
        body["player"] = json!(p);
    }
    post_json(addr, &format!("/api/games/{game}/seats"), &body).await
}

pub async fn seat_token(addr: SocketAddr, game: &str, circle: &str, m: &Member, p: &str) -> String {
    let (s, claimed) = take_seat(addr, game, circle, m, Some(p)).await;
    assert_eq!(s, 200, "{claimed}");
    assert_eq!(claimed["player"], p);
    claimed["token"].as_str().unwrap().to_string()
}

pub async fn resign(addr: SocketAddr, game: &str, token: &str) {
    let (mut ws, _) = Ws::join(addr, game, Some(token), None).await;
    let answer = ws.command(json!({"type": "resign"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    ws.close().await;
}

/// The game's public snapshot once it is finished (within 60 s).
pub async fn finished(addr: SocketAddr, game: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let (s, snap) = get_json(addr, &format!("/api/games/{game}")).await;
        assert_eq!(s, 200, "{snap}");
        if snap["status"] == "finished" {
            return snap;
        }
        assert!(Instant::now() < until, "not finished: {snap}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The places R9.7's ranking gives (for a game where no seat was handed to a bot).
pub fn places_of_ranking(ranking: &Value) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut before = 0;
    for group in ranking.as_array().unwrap() {
        let group = group.as_str().unwrap();
        for p in group.chars() {
            out.insert(p.to_string(), before + 1);
        }
        before += group.len() as u64;
    }
    out
}

pub fn places_of(game: &Value) -> BTreeMap<String, u64> {
    game["places"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

pub fn game_in<'a>(circle: &'a Value, id: &str) -> &'a Value {
    circle["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("no game {id} in {circle}"))
}

/// The head-to-head of two members as the test reads the games' places: (a ahead, b ahead,
/// games both played).
pub fn pair(circle: &Value, a: &str, b: &str) -> (u64, u64, u64) {
    let mut out = (0, 0, 0);
    for g in circle["games"].as_array().unwrap() {
        if g["rated"] != true {
            continue;
        }
        let seat_of = |m: &str| {
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["member"] == m)
                .map(|s| s["player"].as_str().unwrap().to_string())
        };
        let (Some(pa), Some(pb)) = (seat_of(a), seat_of(b)) else {
            continue;
        };
        let (x, y) = (g["places"][&pa].as_u64(), g["places"][&pb].as_u64());
        out.2 += 1;
        out.0 += u64::from(x < y);
        out.1 += u64::from(x > y);
    }
    out
}

/// The API's head-to-head entry of two members, read from `a`'s side.
pub fn api_pair(circle: &Value, a: &str, b: &str) -> (u64, u64, u64) {
    for h in circle["head_to_head"].as_array().unwrap() {
        let n = |k: &str| h[k].as_u64().unwrap();
        if h["a"] == a && h["b"] == b {
            return (n("ahead"), n("behind"), n("games"));
        }
        if h["a"] == b && h["b"] == a {
            return (n("behind"), n("ahead"), n("games"));
        }
    }
    (0, 0, 0)
}

pub fn standing<'a>(circle: &'a Value, m: &Member) -> &'a Value {
    circle["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == m.id.as_str())
        .unwrap()
}
