//! Golden JSON files pin the shape of every protocol message: the server's serialisation of
//! each type must equal its file under `tests/golden/` (and client messages must parse from
//! theirs). Run with `DJAMBI_BLESS=1` to rewrite the files after a deliberate change, then
//! review the diff and update docs/PROTOCOL.md.

use std::path::PathBuf;

use djambi_core::{Army, GameRecord, Position, Rules};
use djambi_server::game::state::{GameState, Seat};
use djambi_server::game::view::{chat_view, event_view, game_view};
use djambi_server::protocol::http::{
    ClaimSeat, ClaimedSeat, CreateGame, CreatedGame, ErrorBody, ErrorDetail, GameList, GameSummary,
    SeatInvite, SeatSummary,
};
use djambi_server::protocol::{
    ClientMessage, ErrorCode, GameStatus, SeatPresence, ServerMessage, You,
};
use djambi_server::store::{ChatRow, EventKind};
use djambi_server::token::TokenHash;
use serde_json::{Value, json};
use uuid::Uuid;

/// Four chiefs walled in by their militants: short legal-turn lists.
const SMALL: &str = "CrMr5MbCb/MrMr5MbMb/9/9/9/9/9/MgMg5MyMy/CgMg5MyCy r rbyg - 0 - 0 1";
const ID: &str = "6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f";

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `value` with `tests/golden/{name}.json` (or writes it when blessing).
fn check(name: &str, value: Value, failures: &mut Vec<String>) {
    let path = golden_dir().join(format!("{name}.json"));
    if std::env::var("DJAMBI_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        failures.push(format!("{name}: missing {}", path.display()));
        return;
    };
    let golden: Value = serde_json::from_str(&text).unwrap();
    if golden != value {
        failures.push(format!(
            "{name}: serialisation differs from its golden file\n  golden: {golden}\n  actual: {value}"
        ));
    }
}

fn to_value<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap()
}

fn state() -> GameState {
    let seats = Army::ALL
        .iter()
        .map(|&player| Seat {
            player,
            name: Some(format!("{} player", player.name())),
            token_hash: TokenHash::of(&format!("token-{player}")),
            claimed: true,
        })
        .collect();
    let start = Position::from_dpn(SMALL, Rules::default()).unwrap();
    GameState::new(
        Uuid::parse_str(ID).unwrap(),
        start,
        seats,
        false,
        1_795_255_200_000,
    )
}

fn event(state: &mut GameState, kind: EventKind) -> Value {
    let effects = state.apply(&kind).unwrap();
    to_value(&ServerMessage::Event {
        v: state.v,
        event: Box::new(event_view(state, &kind, effects)),
    })
}

#[test]
fn every_message_matches_its_golden_file() {
    let mut failures = Vec::new();
    let f = &mut failures;

    // Client → server: each file parses, and serialises back to itself.
    let client = [
        (
            "client_hello",
            ClientMessage::Hello {
                token: Some("qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co".into()),
                since: Some(12),
                chat_since: Some(3),
                name: None,
            },
        ),
        (
            "client_move",
            ClientMessage::Move {
                ack: 7,
                turn: "b7-b5".into(),
            },
        ),
        ("client_resign", ClientMessage::Resign { ack: 8 }),
        ("client_offer_draw", ClientMessage::OfferDraw { ack: 9 }),
        ("client_accept_draw", ClientMessage::AcceptDraw { ack: 10 }),
        (
            "client_decline_draw",
            ClientMessage::DeclineDraw { ack: 11 },
        ),
        (
            "client_chat",
            ClientMessage::Chat {
                ack: 12,
                text: "hello all".into(),
            },
        ),
        (
            "client_whisper",
            ClientMessage::Whisper {
                ack: 13,
                to: Army::Blue,
                text: "let us team up against red".into(),
            },
        ),
        ("client_sync", ClientMessage::Sync { since: Some(12) }),
        ("client_ping", ClientMessage::Ping),
    ];
    for (name, message) in client {
        check(name, to_value(&message), f);
        let path = golden_dir().join(format!("{name}.json"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let parsed: ClientMessage = serde_json::from_str(&text).unwrap();
            assert_eq!(parsed, message, "{name}");
        }
    }

    // Server → client.
    let mut s = state();
    let turn = event(
        &mut s,
        EventKind::Turn {
            player: Army::Red,
            text: "a8-a7".into(),
        },
    );
    check("server_event_turn", turn, f);
    check(
        "server_event_resign",
        event(&mut s, EventKind::Resign(Army::Blue)),
        f,
    );
    check(
        "server_event_draw_offered",
        event(&mut s, EventKind::DrawOffered(Army::Yellow)),
        f,
    );
    check(
        "server_event_draw_declined",
        event(&mut s, EventKind::DrawDeclined(Army::Red)),
        f,
    );
    event(&mut s, EventKind::DrawOffered(Army::Yellow));
    check(
        "server_event_draw_accepted",
        event(&mut s, EventKind::DrawAccepted(Army::Red)),
        f,
    );

    let chat = ChatRow {
        id: 41,
        v: 6,
        from: Some(Army::Red),
        name: "Ann".into(),
        to: Some(Army::Green),
        text: "keep the <maze> for me".into(),
        ack: Some(12),
        at: 1_795_255_260_000,
    };
    let snapshot = ServerMessage::Snapshot {
        v: s.v,
        you: You::Player { player: Army::Red },
        game: Box::new(game_view(
            &s,
            Some(Army::Red),
            |p| p != Army::Yellow,
            2,
            std::iter::once(&chat),
        )),
    };
    check("server_snapshot", to_value(&snapshot), f);
    check(
        "server_event_draw_agreed",
        event(&mut s, EventKind::DrawAgreed(Army::Green)),
        f,
    );
    check(
        "server_chat",
        to_value(&ServerMessage::Chat(chat_view(&chat))),
        f,
    );
    check(
        "server_resume",
        to_value(&ServerMessage::Resume {
            from: 12,
            v: 15,
            you: You::Spectator,
        }),
        f,
    );
    check(
        "server_ack",
        to_value(&ServerMessage::Ack { ack: 7, v: 13 }),
        f,
    );
    check(
        "server_error",
        to_value(&ServerMessage::Error {
            ack: Some(7),
            code: ErrorCode::Illegal,
            message: "e5: only a chief may end a move on the maze (R3.5)".into(),
            kind: Some(djambi_core::IllegalKind::Maze),
            v: 12,
        }),
        f,
    );
    check(
        "server_presence",
        to_value(&ServerMessage::Presence {
            status: GameStatus::Live,
            seats: Army::ALL
                .iter()
                .map(|&player| SeatPresence {
                    player,
                    name: Some(format!("{} player", player.name())),
                    claimed: true,
                    connected: player == Army::Red,
                })
                .collect(),
            spectators: 2,
        }),
        f,
    );
    check(
        "server_restarting",
        to_value(&ServerMessage::Restarting {
            message: "the server is restarting; reconnect in a moment".into(),
        }),
        f,
    );
    check("server_pong", to_value(&ServerMessage::Pong), f);

    // HTTP bodies.
    let create: CreateGame = serde_json::from_value(json!({
        "players": 3, "hostage": "g", "rules": {"turn_limit": 200},
        "names": {"r": "Ann"}, "open": false
    }))
    .unwrap();
    check("http_create_game", to_value(&create), f);
    let id = Uuid::parse_str(ID).unwrap();
    let url = format!("http://localhost:8080/game/{id}");
    let created = CreatedGame {
        id,
        url: url.clone(),
        seats: vec![SeatInvite {
            player: Army::Red,
            name: Some("Ann".into()),
            token: "qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co".into(),
            invite_url: format!("{url}#seat=r&token=qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co"),
        }],
    };
    check("http_created_game", to_value(&created), f);
    let claim = ClaimSeat {
        name: Some("Bea".into()),
        token: Some("GYpZcx7C2N6mCyrnQYLO8vxrgLsCjejG".into()),
        player: None,
    };
    check("http_claim_seat", to_value(&claim), f);
    check(
        "http_claimed_seat",
        to_value(&ClaimedSeat {
            player: Army::Blue,
            name: "Bea".into(),
            token: "GYpZcx7C2N6mCyrnQYLO8vxrgLsCjejG".into(),
        }),
        f,
    );
    let list = GameList {
        games: vec![GameSummary {
            id,
            players: 4,
            hostage: None,
            open: true,
            status: GameStatus::Open,
            seats: vec![SeatSummary {
                player: Army::Red,
                name: Some("Ann".into()),
                claimed: true,
                connected: true,
            }],
            spectators: 1,
            to_move: Some(Army::Red),
            turn: 1,
            v: 0,
            result: None,
            created_at: "2026-11-21T10:00:00Z".into(),
            updated_at: "2026-11-21T10:00:05Z".into(),
        }],
    };
    check("http_game_list", to_value(&list), f);
    check(
        "http_error",
        to_value(&ErrorBody {
            error: ErrorDetail {
                code: "not_found".into(),
                message: format!("no game {id}"),
            },
        }),
        f,
    );
    let mut game = state();
    for (p, t) in [(Army::Red, "a8-a7"), (Army::Blue, "i8-i7")] {
        game.apply(&EventKind::Turn {
            player: p,
            text: t.into(),
        })
        .unwrap();
    }
    game.apply(&EventKind::Resign(Army::Yellow)).unwrap();
    let record: GameRecord = game.game.record();
    check("record", to_value(&record), f);

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
