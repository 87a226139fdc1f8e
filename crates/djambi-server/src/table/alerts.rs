//! What a seat should be told when it is away (Web Push, issue 23): after the events of one
//! commit, which seats get which notice ([`notices`]); and when the player to move of a
//! correspondence game should be warned that its deadline is near ([`deadline_warning`]).
//! Pure decisions: whether the seat is away (no socket) and how the notice travels are the
//! actor's and the push part's.

use djambi_core::{Player, ResultRecord};
use serde::{Deserialize, Serialize};

use super::event::EventKind;
use super::settings::ClockSpec;
use super::state::GameState;

/// A deadline warning goes out when this fraction of the turn's time is left (10 %).
pub const DEADLINE_WARNING_PERCENT: i64 = 10;

/// Something a seat should know, with what its text needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    /// It is the seat's turn.
    YourTurn,
    /// `by` offers a draw; the seat's answer is wanted.
    DrawOffer {
        /// Who offers.
        by: Player,
    },
    /// A vote about an absent player opened; the seat may vote.
    Vote {
        /// Who opened it.
        by: Player,
        /// The absent player.
        target: Player,
    },
    /// `by` asks to take back their last turn; the seat's answer is wanted.
    Takeback {
        /// Who asks.
        by: Player,
    },
    /// The seat's correspondence deadline is near.
    Deadline {
        /// Time left (ms).
        left_ms: i64,
    },
    /// The game ended.
    GameOver(Ending),
}

/// How a game ended, as a notice says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    /// It was won.
    Won(Player),
    /// It was drawn.
    Drawn,
    /// It was called off.
    Cancelled,
}

impl Notice {
    /// The notice's kind, as the push payload's `kind` says it.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::YourTurn => "your_turn",
            Notice::DrawOffer { .. } => "draw_offer",
            Notice::Vote { .. } => "vote",
            Notice::Takeback { .. } => "takeback",
            Notice::Deadline { .. } => "deadline",
            Notice::GameOver(_) => "game_over",
        }
    }
}

/// Where a game stood before a commit (what [`notices`] compares with).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Before {
    /// The person whose turn ran ([`GameState::runner`]).
    pub runner: Option<Player>,
    /// Whether the game was over.
    pub over: bool,
}

impl Before {
    /// Where `state` stands now.
    pub fn of(state: &GameState) -> Before {
        Before {
            runner: state.runner(),
            over: state.is_over(),
        }
    }
}

/// The notices owed after `events` were committed, the game having been at `before` and being
/// at `state` now: each seat a person plays, with what it should know (none for the seat that
/// acted, which is at the table). In the order of the events; a seat may get several.
pub fn notices(before: Before, state: &GameState, events: &[EventKind]) -> Vec<(Player, Notice)> {
    let mut out = Vec::new();
    let people = state.living_humans();
    for event in events {
        match *event {
            EventKind::DrawOffered { by } => {
                for p in people.without(by).iter() {
                    out.push((p, Notice::DrawOffer { by }));
                }
            }
            EventKind::VoteOpened {
                by, target, voters, ..
            } => {
                for p in voters.iter().filter(|p| *p != by && people.contains(*p)) {
                    out.push((p, Notice::Vote { by, target }));
                }
            }
            EventKind::TakebackRequested { by } => {
                for p in people.without(by).iter() {
                    out.push((p, Notice::Takeback { by }));
                }
            }
            _ => {}
        }
    }
    // Whose turn it is now, if it became theirs (a bonus turn of the same player is not new;
    // a turn taken back gives the turn again).
    let retaken = events
        .iter()
        .any(|e| matches!(e, EventKind::TakenBack { .. } | EventKind::Started));
    if let Some(runner) = state.runner()
        && (before.runner != Some(runner) || retaken)
    {
        out.push((runner, Notice::YourTurn));
    }
    if !before.over && state.is_over() {
        let ending = ending(state);
        for seat in state
            .seats
            .iter()
            .filter(|s| s.claimed && s.start_bot.is_none())
        {
            out.push((seat.player, Notice::GameOver(ending)));
        }
    }
    out
}

/// How a game that is over ended.
fn ending(state: &GameState) -> Ending {
    if state.cancelled.is_some() {
        return Ending::Cancelled;
    }
    match state.result() {
        Some(ResultRecord::Winner(p)) => Ending::Won(p),
        _ => Ending::Drawn,
    }
}

/// In a correspondence game, the person to move, when their warning is due (ms: when a tenth
/// of the turn's time is left) and their deadline; none in other games or on a bot's turn.
pub fn deadline_warning(state: &GameState) -> Option<(Player, i64, i64)> {
    let clock = state.clock?;
    let ClockSpec::Correspondence { per_turn_s } = clock.spec() else {
        return None;
    };
    let (player, deadline) = clock.deadline()?;
    if state.runner() != Some(player) {
        return None;
    }
    let turn_ms = i64::from(per_turn_s) * 1000;
    Some((
        player,
        deadline - turn_ms * DEADLINE_WARNING_PERCENT / 100,
        deadline,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{ClockSpec, Seat, Settings, VoteAction};
    use djambi_core::{Army::*, ArmySet, Position, Rules, Turn};
    use djambi_engine::Level;
    use uuid::Uuid;

    use crate::token::TokenHash;

    /// A 4-player game with every seat claimed by a person, or by a bot where `bots` says.
    fn game(bots: &[Player], clock: Option<ClockSpec>) -> GameState {
        let seats = [Red, Blue, Yellow, Green]
            .into_iter()
            .map(|p| {
                let bot = bots.contains(&p).then_some(Level::Medium);
                let mut seat = Seat::stored(p, None, TokenHash::of("t"), true, bot);
                seat.claimed = true;
                seat
            })
            .collect();
        let settings = Settings {
            clock,
            ..Settings::default()
        };
        GameState::new(
            Uuid::nil(),
            Position::start(Rules::default()),
            seats,
            false,
            0,
        )
        .with_settings(settings, None)
    }

    /// Applies `events` at time `at`; returns the notices owed.
    fn run(state: &mut GameState, events: &[EventKind], at: i64) -> Vec<(Player, Notice)> {
        let before = Before::of(state);
        for e in events {
            state.apply(e, at).unwrap();
        }
        notices(before, state, events)
    }

    fn first_turn(state: &GameState) -> EventKind {
        let turn: Turn = state.position().legal_turns()[0];
        EventKind::Turn {
            player: state.position().to_move().unwrap(),
            turn,
        }
    }

    #[test]
    fn the_start_tells_the_first_person_to_move() {
        let mut g = game(&[], None);
        let out = run(&mut g, &[EventKind::Started], 1);
        assert_eq!(out, vec![(Red, Notice::YourTurn)]);
    }

    #[test]
    fn a_turn_tells_the_next_person_and_skips_bots() {
        let mut g = game(&[Blue], None);
        run(&mut g, &[EventKind::Started], 1);
        // Red plays: Blue is a bot, so nobody is told yet.
        let t = first_turn(&g);
        assert_eq!(run(&mut g, &[t], 2), vec![]);
        // The bot plays: Yellow, a person, is told.
        let t = first_turn(&g);
        assert_eq!(run(&mut g, &[t], 3), vec![(Yellow, Notice::YourTurn)]);
    }

    #[test]
    fn a_draw_offer_and_a_takeback_ask_every_other_person() {
        let mut g = game(&[Green], None);
        run(&mut g, &[EventKind::Started], 1);
        let out = run(&mut g, &[EventKind::DrawOffered { by: Red }], 2);
        assert_eq!(
            out,
            vec![
                (Blue, Notice::DrawOffer { by: Red }),
                (Yellow, Notice::DrawOffer { by: Red })
            ]
        );
        run(&mut g, &[EventKind::DrawDeclined { by: Blue }], 3);
        let t = first_turn(&g);
        run(&mut g, &[t], 4);
        let out = run(&mut g, &[EventKind::TakebackRequested { by: Red }], 5);
        assert_eq!(
            out,
            vec![
                (Blue, Notice::Takeback { by: Red }),
                (Yellow, Notice::Takeback { by: Red })
            ]
        );
    }

    #[test]
    fn a_turn_taken_back_is_the_requesters_turn_again() {
        let mut g = game(&[], None);
        run(&mut g, &[EventKind::Started], 1);
        let t = first_turn(&g);
        run(&mut g, &[t], 2);
        run(&mut g, &[EventKind::TakebackRequested { by: Red }], 3);
        let out = run(
            &mut g,
            &[
                EventKind::TakebackAnswered {
                    by: Blue,
                    yes: true,
                },
                EventKind::TakebackAnswered {
                    by: Yellow,
                    yes: true,
                },
                EventKind::TakebackAnswered {
                    by: Green,
                    yes: true,
                },
                EventKind::TakenBack { player: Red },
            ],
            4,
        );
        assert_eq!(out, vec![(Red, Notice::YourTurn)]);
    }

    #[test]
    fn a_vote_asks_its_voters_but_not_its_author() {
        let mut g = game(&[], None);
        run(&mut g, &[EventKind::Started], 1);
        // A vote about Red, the absent player to move.
        let voters = ArmySet::EMPTY.with(Blue).with(Yellow).with(Green);
        let out = run(
            &mut g,
            &[EventKind::VoteOpened {
                by: Blue,
                target: Red,
                action: VoteAction::Resign,
                voters,
            }],
            2,
        );
        assert_eq!(
            out,
            vec![
                (
                    Yellow,
                    Notice::Vote {
                        by: Blue,
                        target: Red
                    }
                ),
                (
                    Green,
                    Notice::Vote {
                        by: Blue,
                        target: Red
                    }
                )
            ]
        );
    }

    #[test]
    fn the_end_tells_every_person_once() {
        let mut g = game(&[Green], None);
        run(&mut g, &[EventKind::Started], 1);
        let draw = crate::table::agreed_draw(&g);
        let out = run(&mut g, &draw, 2);
        let over: Vec<_> = out
            .iter()
            .filter(|(_, n)| matches!(n, Notice::GameOver(_)))
            .collect();
        assert_eq!(
            over,
            vec![
                &(Red, Notice::GameOver(Ending::Drawn)),
                &(Blue, Notice::GameOver(Ending::Drawn)),
                &(Yellow, Notice::GameOver(Ending::Drawn))
            ]
        );
        // Over already: nothing more.
        assert_eq!(notices(Before::of(&g), &g, &[]), vec![]);
    }

    #[test]
    fn a_cancelled_game_says_so() {
        let mut g = game(&[], None);
        let out = run(
            &mut g,
            &[EventKind::Cancelled {
                reason: crate::table::CancelReason::Expired,
            }],
            1,
        );
        assert!(out.contains(&(Red, Notice::GameOver(Ending::Cancelled))));
    }

    #[test]
    fn the_deadline_warning_is_due_at_a_tenth_of_the_turn() {
        let day = ClockSpec::Correspondence { per_turn_s: 86_400 };
        let mut g = game(&[], Some(day));
        assert_eq!(deadline_warning(&g), None);
        run(&mut g, &[EventKind::Started], 1000);
        let deadline = 1000 + 86_400_000;
        assert_eq!(
            deadline_warning(&g),
            Some((Red, deadline - 8_640_000, deadline))
        );
        let live = ClockSpec::Live {
            initial_s: 60,
            increment_s: 0,
        };
        let mut g = game(&[], Some(live));
        run(&mut g, &[EventKind::Started], 1000);
        assert_eq!(deadline_warning(&g), None);
    }
}
