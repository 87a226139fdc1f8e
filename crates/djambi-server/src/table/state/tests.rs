use super::*;
use crate::table::{BotReason, ClockSpec};
use crate::token::SeatToken;
use djambi_core::Army::*;

pub(crate) fn seats(players: &[Player]) -> Vec<Seat> {
    players
        .iter()
        .map(|&player| Seat {
            player,
            name: None,
            token_hash: SeatToken::generate().hash(),
            claimed: true,
            bot: None,
            start_bot: None,
            member: None,
        })
        .collect()
}

fn four() -> GameState {
    let mut s = GameState::new(Uuid::new_v4(), Position::new(), seats(&Army::ALL), false, 0);
    s.apply(&EventKind::Started, 0).unwrap();
    s
}

fn turn(player: Player, text: &str) -> EventKind {
    let djambi_core::TurnText(turn) = text.parse().unwrap();
    EventKind::Turn { player, turn }
}

#[test]
fn events_advance_the_version_and_illegal_ones_change_nothing() {
    let mut s = four();
    assert_eq!(s.status(), GameStatus::Live);
    let e = s.apply(&turn(Red, "b7-b5"), 0).unwrap();
    assert!(e.effects.is_some_and(|fx| !fx.is_empty()));
    assert_eq!(e.number, Some(1));
    assert!(e.undone.is_empty());
    assert_eq!(s.v, 2);
    let before = s.clone();
    assert!(s.apply(&turn(Red, "a7-a6"), 0).is_err());
    assert!(s.apply(&turn(Blue, "g7-e5"), 0).is_err());
    assert_eq!(s.v, before.v);
    assert_eq!(s.position(), before.position());
}

#[test]
fn a_draw_needs_an_offer_and_ends_the_game() {
    let mut s = four();
    assert!(s.apply(&EventKind::DrawAccepted { by: Blue }, 0).is_err());
    s.apply(&EventKind::DrawOffered { by: Red }, 0).unwrap();
    s.apply(&EventKind::DrawAccepted { by: Blue }, 0).unwrap();
    assert_eq!(s.draw.unwrap().accepted.len(), 2);
    let agreed = |by| EventKind::DrawAgreed {
        by,
        excused: ArmySet::EMPTY,
    };
    assert!(s.apply(&agreed(Green), 0).is_err());
    // An absent player may be excused.
    let mut t = s.clone();
    t.apply(
        &EventKind::DrawAgreed {
            by: Green,
            excused: ArmySet::EMPTY.with(Yellow),
        },
        0,
    )
    .unwrap();
    assert_eq!(t.status(), GameStatus::Finished);
    s.apply(&EventKind::DrawAccepted { by: Yellow }, 0).unwrap();
    s.apply(&agreed(Green), 0).unwrap();
    assert_eq!(s.status(), GameStatus::Finished);
    assert!(matches!(s.result(), Some(ResultRecord::Draw(p)) if p.len() == 4));
}

#[test]
fn a_game_waits_for_its_start() {
    let mut s = GameState::new(Uuid::new_v4(), Position::new(), seats(&Army::ALL), false, 0);
    s.seats[2].claimed = false;
    assert_eq!(s.status(), GameStatus::Open);
    s.seats[2].claimed = true;
    assert_eq!(s.status(), GameStatus::Open, "until the started event");
    s.apply(&EventKind::Started, 0).unwrap();
    assert_eq!(s.status(), GameStatus::Live);
}

#[test]
fn a_takeback_removes_the_turn_and_its_passes() {
    let mut s = four();
    s.apply(&turn(Red, "b7-b5"), 0).unwrap();
    s.apply(&turn(Blue, "h7-h5"), 0).unwrap();
    assert!(s.can_take_back(Blue) && !s.can_take_back(Red));
    let after_red = s.game.events()[..1].to_vec();
    s.apply(&EventKind::TakebackRequested { by: Blue }, 0)
        .unwrap();
    s.apply(&EventKind::TakebackAnswered { by: Red, yes: true }, 0)
        .unwrap();
    assert!(
        s.apply(&EventKind::TakenBack { player: Red }, 0).is_err(),
        "not Red's request"
    );
    s.apply(&EventKind::TakenBack { player: Blue }, 0).unwrap();
    assert_eq!(s.game.events(), after_red);
    assert_eq!(s.position().to_move(), Some(Blue));
    assert_eq!(s.turns().len(), 1);
    assert_eq!(s.turns()[0].v, 2);
    assert_eq!(s.v, 6, "the log keeps everything");
    // The record keeps only the turns that stand, and replays.
    let record = s.game.record();
    assert_eq!(record.events.len(), 1);
    assert!(djambi_core::Game::from_record(&record).is_ok());
}

#[test]
fn a_vote_passes_by_majority() {
    let mut s = four();
    let voters = ArmySet::EMPTY.with(Blue).with(Yellow).with(Green);
    s.apply(
        &EventKind::VoteOpened {
            by: Blue,
            target: Red,
            action: VoteAction::Bot(Level::Medium),
            voters,
        },
        0,
    )
    .unwrap();
    assert!(!s.vote.unwrap().passed() && !s.vote.unwrap().failed());
    assert!(
        s.apply(&EventKind::VoteClosed { passed: true }, 0).is_err(),
        "1 of 3 is no majority"
    );
    s.apply(
        &EventKind::VoteCast {
            by: Yellow,
            yes: true,
        },
        0,
    )
    .unwrap();
    assert!(s.vote.unwrap().passed());
    s.apply(&EventKind::VoteClosed { passed: true }, 0).unwrap();
    s.apply(
        &EventKind::SeatToBot {
            player: Red,
            level: Level::Medium,
            reason: BotReason::Vote,
        },
        0,
    )
    .unwrap();
    assert_eq!(s.bot(Red), Some(Level::Medium));
    assert_eq!(s.runner(), None, "a bot's clock does not run");
    s.apply(&EventKind::SeatToHuman { player: Red }, 0).unwrap();
    assert_eq!(s.bot(Red), None);
}

#[test]
fn the_clock_follows_the_events_times() {
    let mut s = GameState::new(Uuid::new_v4(), Position::new(), seats(&Army::ALL), false, 0)
        .with_settings(
            Settings {
                clock: Some(ClockSpec::Live {
                    initial_s: 10,
                    increment_s: 2,
                }),
                ..Settings::default()
            },
            None,
        );
    s.apply(&EventKind::Started, 1_000).unwrap();
    assert_eq!(s.clock.unwrap().deadline(), Some((Red, 11_000)));
    s.apply(&turn(Red, "b7-b5"), 4_000).unwrap();
    // The first turn is not charged (and earns no increment).
    assert_eq!(s.clock.unwrap().left(Red, 4_000), 10_000);
    assert_eq!(s.clock.unwrap().deadline(), Some((Blue, 14_000)));
    assert!(s.apply(&EventKind::Timeout { player: Red }, 5_000).is_err());
    s.apply(&EventKind::Timeout { player: Blue }, 14_000)
        .unwrap();
    assert_eq!(s.clock.unwrap().left(Blue, 14_000), 0);
    // Replaying the log gives the same clock.
    let mut again = s.at_start();
    for (kind, at) in s.log.clone() {
        again.apply(&kind, at).unwrap();
    }
    assert_eq!(again.clock, s.clock);
}
