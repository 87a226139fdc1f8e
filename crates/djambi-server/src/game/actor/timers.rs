//! The game's clock, seen from the actor: the next deadline is a timer of its loop, and when
//! the running player's time runs out the game's `on_timeout` applies (the player resigns, or a
//! bot takes the seat), committed like any event.

use super::Actor;
use crate::clock::now_ms;
use crate::table::OnTimeout;

impl Actor {
    /// When the running player's time runs out (ms), if a person's clock runs.
    pub(super) fn next_timer(&self) -> Option<i64> {
        let (player, at) = self.state.clock?.deadline()?;
        (self.state.runner() == Some(player)).then_some(at)
    }

    /// A timer went off: if the running player's time is really out, its timeout applies.
    pub(super) async fn on_timer(&mut self) {
        let Some((player, at)) = self.state.clock.and_then(|c| c.deadline()) else {
            return;
        };
        if now_ms() < at || self.state.runner() != Some(player) {
            return;
        }
        tracing::info!(game = %self.state.id, %player, "time ran out");
        // A bot taking the seat counts against the cap of the game's creator on games with
        // bots; past it, the player resigns instead.
        let bot_allowed = self.state.settings.on_timeout != OnTimeout::Bot
            || match self.ctx.ledger.let_bot_in(self.state.id, None) {
                Ok(()) => true,
                Err(e) => {
                    tracing::info!(game = %self.state.id, %player, reason = %e, "no bot for the timed-out seat: it resigns");
                    false
                }
            };
        let events = crate::table::timeout(&self.state, player, bot_allowed);
        if let Err(e) = self.advance(events, None).await {
            tracing::error!(game = %self.state.id, error = %e, "could not apply a timeout");
        }
    }
}
