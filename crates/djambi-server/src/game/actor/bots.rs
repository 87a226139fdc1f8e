//! Bots at the table, seen from the actor: when a bot is to move it thinks on the bot pool
//! (off the async runtime) and its turn comes back through the inbox; when a draw is offered,
//! each bot answers by its evaluation (it accepts when it is losing). An answer about a
//! position the game has left is dropped.

use std::time::Duration;

use djambi_core::{Player, Turn};

use super::Actor;
use crate::game::command;
use crate::game::handle::Command;
use crate::protocol::GameStatus;
use crate::store::EventKind;

impl Actor {
    /// Sets the bots to work on the current state: the bot to move thinks, bots answer a
    /// pending draw offer. Each question is asked once.
    pub(super) fn schedule_bots(&mut self) {
        if self.state.status() != GameStatus::Live {
            return;
        }
        let Some(me) = self.me.as_ref().and_then(|w| w.upgrade()) else {
            return;
        };
        let pos = *self.state.position();
        if let Some(player) = pos.to_move()
            && let Some(level) = self.state.bot(player)
            && self.thinking != Some(self.state.v)
        {
            let v = self.state.v;
            self.thinking = Some(v);
            let bots = self.ctx.bots.clone();
            let movetime = Duration::from_millis(u64::from(self.state.settings.bot_movetime_ms));
            let me = me.clone();
            tokio::spawn(async move {
                if let Some(turn) = bots.think(pos, level, movetime).await {
                    let _ = me.send(Command::BotTurn { v, player, turn }).await;
                }
            });
        }
        if let Some(offer) = self.state.draw {
            if self.asked_draw.0 != offer.since {
                self.asked_draw = (offer.since, djambi_core::ArmySet::EMPTY);
            }
            for player in pos.alive().iter() {
                if self.state.bot(player).is_none()
                    || offer.accepted.contains(player)
                    || self.asked_draw.1.contains(player)
                {
                    continue;
                }
                self.asked_draw.1 = self.asked_draw.1.with(player);
                let bots = self.ctx.bots.clone();
                let me = me.clone();
                let since = offer.since;
                tokio::spawn(async move {
                    let accept = bots.losing(pos, player).await;
                    let _ = me
                        .send(Command::BotDraw {
                            offer: since,
                            player,
                            accept,
                        })
                        .await;
                });
            }
        }
    }

    /// A bot's turn, thought about at version `v`.
    pub(super) async fn bot_turn(&mut self, v: u64, player: Player, turn: Turn) {
        if v != self.state.v
            || self.state.position().to_move() != Some(player)
            || self.state.bot(player).is_none()
            || self.state.status() != GameStatus::Live
        {
            return;
        }
        if let Err(e) = self
            .advance(vec![EventKind::Turn { player, turn }], None)
            .await
        {
            tracing::error!(game = %self.state.id, %player, error = %e.message, "a bot's turn failed");
            // Think again on the next change (or now: nothing else will change the state).
            self.thinking = None;
        }
    }

    /// A bot's answer to the draw offer made at version `offer`.
    pub(super) async fn bot_draw(&mut self, offer: u64, player: Player, accept: bool) {
        if self.state.draw.is_none_or(|d| d.since != offer) || self.state.bot(player).is_none() {
            return;
        }
        let table = self.table(crate::clock::now_ms());
        let Some(kind) = command::bot_answer(&self.state, player, accept, &table) else {
            return;
        };
        if let Err(e) = self.advance(vec![kind], None).await {
            tracing::error!(game = %self.state.id, %player, error = %e.message, "a bot's draw answer failed");
        }
    }
}
