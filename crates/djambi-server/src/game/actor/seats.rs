//! Claiming a seat: decided by the actor, so two claims of one seat cannot both win.

use djambi_core::Player;

use super::Actor;
use crate::protocol::http::ClaimedSeat;
use crate::table::{ClaimError, MemberSeat};

impl Actor {
    pub(super) async fn claim(
        &mut self,
        token: Option<String>,
        player: Option<Player>,
        name: Option<String>,
        member: Option<MemberSeat>,
    ) -> Result<ClaimedSeat, ClaimError> {
        let claim = self.state.decide_claim(
            token.as_deref(),
            player,
            name.as_deref(),
            member,
            self.ctx.limits.max_name_chars,
        )?;
        let mut draft = self.draft();
        draft.checkpoint.keep_seats(&self.state);
        let seat = self.state.apply_claim(&claim).clone();
        // The last claim starts the game (and whatever follows: a first player who must pass).
        if let Err(e) = self.follow(&mut draft) {
            tracing::error!(game = %self.state.id, error = %e, "a claim's consequences did not apply");
            self.abandon(draft);
            return Err(ClaimError::Internal);
        }
        self.finish(draft, Vec::new(), Some(seat))
            .await
            .map_err(|_| ClaimError::Internal)?;
        tracing::info!(game = %self.state.id, seat = %claim.player, member = ?claim.member, "seat claimed");
        if claim.replaces {
            // Whoever held the invite's token (the creator of an open game) loses the seat.
            self.revoke(claim.player);
        }
        let presence = self.presence_message();
        self.send(presence);
        Ok(ClaimedSeat {
            player: claim.player,
            name: claim.name,
            token: claim.token.as_str().to_string(),
        })
    }
}
