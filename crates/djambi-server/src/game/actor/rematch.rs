//! A rematch (PROTOCOL §6.7), seen from the actor: the new game is made by the table
//! ([`GameState::rematch_game`]), stored, and offered to every connection of this game and its
//! snapshots.
//!
//! [`GameState::rematch_game`]: crate::table::GameState::rematch_game

use uuid::Uuid;

use super::{Actor, encode};
use crate::clock::now_ms;
use crate::game::outbound::{Audience, Outbound, Seq};
use crate::game::registry::fresh_seed;
use crate::game::viewer::Viewer;
use crate::protocol::ServerMessage;
use crate::store::{Commit, GameRow, GameSummaryRow};
use crate::table::{GameStatus, Refusal};

impl Actor {
    pub(super) async fn rematch(&mut self, viewer: &Viewer) -> Result<u64, Refusal> {
        let Some(me) = viewer.role.seat() else {
            return Err(Refusal::Spectator(
                "spectators cannot ask for a rematch".into(),
            ));
        };
        if self.state.status() != GameStatus::Finished {
            return Err(Refusal::NoRematch(
                "a rematch comes once the game is over".into(),
            ));
        }
        if self.state.rematch.is_some() {
            // Already offered: the offer stands (in the snapshot), nothing more to do.
            return Ok(self.state.v);
        }
        // A rematch is a game creation by whoever asks: under the same caps as any.
        let bots = self.state.seats.iter().any(|s| s.bot.is_some());
        self.ctx
            .ledger
            .admit(viewer.address, bots)
            .map_err(|e| Refusal::NoRematch(format!("no rematch now: {e}")))?;
        let (state, offer) = self
            .state
            .rematch_game(me, Uuid::new_v4(), now_ms(), fresh_seed());
        let game = self.state.id;
        let internal = move |e: &dyn std::fmt::Display| {
            tracing::error!(%game, error = %e, "could not create the rematch");
            Refusal::Internal("the server could not create the rematch; nothing changed".into())
        };
        self.ctx
            .store
            .create_game(&GameRow::of(&state), &state.seats, &[])
            .await
            .map_err(|e| internal(&e))?;
        self.ctx
            .ledger
            .created_unloaded(state.id, viewer.address, bots);
        self.state.rematch = Some(offer.clone());
        let commit = Commit {
            game: self.state.id,
            summary: Some(GameSummaryRow::of(&self.state)),
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
}
