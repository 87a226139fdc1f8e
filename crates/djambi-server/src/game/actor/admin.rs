//! The creator's rights before the game starts, with its admin token: cancel the game, give a
//! seat a new invite (sockets on the old token lose the seat at once), or give a seat to a bot.

use super::Actor;
use crate::error::AppError;
use crate::game::handle::{AdminAction, AdminAnswer, AdminWhat};
use crate::protocol::{CancelReason, GameStatus};
use crate::store::EventKind;
use crate::token::{SeatToken, TokenHash};

impl Actor {
    pub(super) async fn admin(&mut self, action: AdminAction) -> Result<AdminAnswer, AppError> {
        let hash = TokenHash::of(&action.token);
        if !self.state.admin_hash.is_some_and(|h| h.matches(&hash)) {
            return Err(AppError::BadToken);
        }
        if self.state.status() != GameStatus::Open {
            return Err(AppError::Started(
                "the game has started (or ended): the creator's rights were for before".into(),
            ));
        }
        match action.what {
            AdminWhat::Cancel => {
                self.advance(vec![EventKind::Cancelled(CancelReason::Creator)], None)
                    .await
                    .map_err(|_| AppError::Internal)?;
                Ok(AdminAnswer::Cancelled)
            }
            AdminWhat::Reinvite(player) | AdminWhat::Bot(player, _) => {
                if self.state.seat(player).is_none() || !self.state.position().is_alive(player) {
                    return Err(AppError::BadRequest(format!("no seat {player} to change")));
                }
                let token = SeatToken::generate();
                let mut draft = self.draft();
                draft.checkpoint.keep_seats(&self.state);
                let seat = self
                    .state
                    .seats
                    .iter_mut()
                    .find(|s| s.player == player)
                    .expect("the seat exists");
                seat.token_hash = token.hash();
                seat.name = None;
                let level = match action.what {
                    AdminWhat::Bot(_, level) => Some(level),
                    _ => None,
                };
                seat.claimed = level.is_some();
                seat.bot = level;
                seat.start_bot = level;
                let row = seat.row();
                // A bot's seat may start the game.
                if self.follow(&mut draft).is_err() {
                    self.abandon(draft);
                    return Err(AppError::Internal);
                }
                self.finish(draft, vec![row], None)
                    .await
                    .map_err(|_| AppError::Internal)?;
                tracing::info!(game = %self.state.id, seat = %player, bot = ?level, "seat changed by the creator");
                // Whoever held the old token loses the seat.
                self.revoke(player);
                self.send(self.presence_message());
                Ok(match level {
                    Some(_) => AdminAnswer::Bot,
                    None => AdminAnswer::Invite(player, token),
                })
            }
        }
    }
}
