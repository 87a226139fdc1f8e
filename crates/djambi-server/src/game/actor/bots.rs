//! Bots at the table, seen from the actor: when a bot is to move it thinks on the bot pool
//! (off the async runtime) and its turn comes back through the inbox; when a draw is offered,
//! each bot answers by its evaluation (it accepts when it is losing, or when the game goes
//! nowhere). An answer about a position the game has left is dropped.
//!
//! **Pace.** While anyone is connected to the game (a seat or a spectator), a bot's turn is
//! committed no sooner than its think time after the event before it: a level that answers in
//! microseconds still waits, so people can follow each turn. With nobody connected, bots play
//! as soon as they have chosen (the game is bounded: see [`BOTS_ALONE_QUIET_TURNS`]).
//!
//! **Choices.** Each turn's choice is seeded from the game's stored seed and the number of
//! turns played, so two games differ, a position met again is not answered the same way each
//! time, and a restored game goes on exactly as it would have.
//!
//! **Ending.** Bots offer a draw (while a person is to move, so the offer stands until that
//! person plays) and accept one when the position repeats or nothing was killed for long; a
//! table of bots alone agrees at once.
//!
//! [`BOTS_ALONE_QUIET_TURNS`]: crate::table::BOTS_ALONE_QUIET_TURNS

use std::time::Duration;

use djambi_core::{Player, Turn};

use super::Actor;
use crate::clock::now_ms;
use crate::game::bots::Charge;
use crate::game::handle::Command;
use crate::table::{EventKind, GameStatus, Refusal, VoteAction};

/// A bot's turn that waits for its moment: people are watching and its think time since the
/// event before it has not passed yet.
#[derive(Clone, Copy, Debug)]
pub(super) struct HeldTurn {
    /// The version it was chosen at.
    v: u64,
    player: Player,
    turn: Turn,
    /// When it may be committed (ms).
    pub due: i64,
}

impl Actor {
    /// Sets the bots to work on the current state: the bot to move thinks, bots answer a
    /// pending draw offer, a bot offers a draw when the game goes nowhere. Each question is
    /// asked once.
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
            let movetime = Duration::from_millis(self.state.think_ms(player, now_ms()) as u64);
            let seed = self.state.turn_seed();
            let me = me.clone();
            let charge = self.charge();
            tokio::spawn(async move {
                if let Some(turn) = bots.think(pos, level, movetime, seed, charge).await {
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
                let charge = self.charge();
                tokio::spawn(async move {
                    let accept = bots.losing(pos, player, charge).await;
                    let _ = me
                        .send(Command::BotDraw {
                            offer: since,
                            player,
                            accept,
                        })
                        .await;
                });
            }
        } else if let Some(player) = self.state.draw_offerer(self.bot_offered) {
            let v = self.state.v;
            self.bot_offered = Some(self.state.turn_count());
            let _ = me.try_send(Command::BotOffer { v, player });
        }
    }

    /// A vote to hand a seat to a bot counts against the cap of the game's creator on games
    /// with bots: refused up front when that cap is full (a vote to resign is not).
    pub(super) fn bot_vote_allowed(&self, kind: &EventKind) -> Result<(), Refusal> {
        if let EventKind::VoteOpened {
            action: VoteAction::Bot(_),
            ..
        } = kind
        {
            self.ctx
                .ledger
                .room_for_bot(self.state.id, None)
                .map_err(|e| Refusal::NoVote(format!("{e}; a vote to resign is still possible")))?;
        }
        Ok(())
    }

    /// Who pays for this game's bots' thinking: the address that created it (the game itself
    /// when that is not known: a game restored after a restart).
    fn charge(&self) -> Charge {
        Charge::new(self.ctx.ledger.creator(self.state.id), Some(self.state.id))
    }

    /// A bot's turn, thought about at version `v`: committed now, or held until its moment
    /// while people watch.
    pub(super) async fn bot_turn(&mut self, v: u64, player: Player, turn: Turn) {
        if !self.state.bot_turn_stands(v, player) {
            return;
        }
        let now = now_ms();
        let due = self.state.bot_turn_due(player, now);
        if self.presence.total() > 0 && now < due {
            self.held = Some(HeldTurn {
                v,
                player,
                turn,
                due,
            });
            return;
        }
        self.play_bot_turn(player, turn).await;
    }

    /// The held bot turn's moment came.
    pub(super) async fn release_held(&mut self) {
        if let Some(held) = self.held.take()
            && self.state.bot_turn_stands(held.v, held.player)
        {
            self.play_bot_turn(held.player, held.turn).await;
        }
    }

    async fn play_bot_turn(&mut self, player: Player, turn: Turn) {
        if let Err(e) = self
            .advance(vec![EventKind::Turn { player, turn }], None)
            .await
        {
            tracing::error!(game = %self.state.id, %player, error = %e, "a bot's turn failed");
            // Think again on the next change (or now: nothing else will change the state).
            self.thinking = None;
        }
    }

    /// A bot offers a draw (asked at version `v`); bots alone at the table agree at once.
    pub(super) async fn bot_offer(&mut self, v: u64, player: Player) {
        if v != self.state.v
            || self.state.draw.is_some()
            || self.state.bot(player).is_none()
            || self.state.status() != GameStatus::Live
        {
            return;
        }
        let events = if self.state.living_humans().is_empty() {
            crate::table::agreed_draw(&self.state)
        } else {
            vec![EventKind::DrawOffered { by: player }]
        };
        if let Err(e) = self.advance(events, None).await {
            tracing::error!(game = %self.state.id, %player, error = %e, "a bot's draw offer failed");
        }
    }

    /// A bot's answer to the draw offer made at version `offer`: it accepts when its
    /// evaluation says it is losing, or when the game goes nowhere.
    pub(super) async fn bot_draw(&mut self, offer: u64, player: Player, losing: bool) {
        if self.state.draw.is_none_or(|d| d.since != offer) || self.state.bot(player).is_none() {
            return;
        }
        let accept = losing || self.state.stale();
        let table = self.at_table(now_ms());
        let Some(kind) = crate::table::bot_answer(&self.state, player, accept, &table) else {
            return;
        };
        if let Err(e) = self.advance(vec![kind], None).await {
            tracing::error!(game = %self.state.id, %player, error = %e, "a bot's draw answer failed");
        }
    }
}
