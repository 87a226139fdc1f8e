//! What a player may do (`table::decide`), and the socket's code for each refusal.

use djambi_core::Army::*;
use djambi_core::{Army, ArmySet, Player, Position};
use djambi_server::protocol::ErrorCode;
use djambi_server::table::{
    Action, AtTable, BotReason, EventKind, GameState, Refusal, Role, Seat, VoteAction, consequences,
};
use std::str::FromStr;
use uuid::Uuid;

/// A refusal as the socket reports it: its code and message.
#[derive(Debug)]
struct Coded {
    code: ErrorCode,
    message: String,
    kind: Option<djambi_core::IllegalKind>,
}

impl From<Refusal> for Coded {
    fn from(r: Refusal) -> Coded {
        Coded {
            code: ErrorCode::from(&r),
            message: r.to_string(),
            kind: match r {
                Refusal::Illegal { kind, .. } => Some(kind),
                _ => None,
            },
        }
    }
}

/// `table::decide`, its refusal as the socket reports it.
fn decide(s: &GameState, role: Role, action: &Action, t: &AtTable) -> Result<EventKind, Coded> {
    djambi_server::table::decide(s, role, action, t).map_err(Coded::from)
}

fn four() -> GameState {
    let seats = Army::ALL
        .iter()
        .map(|&player| Seat {
            player,
            name: None,
            token_hash: djambi_server::token::SeatToken::generate().hash(),
            claimed: true,
            bot: None,
            start_bot: None,
            member: None,
        })
        .collect();
    let mut s = GameState::new(Uuid::new_v4(), Position::new(), seats, false, 0);
    s.apply(&EventKind::Started, 0).unwrap();
    s
}

fn all_here() -> AtTable {
    AtTable {
        connected: ArmySet::EMPTY.with(Red).with(Blue).with(Yellow).with(Green),
        away_since: [None; 4],
        now: 1_000_000,
        grace_ms: 120_000,
    }
}

#[test]
fn typed_rejections() {
    let s = four();
    let t = all_here();
    let code = |role, action: Action| decide(&s, role, &action, &t).unwrap_err().code;
    assert_eq!(
        code(Role::Spectator, Action::Move("b7-b5".into())),
        ErrorCode::Spectator
    );
    assert_eq!(
        code(Role::Player(Blue), Action::Move("h7-h5".into())),
        ErrorCode::NotYourTurn
    );
    let e = decide(&s, Role::Player(Red), &Action::Move("g7-e5".into()), &t).unwrap_err();
    assert_eq!(e.code, ErrorCode::Illegal);
    assert!(e.kind.is_some());
    assert_eq!(
        code(Role::Player(Red), Action::AcceptDraw),
        ErrorCode::NoDrawOffer
    );
    assert_eq!(
        decide(&s, Role::Player(Red), &Action::Move("B7-B5".into()), &t).unwrap(),
        EventKind::Turn {
            player: Red,
            turn: djambi_core::TurnText::from_str("b7-b5").unwrap().0
        }
    );
    assert_eq!(code(Role::Player(Red), Action::Reclaim), ErrorCode::NoBot);
    assert_eq!(
        code(Role::Player(Red), Action::Takeback),
        ErrorCode::NoTakeback
    );
}

#[test]
fn the_last_acceptance_agrees_the_draw_and_the_long_absent_are_excused() {
    let mut s = four();
    let t = all_here();
    s.apply(&EventKind::DrawOffered { by: Red }, 0).unwrap();
    assert_eq!(
        decide(&s, Role::Player(Red), &Action::AcceptDraw, &t)
            .unwrap_err()
            .code,
        ErrorCode::DrawPending
    );
    for p in [Blue, Yellow] {
        let e = decide(&s, Role::Player(p), &Action::OfferDraw, &t).unwrap();
        assert_eq!(e, EventKind::DrawAccepted { by: p });
        s.apply(&e, 0).unwrap();
    }
    assert_eq!(
        decide(&s, Role::Player(Green), &Action::AcceptDraw, &t).unwrap(),
        EventKind::DrawAgreed {
            by: Green,
            excused: ArmySet::EMPTY
        }
    );
    // Green away for long: Yellow's agreement completes the offer without Green's.
    let mut s = four();
    s.apply(&EventKind::DrawOffered { by: Red }, 0).unwrap();
    s.apply(&EventKind::DrawAccepted { by: Blue }, 0).unwrap();
    let mut t = all_here();
    t.connected = t.connected.without(Green);
    t.away_since[Green.index()] = Some(t.now - 200_000);
    assert_eq!(
        decide(&s, Role::Player(Yellow), &Action::AcceptDraw, &t).unwrap(),
        EventKind::DrawAgreed {
            by: Yellow,
            excused: ArmySet::EMPTY.with(Green)
        }
    );
}

#[test]
fn a_vote_needs_the_target_away_on_its_turn() {
    let s = four();
    let mut t = all_here();
    let vote = Action::Vote(Red, VoteAction::Resign);
    assert_eq!(
        decide(&s, Role::Player(Blue), &vote, &t).unwrap_err().code,
        ErrorCode::NoVote,
        "red is here"
    );
    t.connected = t.connected.without(Red);
    t.away_since[Red.index()] = Some(t.now - 60_000);
    assert_eq!(
        decide(&s, Role::Player(Blue), &vote, &t).unwrap_err().code,
        ErrorCode::NoVote,
        "not away long enough"
    );
    t.away_since[Red.index()] = Some(t.now - 130_000);
    let e = decide(&s, Role::Player(Blue), &vote, &t).unwrap();
    assert_eq!(
        e,
        EventKind::VoteOpened {
            by: Blue,
            target: Red,
            action: VoteAction::Resign,
            voters: ArmySet::EMPTY.with(Blue).with(Yellow).with(Green),
        }
    );
    let away = Action::Vote(Yellow, VoteAction::Resign);
    assert_eq!(
        decide(&s, Role::Player(Blue), &away, &t).unwrap_err().code,
        ErrorCode::NoVote,
        "only the player to move"
    );
    // Two yes of three: passed, and the action follows.
    let mut s = s;
    s.apply(&e, 0).unwrap();
    assert!(consequences(&s, &t).is_empty());
    s.apply(
        &EventKind::VoteCast {
            by: Green,
            yes: true,
        },
        0,
    )
    .unwrap();
    assert_eq!(
        consequences(&s, &t),
        [
            EventKind::VoteClosed { passed: true },
            EventKind::Resign { player: Red }
        ]
    );
    // Red coming back closes the vote.
    t.connected = t.connected.with(Red);
    let mut back = four();
    back.apply(&e, 0).unwrap();
    assert_eq!(
        consequences(&back, &t),
        [EventKind::VoteClosed { passed: false }]
    );
}

#[test]
fn a_takeback_needs_every_other_person() {
    let mut s = four();
    let t = all_here();
    s.apply(
        &decide(&s, Role::Player(Red), &Action::Move("b7-b5".into()), &t).unwrap(),
        0,
    )
    .unwrap();
    let ask = decide(&s, Role::Player(Red), &Action::Takeback, &t).unwrap();
    s.apply(&ask, 0).unwrap();
    for p in [Blue, Yellow] {
        assert!(consequences(&s, &t).is_empty());
        s.apply(&EventKind::TakebackAnswered { by: p, yes: true }, 0)
            .unwrap();
    }
    // Green is a bot: bots agree.
    s.seats[3].bot = Some(djambi_engine::Level::Easy);
    assert_eq!(consequences(&s, &t), [EventKind::TakenBack { player: Red }]);
}

/// Two chiefs walled in by corpses: nothing can ever be killed.
const WALLED: &str = "6X1Cb/6X2/6XXX/9/9/9/XXX6/2X6/Cr1X6 r rb-- - 0 - 0 1";

/// A started game of people from [`WALLED`] under `rules`.
fn walled(rules: djambi_core::Rules) -> GameState {
    let mut s = four();
    s.game = djambi_core::Game::new(Position::from_dpn(WALLED, rules).unwrap());
    s
}

/// Hands `players`' seats to easy bots, as a vote would.
fn to_bots(s: &mut GameState, players: &[Player]) {
    for &player in players {
        let kind = EventKind::SeatToBot {
            player,
            level: djambi_engine::Level::Easy,
            reason: BotReason::Vote,
        };
        s.apply(&kind, 0).unwrap();
    }
}

/// Plays `n` turns of `s` (the first legal one each time), as their players.
fn shuffle(s: &mut GameState, n: usize) {
    let mut buf = Vec::new();
    for _ in 0..n {
        let player = s.position().to_move().unwrap();
        s.position().legal_turns_into(&mut buf);
        let kind = EventKind::Turn {
            player,
            turn: buf[0],
        };
        s.apply(&kind, 0).unwrap();
    }
}

#[test]
fn a_table_of_bots_agrees_a_draw_after_100_quiet_turns_from_the_moment_people_left() {
    let mut s = walled(djambi_core::Rules::default());
    let t = all_here();
    // People shuffle for 30 turns: their quiet turns do not count for the bots' table.
    shuffle(&mut s, 30);
    assert_eq!(s.bots_alone_quiet(), None);
    to_bots(&mut s, &[Red, Blue]);
    assert_eq!(s.bots_alone_quiet(), Some(0));
    shuffle(&mut s, 99);
    assert_eq!(s.bots_alone_quiet(), Some(99));
    assert!(consequences(&s, &t).is_empty());
    shuffle(&mut s, 1);
    let draw = consequences(&s, &t);
    assert_eq!(
        draw,
        [
            EventKind::DrawOffered { by: Red },
            EventKind::DrawAgreed {
                by: Blue,
                excused: ArmySet::EMPTY
            }
        ]
    );
    for kind in &draw {
        s.apply(kind, 0).unwrap();
    }
    assert!(s.is_over());
    assert_eq!(
        s.game.outcome(),
        djambi_core::Outcome::Draw(ArmySet::EMPTY.with(Red).with(Blue))
    );

    // A person taking a seat back stops the count; bots alone again start it anew.
    let mut s2 = walled(djambi_core::Rules::default());
    to_bots(&mut s2, &[Red, Blue]);
    shuffle(&mut s2, 60);
    s2.apply(&EventKind::SeatToHuman { player: Red }, 0)
        .unwrap();
    assert_eq!(s2.bots_alone_quiet(), None);
    shuffle(&mut s2, 2);
    to_bots(&mut s2, &[Red]);
    shuffle(&mut s2, 99);
    assert!(
        consequences(&s2, &t).is_empty(),
        "counted from the last person's leaving"
    );
}

#[test]
fn a_turn_limit_of_the_rules_bounds_a_table_of_bots_itself() {
    let rules = djambi_core::Rules {
        turn_limit: std::num::NonZeroU32::new(150),
        ..djambi_core::Rules::default()
    };
    let mut s = walled(rules);
    for seat in &mut s.seats {
        seat.bot = Some(djambi_engine::Level::Easy);
    }
    s.apply(&EventKind::Paused { from: 0, until: 0 }, 0)
        .unwrap();
    shuffle(&mut s, 120);
    assert!(
        consequences(&s, &all_here()).is_empty(),
        "R12.4 of the rules governs"
    );
}

#[test]
fn a_game_of_people_is_drawn_after_500_quiet_turns() {
    let mut s = walled(djambi_core::Rules::default());
    let t = all_here();
    shuffle(&mut s, 499);
    assert!(consequences(&s, &t).is_empty());
    shuffle(&mut s, 1);
    let draw = consequences(&s, &t);
    assert_eq!(draw.len(), 2, "{draw:?}");
    for kind in &draw {
        s.apply(kind, 0).unwrap();
    }
    assert!(s.is_over());
}

/// The first legal turn of the player to move, as its event.
fn first_turn(s: &GameState) -> EventKind {
    let player = s.position().to_move().unwrap();
    EventKind::Turn {
        player,
        turn: s.position().legal_turns()[0],
    }
}

#[test]
fn a_takeback_is_asked_once_per_turn_and_never_for_a_bots_turn() {
    let mut s = four();
    let t = all_here();
    let red_moves = first_turn(&s);
    s.apply(&red_moves, 0).unwrap();
    let ask = decide(&s, Role::Player(Red), &Action::Takeback, &t).unwrap();
    s.apply(&ask, 0).unwrap();
    s.apply(
        &EventKind::TakebackAnswered {
            by: Blue,
            yes: false,
        },
        0,
    )
    .unwrap();
    assert_eq!(s.takeback, None, "refused");
    let again = decide(&s, Role::Player(Red), &Action::Takeback, &t).unwrap_err();
    assert_eq!(again.code, ErrorCode::NoTakeback);
    assert!(
        again.message.contains("one request per turn"),
        "{}",
        again.message
    );

    // Blue's seat goes to a bot, which plays; Blue takes the seat back: the bot's turn is not
    // Blue's to take back.
    let mut s = four();
    s.apply(&red_moves, 0).unwrap();
    let to_bot = EventKind::SeatToBot {
        player: Blue,
        level: djambi_engine::Level::Easy,
        reason: BotReason::Vote,
    };
    s.apply(&to_bot, 0).unwrap();
    s.apply(&first_turn(&s), 0).unwrap();
    s.apply(&EventKind::SeatToHuman { player: Blue }, 0)
        .unwrap();
    let refused = decide(&s, Role::Player(Blue), &Action::Takeback, &t).unwrap_err();
    assert!(
        refused.message.contains("your bot's"),
        "{}",
        refused.message
    );
    // Her own next turn (Yellow, Green, Red, then Blue herself) she may take back.
    for _ in 0..4 {
        s.apply(&first_turn(&s), 0).unwrap();
    }
    assert_eq!(s.position().to_move(), Some(Yellow));
    assert!(decide(&s, Role::Player(Blue), &Action::Takeback, &t).is_ok());
}

#[test]
fn a_draw_is_offered_once_per_player_per_turn() {
    let mut s = four();
    let t = all_here();
    let offer = decide(&s, Role::Player(Red), &Action::OfferDraw, &t).unwrap();
    s.apply(&offer, 0).unwrap();
    s.apply(&EventKind::DrawDeclined { by: Blue }, 0).unwrap();
    let again = decide(&s, Role::Player(Red), &Action::OfferDraw, &t).unwrap_err();
    assert_eq!(again.code, ErrorCode::RateLimited);
    assert!(
        again.message.contains("one offer per turn"),
        "{}",
        again.message
    );
    // Another player may offer; after the next turn Red may again.
    assert!(decide(&s, Role::Player(Yellow), &Action::OfferDraw, &t).is_ok());
    s.apply(&first_turn(&s), 0).unwrap();
    assert!(decide(&s, Role::Player(Red), &Action::OfferDraw, &t).is_ok());
}

#[test]
fn a_timeout_with_no_room_for_a_bot_resigns_the_player() {
    let mut s = four();
    s.settings.on_timeout = djambi_server::table::OnTimeout::Bot;
    let with_bot = djambi_server::table::timeout(&s, Red, true);
    assert!(
        matches!(with_bot[1], EventKind::SeatToBot { player: Red, .. }),
        "{with_bot:?}"
    );
    let without = djambi_server::table::timeout(&s, Red, false);
    assert_eq!(
        without,
        vec![
            EventKind::Timeout { player: Red },
            EventKind::Resign { player: Red }
        ]
    );
}
