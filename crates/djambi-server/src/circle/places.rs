//! The places of a finished circle game, read from its event log (docs/CIRCLES.md, "Places").
//! Pure: the game's start and its events in, the places out.
//!
//! The rule: the winner first; the others by how long they lasted, the later out the better;
//! the players sharing a draw share the first place, above those already out; players out by
//! the same event share a place; a seat handed to a bot by a vote or a timeout ranks its
//! player as out at that moment (whatever the bot, or the player back at the seat, does next).
//! A cancelled game has no places. A game is rated when at least two members took seats in it.
//!
//! "Moments" are counted in the core's events that stand (turns, resignations, the draw): a
//! player eliminated by the `i`-th of them went out at `2i`, a seat handed over after `k` of
//! them at `2k + 1` (after the eliminations of the `k`-th, before the next), a survivor never.
//! A place is one plus the number of seats that went out strictly later.

use djambi_core::{Player, ResultRecord};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::table::{BotLevel, Event, GameState, GameStatus, ReplayError};

/// How a seat's player's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The winner.
    Won,
    /// Shared the draw.
    Drew,
    /// Eliminated (a resignation included).
    Out,
    /// Handed to a bot by a vote or a timeout: out at that moment.
    Replaced,
}

impl End {
    /// As the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            End::Won => "won",
            End::Drew => "drew",
            End::Out => "out",
            End::Replaced => "replaced",
        }
    }
}

/// One seat's place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPlace {
    /// The seat.
    pub seat: Player,
    /// Its place: 1 is first; seats out at the same moment share one.
    pub place: u8,
    /// The circle's member who played it, if one did.
    pub member: Option<Uuid>,
    /// The bot that played it from the start, if one did (rated as a fixed anchor).
    pub bot: Option<BotLevel>,
    /// How it ended.
    pub end: End,
}

/// The places of one finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePlaces {
    /// The game.
    pub game: Uuid,
    /// When the event that ended it happened (ms since the epoch): the finishing order.
    pub finished_at: i64,
    /// Whether it counts for the ratings: at least two members took seats.
    pub rated: bool,
    /// Each seat's place, in base order.
    pub seats: Vec<SeatPlace>,
}

/// The least members at a rated game.
pub const MIN_MEMBERS: usize = 2;

/// The places of the game that starts as `start` and whose log is `events`, by the rule above;
/// `None` while it is not finished, and for a cancelled game.
pub fn places(start: GameState, events: &[Event]) -> Result<Option<GamePlaces>, ReplayError> {
    let mut state = start;
    // The core's events that stood when each seat was handed to a bot (the first time).
    let mut handed: [Option<usize>; 4] = [None; 4];
    for event in events {
        state.replay(event)?;
        if let Some(player) = event.kind.seat_taken_over() {
            handed[player.index()].get_or_insert(state.game.events().len());
        }
    }
    if state.status() != GameStatus::Finished {
        return Ok(None);
    }
    let Some(last) = events.last() else {
        return Ok(None);
    };
    let positions = state.game.positions();
    let result = state.result();
    let mut outs: Vec<(Player, u64, End)> = Vec::new();
    for seat in &state.seats {
        let p = seat.player;
        let eliminated = if !positions[0].is_alive(p) {
            Some(0)
        } else {
            positions
                .iter()
                .position(|pos| !pos.is_alive(p))
                .map(|i| 2 * i as u64)
        };
        let replaced = handed[p.index()].map(|k| 2 * k as u64 + 1);
        let (moment, end) = match (eliminated, replaced) {
            (_, Some(r)) if eliminated.is_none_or(|e| r < e) => (r, End::Replaced),
            (Some(e), _) => (e, End::Out),
            (None, _) => match &result {
                Some(ResultRecord::Winner(_)) => (u64::MAX, End::Won),
                _ => (u64::MAX, End::Drew),
            },
        };
        outs.push((p, moment, end));
    }
    let seats: Vec<SeatPlace> = state
        .seats
        .iter()
        .zip(&outs)
        .map(|(seat, (p, moment, end))| {
            let later = outs.iter().filter(|(_, m, _)| m > moment).count();
            SeatPlace {
                seat: *p,
                place: u8::try_from(later + 1).unwrap_or(u8::MAX),
                member: seat.member,
                bot: seat.start_bot.map(BotLevel),
                end: *end,
            }
        })
        .collect();
    let members = seats.iter().filter(|s| s.member.is_some()).count();
    Ok(Some(GamePlaces {
        game: state.id,
        finished_at: last.at,
        rated: members >= MIN_MEMBERS,
        seats,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{BotReason, EventKind, Seat, VoteAction};
    use crate::token::TokenHash;
    use djambi_core::Army::*;
    use djambi_core::{Position, Rules};
    use djambi_engine::Level;

    /// A 4-player game whose seats red, blue, yellow are members 1, 2, 3 and green is a
    /// `green` seat (a member 4, or a bot, or a guest).
    fn game(green: Option<Level>, green_member: bool) -> GameState {
        let seats = [Red, Blue, Yellow, Green]
            .into_iter()
            .enumerate()
            .map(|(i, p)| {
                let bot = if p == Green { green } else { None };
                let member = (p != Green || green_member).then(|| member(i));
                Seat::stored(p, None, TokenHash::of(&format!("t{i}")), true, bot)
                    .with_member(member)
            })
            .collect();
        GameState::new(
            Uuid::nil(),
            Position::start(Rules::default()),
            seats,
            false,
            0,
        )
        .with_circle(Some(Uuid::nil()))
    }

    fn member(i: usize) -> Uuid {
        Uuid::from_u128(i as u128 + 1)
    }

    /// A log: `Started`, then these events, one millisecond apart.
    fn log(kinds: &[EventKind]) -> Vec<Event> {
        std::iter::once(EventKind::Started)
            .chain(kinds.iter().copied())
            .enumerate()
            .map(|(i, kind)| Event {
                v: i as u64 + 1,
                kind,
                ack: None,
                at: 1000 + i as i64,
            })
            .collect()
    }

    fn place_of(places: &GamePlaces, p: Player) -> (u8, End) {
        let s = places.seats.iter().find(|s| s.seat == p).unwrap();
        (s.place, s.end)
    }

    #[test]
    fn the_winner_is_first_then_the_later_out_the_better() {
        let events = log(&[
            EventKind::Resign { player: Blue },
            EventKind::Resign { player: Green },
            EventKind::Resign { player: Red },
        ]);
        let places = places(game(None, true), &events).unwrap().unwrap();
        assert_eq!(place_of(&places, Yellow), (1, End::Won));
        assert_eq!(place_of(&places, Red), (2, End::Out));
        assert_eq!(place_of(&places, Green), (3, End::Out));
        assert_eq!(place_of(&places, Blue), (4, End::Out));
        assert!(places.rated);
        assert_eq!(places.finished_at, 1003);
        assert_eq!(places.seats[0].member, Some(member(0)));
    }

    #[test]
    fn the_sharers_of_a_draw_share_the_first_place_above_those_out() {
        // Green resigns, then red, blue and yellow agree a draw.
        let events = log(&[
            EventKind::Resign { player: Green },
            EventKind::DrawOffered { by: Red },
            EventKind::DrawAccepted { by: Blue },
            EventKind::DrawAgreed {
                by: Yellow,
                excused: djambi_core::ArmySet::EMPTY,
            },
        ]);
        let places = places(game(None, true), &events).unwrap().unwrap();
        for p in [Red, Blue, Yellow] {
            assert_eq!(place_of(&places, p), (1, End::Drew), "{p}");
        }
        assert_eq!(place_of(&places, Green), (4, End::Out));
    }

    #[test]
    fn a_seat_handed_to_a_bot_by_a_vote_is_out_at_that_moment() {
        // Blue resigns; blue's... no: red is voted out to a bot (after one core event), then
        // green resigns (its bot seat), then yellow resigns: the bot on red's seat wins, but
        // red's member is out at the vote, before green.
        let events = log(&[
            EventKind::Resign { player: Blue },
            EventKind::VoteOpened {
                by: Yellow,
                target: Red,
                action: VoteAction::Bot(Level::Easy),
                voters: [Yellow, Green].into_iter().collect(),
            },
            EventKind::VoteCast {
                by: Green,
                yes: true,
            },
            EventKind::VoteClosed { passed: true },
            EventKind::SeatToBot {
                player: Red,
                level: Level::Easy,
                reason: BotReason::Vote,
            },
            EventKind::Resign { player: Green },
            EventKind::Resign { player: Yellow },
        ]);
        let places = places(game(Some(Level::Hard), false), &events)
            .unwrap()
            .unwrap();
        // Yellow out last (1st), green (the hard bot) out before it (2nd), red replaced
        // before green (3rd), blue first out (4th).
        assert_eq!(place_of(&places, Yellow), (1, End::Out));
        assert_eq!(place_of(&places, Green), (2, End::Out));
        assert_eq!(place_of(&places, Red), (3, End::Replaced));
        assert_eq!(place_of(&places, Blue), (4, End::Out));
        let green = places.seats.iter().find(|s| s.seat == Green).unwrap();
        assert_eq!(green.bot, Some(BotLevel(Level::Hard)));
        assert_eq!(green.member, None);
        assert!(places.rated, "three members: rated");
    }

    #[test]
    fn a_timeout_to_a_bot_counts_once_even_when_the_player_comes_back() {
        let events = log(&[
            EventKind::Timeout { player: Red },
            EventKind::SeatToBot {
                player: Red,
                level: Level::Medium,
                reason: BotReason::Timeout,
            },
            EventKind::SeatToHuman { player: Red },
            EventKind::Resign { player: Blue },
            EventKind::Resign { player: Yellow },
            EventKind::Resign { player: Green },
        ]);
        let places = places(game(None, true), &events).unwrap().unwrap();
        // Red's seat survives and wins, but its member was out at the timeout, before anyone.
        assert_eq!(place_of(&places, Red), (4, End::Replaced));
        assert_eq!(place_of(&places, Green), (1, End::Out));
        assert_eq!(place_of(&places, Yellow), (2, End::Out));
        assert_eq!(place_of(&places, Blue), (3, End::Out));
    }

    #[test]
    fn cancelled_and_unfinished_games_have_no_places() {
        let cancelled = vec![Event {
            v: 1,
            kind: EventKind::Cancelled {
                reason: crate::table::CancelReason::Creator,
            },
            ack: None,
            at: 5,
        }];
        assert_eq!(places(game(None, true), &cancelled).unwrap(), None);
        let running = log(&[EventKind::Resign { player: Blue }]);
        assert_eq!(places(game(None, true), &running).unwrap(), None);
    }

    #[test]
    fn a_game_with_one_member_is_not_rated() {
        let mut start = game(Some(Level::Easy), false);
        for seat in &mut start.seats {
            if seat.player != Red {
                seat.member = None;
            }
        }
        let events = log(&[
            EventKind::Resign { player: Blue },
            EventKind::Resign { player: Yellow },
            EventKind::Resign { player: Green },
        ]);
        let places = places(start, &events).unwrap().unwrap();
        assert!(!places.rated);
        assert_eq!(place_of(&places, Red), (1, End::Won));
    }
}
