//! A rematch (PROTOCOL §6.7): after a finished game, any of its people asks, and the table gets
//! a new game from the same start with the same options, the same people and bots, each seat
//! moved to the next one in base order. A person's new seat keeps their name and the token hash
//! of their old seat, so each player joins with one click and nobody else can take it.

use std::collections::BTreeMap;

use djambi_core::Player;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{GameState, Seat};
use crate::token::SeatToken;

/// The rematch a finished game's people were offered: a new game from the same start, the same
/// people and bots with the seats rotated. A person joins their new seat with the token of
/// their old one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The new game.
    pub game: Uuid,
    /// Who asked for it.
    pub by: Player,
    /// Each old seat's seat in the new game.
    pub seats: BTreeMap<Player, Player>,
}

/// Each seat's seat in the rematch: the next one of the game's seats, in base order.
pub fn rotation(seats: &[Player]) -> BTreeMap<Player, Player> {
    seats
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, seats[(i + 1) % seats.len()]))
        .collect()
}

impl GameState {
    /// The rematch of this game asked for by `by`: its new state (id `id`, created `now`, the
    /// bots' seed `bot_seed`; not started, nobody connected) and the offer.
    pub fn rematch_game(
        &self,
        by: Player,
        id: Uuid,
        now: i64,
        bot_seed: u64,
    ) -> (GameState, Rematch) {
        let players: Vec<Player> = self.seats.iter().map(|s| s.player).collect();
        let seats_to = rotation(&players);
        let mut seats = self
            .seats
            .iter()
            .map(|s| {
                let to = seats_to[&s.player];
                match s.start_bot {
                    // The same bot, one seat on.
                    Some(level) => {
                        Seat::stored(to, None, SeatToken::generate().hash(), true, Some(level))
                    }
                    // The same person, with the same name and the token they hold now (and,
                    // in a circle's game, the same member).
                    None => Seat::stored(to, s.name.clone(), s.token_hash, false, None)
                        .with_member(s.member),
                }
            })
            .collect::<Vec<_>>();
        seats.sort_by_key(|s| s.player.index());
        let state = GameState::new(id, *self.game.start(), seats, false, now)
            .with_listed(self.listed)
            .with_settings(self.settings, None)
            .with_bot_seed(bot_seed)
            .with_circle(self.circle);
        let offer = Rematch {
            game: id,
            by,
            seats: seats_to,
        };
        (state, offer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Army::*;

    #[test]
    fn each_seat_moves_to_the_next() {
        let four = rotation(&[Red, Blue, Yellow, Green]);
        assert_eq!(four[&Red], Blue);
        assert_eq!(four[&Green], Red);
        // A 3-player game turns among its own seats.
        let three = rotation(&[Red, Blue, Yellow]);
        assert_eq!(three[&Yellow], Red);
        assert_eq!(three.len(), 3);
    }
}
