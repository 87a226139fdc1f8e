//! The circles' bodies (PROTOCOL §2.5) against their golden files under `tests/golden/`, as
//! golden.rs does for the rest (`DJAMBI_BLESS=1` rewrites them after a deliberate change).

use crate::common::golden::check;
use djambi_core::Army;
use djambi_engine::Level;
use djambi_server::protocol::GameStatus;
use djambi_server::protocol::http::ClaimSeat;
use djambi_server::protocol::lifecycle::BotLevel;
use serde_json::{Value, json};
use uuid::Uuid;

fn to_value<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap()
}

#[test]
fn the_circles_bodies_match_their_golden_files() {
    let mut failures = Vec::new();
    circles(&mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The circles' bodies (PROTOCOL §2.5).
fn circles(f: &mut Vec<String>) {
    use djambi_server::protocol::circle::*;
    let circle = Uuid::parse_str("89b9ed86-8c00-41bc-856e-5fe675f910fb").unwrap();
    let ann = Uuid::parse_str("fe6b0b47-7a1a-401c-8cb3-169f6119de78").unwrap();
    let dee = Uuid::parse_str("802f50f0-68a5-4b1c-8618-5c0416f9b9e0").unwrap();
    let game = Uuid::parse_str("b89ce624-d363-4311-b60b-430c38bf98fe").unwrap();
    let url = format!("http://localhost:8080/circle/{circle}");
    check(
        "http_create_circle",
        json!({"name": "Thursday club", "member_name": "Ann"}),
        f,
    );
    check(
        "http_created_circle",
        to_value(&CreatedCircle {
            id: circle,
            invite_url: format!("{url}/join#ja2nNHo1vw4SoEbLv5JPGi_llPp_LaRL"),
            url,
            member: MemberKey {
                id: ann,
                key: "PyMF-JeHLK2IDj7GjqTEf_EpVQWmQ0U8".into(),
            },
        }),
        f,
    );
    check(
        "http_claim_member_seat",
        to_value(&ClaimSeat {
            member: Some(MemberAuth {
                circle,
                id: dee,
                key: "M59x478cjEkNrARwCyNysEMRRjCci9sT".into(),
            }),
            ..ClaimSeat::default()
        }),
        f,
    );
    let view = CircleView {
        id: circle,
        name: "Thursday club".into(),
        creator: ann,
        you: ann,
        members: vec![Standing {
            id: ann,
            name: "Ann".into(),
            status: "member",
            rating: 10.68,
            mu: 23.3,
            sigma: 6.31,
            provisional: true,
            games: 3,
            wins: 0,
            draws: 0,
            average_place: Some(2.33),
            last_played: Some("2026-12-07T22:30:52.176Z".into()),
        }],
        games: vec![CircleGame {
            id: game,
            status: GameStatus::Finished,
            finished: Some("2026-12-07T22:30:52.176Z".into()),
            rated: true,
            places: [(Army::Red, 3), (Army::Blue, 1), (Army::Yellow, 2)]
                .into_iter()
                .collect(),
            seats: vec![
                CircleSeat {
                    player: Army::Red,
                    name: Some("Dee".into()),
                    claimed: true,
                    member: Some(dee),
                    bot: None,
                    end: Some("out"),
                },
                CircleSeat {
                    player: Army::Blue,
                    name: None,
                    claimed: true,
                    member: None,
                    bot: Some(BotLevel(Level::Hard)),
                    end: Some("won"),
                },
            ],
            created_at: "2026-12-07T22:30:52.155Z".into(),
        }],
        head_to_head: vec![HeadToHead {
            a: dee,
            b: ann,
            ahead: 1,
            behind: 2,
            games: 3,
        }],
        history: vec![RatingPoint {
            game,
            finished: "2026-12-07T22:30:52.176Z".into(),
            ratings: [(dee, 7.28), (ann, 10.68)].into_iter().collect(),
        }],
        anchors: [("easy".to_string(), 12.48), ("medium".to_string(), 25.0)]
            .into_iter()
            .collect(),
    };
    check("http_circle", to_value(&view), f);
}
