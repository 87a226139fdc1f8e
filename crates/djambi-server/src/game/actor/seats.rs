//! Claiming a seat: decided by the actor, so two claims of one seat cannot both win.

use djambi_core::Player;

use super::Actor;
use crate::error::AppError;
use crate::game::text::display_name;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};
use crate::token::{SeatToken, TokenHash};

impl Actor {
    pub(super) async fn claim(&mut self, request: ClaimSeat) -> Result<ClaimedSeat, AppError> {
        let (player, token) = match &request.token {
            Some(token) => {
                let player = self
                    .state
                    .seat_of_token(&TokenHash::of(token))
                    .ok_or(AppError::BadToken)?;
                if request.player.is_some_and(|p| p != player) {
                    return Err(AppError::BadToken);
                }
                (player, SeatToken::from_client(token.clone()))
            }
            None => {
                if !self.state.open {
                    return Err(AppError::BadToken);
                }
                // A seat named at creation is kept for whoever has its invite link.
                let free = |p: Player| {
                    self.state
                        .seat(p)
                        .is_some_and(|s| !s.claimed && s.name.is_none())
                        && self.state.position().is_alive(p)
                };
                let player = match request.player {
                    Some(p) if self.state.seat(p).is_none() => {
                        return Err(AppError::BadRequest(format!("no seat {p} in this game")));
                    }
                    Some(p)
                        if let Some(name) = self.state.seat(p).and_then(|s| s.name.as_ref())
                            && !self.state.seat(p).is_some_and(|s| s.claimed) =>
                    {
                        return Err(AppError::SeatTaken(format!(
                            "seat {p} is kept for {name}, who has its invite link"
                        )));
                    }
                    Some(p) if !free(p) => {
                        return Err(AppError::SeatTaken(format!("seat {p} is taken")));
                    }
                    Some(p) => p,
                    None => self
                        .state
                        .seats
                        .iter()
                        .map(|s| s.player)
                        .find(|p| free(*p))
                        .ok_or_else(|| AppError::NoOpenSeat("every seat is taken".into()))?,
                };
                (player, SeatToken::generate())
            }
        };
        if self.state.is_over() {
            return Err(AppError::NoOpenSeat("the game is over".into()));
        }
        let seat = self.state.seat(player).expect("the seat exists");
        if seat.claimed {
            return Err(AppError::SeatTaken(format!(
                "seat {player} is already claimed"
            )));
        }
        let others = self
            .state
            .seats
            .iter()
            .filter(|s| s.player != player)
            .filter_map(|s| s.name.as_deref());
        let name = match request.name.as_deref().or(seat.name.as_deref()) {
            Some(name) => display_name(name, self.ctx.limits.max_name_chars, others)
                .map_err(|e| AppError::BadRequest(format!("name: {e}")))?,
            None => return Err(AppError::BadRequest("name: a name is required".into())),
        };
        let replaced = !seat.token_hash.matches(&token.hash());
        let mut draft = self.draft();
        draft.checkpoint.keep_seats(&self.state);
        let seat = self
            .state
            .seats
            .iter_mut()
            .find(|s| s.player == player)
            .expect("the seat exists");
        seat.claimed = true;
        seat.name = Some(name.clone());
        seat.token_hash = token.hash();
        let row = seat.row();
        // The last claim starts the game (and whatever follows: a first player who must pass).
        if let Err(e) = self.follow(&mut draft) {
            tracing::error!(game = %self.state.id, error = %e, "a claim's consequences did not apply");
            self.abandon(draft);
            return Err(AppError::Internal);
        }
        self.finish(draft, Vec::new(), Some(row))
            .await
            .map_err(|_| AppError::Internal)?;
        tracing::info!(game = %self.state.id, seat = %player, "seat claimed");
        if replaced {
            // Whoever held the invite's token (the creator of an open game) loses the seat.
            self.revoke(player);
        }
        self.send(self.presence_message());
        Ok(ClaimedSeat {
            player,
            name,
            token: token.as_str().to_string(),
        })
    }
}
