//! The creator's rights before the game starts, with its admin token: cancel the game, give a
//! seat a new invite (sockets on the old token lose the seat at once), or give a seat to a bot.

use super::Actor;
use crate::table::{AdminAnswer, AdminError, AdminWhat, CancelReason, EventKind};

impl Actor {
    pub(super) async fn admin(
        &mut self,
        token: &str,
        what: AdminWhat,
    ) -> Result<AdminAnswer, AdminError> {
        self.state.check_admin(token)?;
        let (player, level) = match what {
            AdminWhat::Cancel => {
                self.advance(
                    vec![EventKind::Cancelled {
                        reason: CancelReason::Creator,
                    }],
                    None,
                )
                .await
                .map_err(|_| AdminError::Internal)?;
                return Ok(AdminAnswer::Cancelled);
            }
            AdminWhat::Reinvite(player) => (player, None),
            AdminWhat::Bot(player, level) => (player, Some(level.0)),
        };
        let mut draft = self.draft();
        draft.checkpoint.keep_seats(&self.state);
        let token = match self.state.reseat(player, level) {
            Ok(token) => token,
            Err(e) => {
                self.abandon(draft);
                return Err(e);
            }
        };
        let seat = self
            .state
            .seat(player)
            .cloned()
            .expect("a reseated seat exists");
        // A bot's seat may start the game.
        if self.follow(&mut draft).is_err() {
            self.abandon(draft);
            return Err(AdminError::Internal);
        }
        self.finish(draft, vec![seat], None)
            .await
            .map_err(|_| AdminError::Internal)?;
        tracing::info!(game = %self.state.id, seat = %player, bot = ?level, "seat changed by the creator");
        // Whoever held the old token loses the seat.
        self.revoke(player);
        let presence = self.presence_message();
        self.send(presence);
        Ok(match level {
            Some(_) => AdminAnswer::Bot,
            None => AdminAnswer::Invite(player, token),
        })
    }
}
