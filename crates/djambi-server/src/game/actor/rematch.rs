//! A rematch (PROTOCOL §6.7): after a finished game, any of its people asks, and the table
//! gets a new game from the same start with the same options, the same people and bots, each
//! seat moved to the next one in base order. A person's new seat keeps their name and is
//! claimed with the token of their old seat, so each player joins with one click and nobody
//! else can take it; the offer reaches every connection of this game and its snapshots.

use std::collections::BTreeMap;

use djambi_core::Player;
use uuid::Uuid;

use super::{Actor, encode};
use crate::clock::now_ms;
use crate::game::command::Rejection;
use crate::game::registry::fresh_seed;
use crate::game::state::{GameState, Seat};
use crate::game::{Audience, Outbound, Seq, Viewer};
use crate::protocol::lifecycle::RematchView;
use crate::protocol::{ErrorCode, GameStatus, ServerMessage};
use crate::store::Commit;
use crate::token::SeatToken;

/// Each seat's seat in the rematch: the next one of the game's seats, in base order.
pub fn rotation(seats: &[Player]) -> BTreeMap<Player, Player> {
    seats
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, seats[(i + 1) % seats.len()]))
        .collect()
}

impl Actor {
    pub(super) async fn rematch(&mut self, viewer: &Viewer) -> Result<u64, Rejection> {
        let Some(me) = viewer.role.seat() else {
            return Err(Rejection::new(
                ErrorCode::Spectator,
                "spectators cannot ask for a rematch",
            ));
        };
        if self.state.status() != GameStatus::Finished {
            return Err(Rejection::new(
                ErrorCode::NoRematch,
                "a rematch comes once the game is over",
            ));
        }
        if self.state.rematch.is_some() {
            // Already offered: the offer stands (in the snapshot), nothing more to do.
            return Ok(self.state.v);
        }
        let (state, offer) = self.rematch_game(me);
        let rows: Vec<_> = state.seats.iter().map(Seat::row).collect();
        let game = self.state.id;
        let internal = move |e: &dyn std::fmt::Display| {
            tracing::error!(%game, error = %e, "could not create the rematch");
            Rejection::new(
                ErrorCode::Internal,
                "the server could not create the rematch; nothing changed",
            )
        };
        self.ctx
            .store
            .create_game(&state.row(), &rows, &[], None)
            .await
            .map_err(|e| internal(&e))?;
        self.state.rematch = Some(offer.clone());
        let commit = Commit {
            game: self.state.id,
            summary: Some(self.state.summary()),
            ..Commit::default()
        };
        if let Err(e) = self.commit(commit).await {
            self.state.rematch = None;
            return Err(internal(&e));
        }
        tracing::info!(game = %self.state.id, rematch = %offer.game, by = %me, "rematch offered");
        self.send(Outbound::new(
            Seq::None,
            Audience::All,
            encode(&ServerMessage::Rematch(offer)),
        ));
        Ok(self.state.v)
    }

    /// The rematch of this game asked for by `by`: its new state (not started, nobody
    /// connected) and the offer.
    fn rematch_game(&self, by: Player) -> (GameState, RematchView) {
        let old = &self.state;
        let players: Vec<Player> = old.seats.iter().map(|s| s.player).collect();
        let seats_to = rotation(&players);
        let seats = old
            .seats
            .iter()
            .map(|s| {
                let to = seats_to[&s.player];
                match s.start_bot {
                    // The same bot, one seat on.
                    Some(level) => Seat {
                        player: to,
                        name: None,
                        token_hash: SeatToken::generate().hash(),
                        claimed: true,
                        bot: Some(level),
                        start_bot: Some(level),
                    },
                    // The same person, with the same name and the token they hold now.
                    None => Seat {
                        player: to,
                        name: s.name.clone(),
                        token_hash: s.token_hash,
                        claimed: false,
                        bot: None,
                        start_bot: None,
                    },
                }
            })
            .collect::<Vec<_>>();
        let mut seats = seats;
        seats.sort_by_key(|s| s.player.index());
        let id = Uuid::new_v4();
        let state = GameState::new(id, *old.game.start(), seats, false, now_ms())
            .with_listed(old.listed)
            .with_settings(old.settings, None)
            .with_bot_seed(fresh_seed());
        let offer = RematchView {
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
