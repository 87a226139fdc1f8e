//! Hints in games ("show a good turn"): the engine's suggestion for the seat to move, given only
//! where it cannot decide a game between people. A seat may ask when it is its turn in a live
//! game and either every other living seat is a bot (a game against bots), or the creator
//! allowed hints at creation ([`Settings::hints`], shown to everyone at the table).
//!
//! [`Settings::hints`]: super::Settings::hints

use djambi_core::Player;
use serde::{Deserialize, Serialize};

use super::{GameState, GameStatus};

/// Why a seat may not be shown a good turn now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum HintRefusal {
    /// The token is not one of the game's seat tokens.
    #[error("the seat token does not match")]
    BadToken,
    /// The game is not being played (not started, over, or cancelled).
    #[error("the game is not being played: there is no turn to suggest")]
    NotLive,
    /// Another seat is to move (or a bot plays the asker's seat).
    #[error("a good turn is shown only to the seat to move, on its turn")]
    NotYourTurn,
    /// People play other seats and the creator did not allow hints.
    #[error(
        "hints are off in this game: people play other seats and its creator did not allow them"
    )]
    Off,
}

impl GameState {
    /// Whether `player`'s seat may be shown a good turn now (see the module).
    pub fn may_hint(&self, player: Player) -> Result<(), HintRefusal> {
        if self.status() != GameStatus::Live {
            return Err(HintRefusal::NotLive);
        }
        let pos = self.position();
        if pos.to_move() != Some(player) || self.bot(player).is_some() {
            return Err(HintRefusal::NotYourTurn);
        }
        let against_bots = pos
            .alive()
            .iter()
            .filter(|p| *p != player)
            .all(|p| self.bot(p).is_some());
        if self.settings.hints || against_bots {
            Ok(())
        } else {
            Err(HintRefusal::Off)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Seat;
    use crate::token::TokenHash;
    use djambi_core::{Army, Position};
    use djambi_engine::Level;
    use uuid::Uuid;

    /// A started standard game; `bots` play those seats.
    fn game(bots: &[Army], hints: bool) -> GameState {
        let seats = Army::ALL
            .iter()
            .map(|&p| {
                let bot = bots.contains(&p).then_some(Level::Easy);
                Seat::stored(p, None, TokenHash::of(&format!("t{p}")), true, bot)
            })
            .collect();
        let mut state = GameState::new(Uuid::nil(), Position::new(), seats, false, 0);
        state.started = true;
        state.settings.hints = hints;
        state
    }

    #[test]
    fn against_bots_the_seat_to_move_may_ask() {
        let g = game(&[Army::Blue, Army::Yellow, Army::Green], false);
        assert_eq!(g.may_hint(Army::Red), Ok(()));
        // Only on its turn.
        let g2 = game(&[Army::Red, Army::Yellow, Army::Green], false);
        assert_eq!(g2.may_hint(Army::Blue), Err(HintRefusal::NotYourTurn));
    }

    #[test]
    fn between_people_only_when_the_creator_allowed_it() {
        let people = game(&[Army::Yellow, Army::Green], false);
        assert_eq!(people.may_hint(Army::Red), Err(HintRefusal::Off));
        let allowed = game(&[Army::Yellow, Army::Green], true);
        assert_eq!(allowed.may_hint(Army::Red), Ok(()));
        assert_eq!(game(&[], true).may_hint(Army::Red), Ok(()));
        assert_eq!(game(&[], false).may_hint(Army::Red), Err(HintRefusal::Off));
    }

    #[test]
    fn never_outside_a_live_game_nor_for_a_bots_seat() {
        let mut open = game(&[Army::Blue, Army::Yellow, Army::Green], true);
        open.started = false;
        assert_eq!(open.may_hint(Army::Red), Err(HintRefusal::NotLive));
        let bot_seat = game(&[Army::Red, Army::Blue, Army::Yellow, Army::Green], true);
        assert_eq!(bot_seat.may_hint(Army::Red), Err(HintRefusal::NotYourTurn));
    }
}
