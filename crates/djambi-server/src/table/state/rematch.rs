//! The new game of a rematch (`table/rematch.rs` holds the offer and the rotation of seats).

use djambi_core::Player;
use uuid::Uuid;

use super::GameState;
use crate::table::rematch::{Rematch, rotation};
use crate::table::seat::Seat;
use crate::token::SeatToken;

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
