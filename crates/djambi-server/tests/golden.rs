//! Golden JSON files pin the shape of every protocol message: the server's serialisation of
//! each type must equal its file under `tests/golden/` (and client messages must parse from
//! theirs). Run with `DJAMBI_BLESS=1` to rewrite the files after a deliberate change, then
//! review the diff and update docs/PROTOCOL.md.

mod common;

use djambi_core::{Army, GameRecord, Position, Rules};
use djambi_engine::Level;
use djambi_server::error::AppError;
use djambi_server::protocol::client::VoteKind;
use djambi_server::protocol::http::{
    CheckInvite, CheckedInvite, ClaimSeat, ClaimedSeat, CreateGame, CreatedGame, ErrorBody,
    ErrorDetail, GameList, GameSummary, SeatInvite, SeatSummary,
};
use djambi_server::protocol::lifecycle::{BotLevel, BotReason, ClockSpec, Settings, VoteAction};
use djambi_server::protocol::view::{Attendance, chat_view, event_view, game_view, legal_message};
use djambi_server::protocol::{
    ClientMessage, ErrorCode, GameStatus, SeatPresence, ServerMessage, You,
};
use djambi_server::table::{
    ChatLine as ChatRow, ChatSight, ClaimError, EventKind, GameState, Seat,
};
use djambi_server::token::TokenHash;
use serde_json::{Value, json};
use uuid::Uuid;

use common::golden::{check, golden_dir};

/// Four chiefs walled in by their militants: short legal-turn lists.
const SMALL: &str = "CrMr5MbCb/MrMr5MbMb/9/9/9/9/9/MgMg5MyMy/CgMg5MyCy r rbyg - 0 - 0 1";
const ID: &str = "6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f";

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
            bot: None,
            start_bot: None,
            member: None,
        })
        .collect();
    let start = Position::from_dpn(SMALL, Rules::default()).unwrap();
    let mut state = GameState::new(
        Uuid::parse_str(ID).unwrap(),
        start,
        seats,
        false,
        1_795_255_200_000,
    );
    // Started (the files show a game in play; the `started` event has its own file).
    state.started = true;
    state
}

/// A game with a live clock, just started.
fn clocked() -> GameState {
    let mut state = state().with_settings(
        Settings {
            clock: Some(ClockSpec::Live {
                initial_s: 600,
                increment_s: 5,
            }),
            ..Settings::default()
        },
        None,
    );
    state.started = false;
    state
}

/// When the files' events happen.
const AT: i64 = 1_795_255_260_000;

fn event(state: &mut GameState, kind: EventKind) -> Value {
    let applied = state.apply(&kind, AT).unwrap();
    to_value(&ServerMessage::Event {
        v: state.v,
        event: Box::new(event_view(state, &kind, applied)),
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
                protocol: Some(2),
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
        (
            "client_spectator_room",
            ClientMessage::SpectatorRoom { open: true },
        ),
        ("client_reclaim", ClientMessage::Reclaim { ack: 14 }),
        (
            "client_vote",
            ClientMessage::Vote {
                ack: 15,
                target: Army::Green,
                action: VoteKind::Bot,
                level: Some(BotLevel(Level::Medium)),
            },
        ),
        (
            "client_vote_answer",
            ClientMessage::VoteAnswer { ack: 16, yes: true },
        ),
        ("client_takeback", ClientMessage::Takeback { ack: 17 }),
        (
            "client_takeback_answer",
            ClientMessage::TakebackAnswer {
                ack: 18,
                yes: false,
            },
        ),
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
            turn: "a8-a7".parse::<djambi_core::TurnText>().unwrap().0,
        },
    );
    check("server_event_turn", turn, f);
    check(
        "server_event_resign",
        event(&mut s, EventKind::Resign { player: Army::Blue }),
        f,
    );
    check(
        "server_event_draw_offered",
        event(&mut s, EventKind::DrawOffered { by: Army::Yellow }),
        f,
    );
    check(
        "server_event_draw_declined",
        event(&mut s, EventKind::DrawDeclined { by: Army::Red }),
        f,
    );
    event(&mut s, EventKind::DrawOffered { by: Army::Yellow });
    check(
        "server_event_draw_accepted",
        event(&mut s, EventKind::DrawAccepted { by: Army::Red }),
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
            ChatSight {
                seat: Some(Army::Red),
                spectator_room: false,
            },
            Attendance {
                away_since: [None, None, Some(1_795_255_230_000), None],
                spectators: 2,
                grace_s: 120,
            },
            std::iter::once(&chat),
        )),
    };
    check("server_snapshot", to_value(&snapshot), f);
    check("server_legal", to_value(&legal_message(&s)), f);
    check(
        "server_event_draw_agreed",
        event(
            &mut s,
            EventKind::DrawAgreed {
                by: Army::Green,
                excused: djambi_core::ArmySet::EMPTY,
            },
        ),
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
                    bot: (player == Army::Blue).then_some(BotLevel(Level::Hard)),
                    away_since: (player != Army::Red && player != Army::Blue)
                        .then(|| "2026-11-21T10:00:30Z".to_string()),
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
    check(
        "server_pong",
        to_value(&ServerMessage::Pong {
            now: 1_795_255_260_000,
        }),
        f,
    );

    // The game's life: start with a clock, a bot taking a seat, votes, takebacks, timeouts.
    let mut life = clocked();
    check(
        "server_event_started",
        event(&mut life, EventKind::Started),
        f,
    );
    let red_turn = EventKind::Turn {
        player: Army::Red,
        turn: "a8-a7".parse::<djambi_core::TurnText>().unwrap().0,
    };
    event(&mut life, red_turn);
    check(
        "server_event_takeback_requested",
        event(&mut life, EventKind::TakebackRequested { by: Army::Red }),
        f,
    );
    check(
        "server_event_takeback_answered",
        event(
            &mut life,
            EventKind::TakebackAnswered {
                by: Army::Blue,
                yes: true,
            },
        ),
        f,
    );
    for p in [Army::Yellow, Army::Green] {
        event(&mut life, EventKind::TakebackAnswered { by: p, yes: true });
    }
    check(
        "server_event_taken_back",
        event(&mut life, EventKind::TakenBack { player: Army::Red }),
        f,
    );
    let voters = djambi_core::ArmySet::EMPTY
        .with(Army::Blue)
        .with(Army::Yellow)
        .with(Army::Green);
    check(
        "server_event_vote_opened",
        event(
            &mut life,
            EventKind::VoteOpened {
                by: Army::Blue,
                target: Army::Red,
                action: VoteAction::Bot(Level::Medium),
                voters,
            },
        ),
        f,
    );
    check(
        "server_event_vote_cast",
        event(
            &mut life,
            EventKind::VoteCast {
                by: Army::Yellow,
                yes: true,
            },
        ),
        f,
    );
    check(
        "server_event_vote_closed",
        event(&mut life, EventKind::VoteClosed { passed: true }),
        f,
    );
    check(
        "server_event_seat_to_bot",
        event(
            &mut life,
            EventKind::SeatToBot {
                player: Army::Red,
                level: Level::Medium,
                reason: BotReason::Vote,
            },
        ),
        f,
    );
    check(
        "server_event_seat_to_human",
        event(&mut life, EventKind::SeatToHuman { player: Army::Red }),
        f,
    );
    check(
        "server_event_paused",
        event(
            &mut life,
            EventKind::Paused {
                from: AT + 1_000,
                until: AT + 61_000,
            },
        ),
        f,
    );
    check(
        "server_event_timeout",
        event(&mut life, EventKind::Timeout { player: Army::Red }),
        f,
    );
    check(
        "server_error_seat_revoked",
        to_value(&ServerMessage::Error {
            ack: None,
            code: ErrorCode::SeatRevoked,
            message: "this seat was claimed again with a new token; yours no longer works".into(),
            kind: None,
            v: 3,
        }),
        f,
    );
    let mut open = state();
    check(
        "server_event_cancelled",
        event(
            &mut open,
            EventKind::Cancelled {
                reason: djambi_server::protocol::CancelReason::Expired,
            },
        ),
        f,
    );

    // HTTP bodies.
    let create: CreateGame = serde_json::from_value(json!({
        "players": 3, "hostage": "g", "rules": {"turn_limit": 200},
        "names": {"r": "Ann"}, "open": false
    }))
    .unwrap();
    check("http_create_game", to_value(&create), f);
    let with_bots: CreateGame = serde_json::from_value(json!({
        "players": 4, "bots": {"b": "hard", "y": "easy"}, "bot_movetime_ms": 1000,
        "clock": {"initial_s": 600, "increment_s": 5}, "on_timeout": "resign"
    }))
    .unwrap();
    check("http_create_game_bots", to_value(&with_bots), f);
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
        admin_token: Some("Xh2k9V0bq7mWcT3nLr5sYp8dEa1fGu4z".into()),
    };
    check("http_created_game", to_value(&created), f);
    let claim = ClaimSeat {
        name: Some("Bea".into()),
        token: Some("GYpZcx7C2N6mCyrnQYLO8vxrgLsCjejG".into()),
        player: None,
        member: None,
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
    check(
        "http_check_invite",
        to_value(&CheckInvite {
            token: "GYpZcx7C2N6mCyrnQYLO8vxrgLsCjejG".into(),
        }),
        f,
    );
    check(
        "http_checked_invite",
        to_value(&CheckedInvite {
            player: Some(Army::Blue),
        }),
        f,
    );
    check(
        "http_checked_invite_wrong",
        to_value(&CheckedInvite { player: None }),
        f,
    );
    // The claim's refusals that an invite's page tells apart (issue 46), as the edge makes them.
    for (file, refusal) in [
        (
            "http_error_seat_held",
            ClaimError::AlreadyClaimed(Army::Blue),
        ),
        ("http_error_bad_invite", ClaimError::BadToken),
    ] {
        let error = AppError::from(refusal);
        check(
            file,
            to_value(&ErrorBody {
                error: ErrorDetail {
                    code: error.code().into(),
                    message: error.to_string(),
                },
            }),
            f,
        );
    }
    let list = GameList {
        games: vec![GameSummary {
            id,
            players: 4,
            hostage: None,
            open: true,
            listed: true,
            status: GameStatus::Open,
            seats: vec![SeatSummary {
                player: Army::Red,
                name: Some("Ann".into()),
                claimed: true,
                connected: true,
                bot: None,
                member: None,
            }],
            spectators: 1,
            to_move: Some(Army::Red),
            turn: 1,
            deadline: None,
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
        game.apply(
            &EventKind::Turn {
                player: p,
                turn: t.parse::<djambi_core::TurnText>().unwrap().0,
            },
            AT,
        )
        .unwrap();
    }
    game.apply(
        &EventKind::Resign {
            player: Army::Yellow,
        },
        AT,
    )
    .unwrap();
    let record: GameRecord = game.game.record();
    check("record", to_value(&record), f);

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
