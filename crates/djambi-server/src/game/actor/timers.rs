//! The game's clock, seen from the actor: the next deadline is a timer of its loop, and when
//! the running player's time runs out the game's `on_timeout` applies (the player resigns, or a
//! bot takes the seat), committed like any event.

use super::Actor;
use crate::clock::now_ms;

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
        let events = crate::table::timeout(&self.state, player);
        if let Err(e) = self.advance(events, None).await {
            tracing::error!(game = %self.state.id, error = %e, "could not apply a timeout");
        }
    }
}
