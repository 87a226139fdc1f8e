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
//! [`BOTS_ALONE_QUIET_TURNS`]: crate::game::state::BOTS_ALONE_QUIET_TURNS

use std::time::Duration;

use djambi_core::{Player, Turn};

use super::Actor;
use crate::clock::now_ms;
use crate::game::command;
use crate::game::handle::Command;
use crate::protocol::GameStatus;
use crate::protocol::lifecycle::ClockSpec;
use crate::store::EventKind;

/// Turns without a kill or an elimination after which a bot thinks the game goes nowhere.
pub const STALE_QUIET_TURNS: u32 = 48;

/// How often the same position must have stood (since the last kill) for a bot to think the
/// game goes nowhere.
pub const STALE_REPETITIONS: usize = 3;

/// Turns a bot lets pass after its draw offer before it offers again.
pub const BOT_OFFER_GAP: u32 = 24;

/// The shortest a bot thinks when its clock runs low (ms).
const MIN_THINK_MS: i64 = 50;

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
            let movetime = Duration::from_millis(self.think_ms(player) as u64);
            let seed = self.turn_seed();
            let me = me.clone();
            tokio::spawn(async move {
                if let Some(turn) = bots.think(pos, level, movetime, seed).await {
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
        } else if let Some(player) = self.draw_offerer() {
            let v = self.state.v;
            self.bot_offered = Some(self.state.turn_count());
            let _ = me.try_send(Command::BotOffer { v, player });
        }
    }

    /// The bot that offers a draw now, if one should: the game goes nowhere, a person is to
    /// move (or bots alone are at the table), no vote or takeback is pending, and no bot
    /// offered in the last [`BOT_OFFER_GAP`] turns.
    fn draw_offerer(&self) -> Option<Player> {
        let state = &self.state;
        let pos = state.position();
        let to_move = pos.to_move()?;
        let offerer = pos.alive().iter().find(|p| state.bot(*p).is_some())?;
        let humans = state.living_humans();
        let moment = humans.is_empty() || humans.contains(to_move);
        let recently = self
            .bot_offered
            .is_some_and(|at| state.turn_count() < at.saturating_add(BOT_OFFER_GAP));
        (moment && !recently && state.vote.is_none() && state.takeback.is_none() && self.stale())
            .then_some(offerer)
    }

    /// Whether the game goes nowhere: nothing killed for long, or a position repeated.
    fn stale(&self) -> bool {
        let quiet = self.state.position().quiet();
        quiet >= STALE_QUIET_TURNS || (quiet >= 4 && self.state.repetitions() >= STALE_REPETITIONS)
    }

    /// How long the bot of `player` thinks: the game's think time, less when its live clock
    /// runs low (a tenth of what it has left), so a bot never spends its whole clock.
    fn think_ms(&self, player: Player) -> i64 {
        let mut ms = i64::from(self.state.settings.bot_movetime_ms);
        if let Some(clock) = self.state.clock
            && let Some(ClockSpec::Live { .. }) = self.state.settings.clock
        {
            ms = ms.min((clock.left(player, now_ms()) / 10).max(MIN_THINK_MS));
        }
        ms
    }

    /// The seed of the choice about to be made: the game's, mixed with the turns played.
    fn turn_seed(&self) -> u64 {
        let turns = u64::from(self.state.turn_count());
        self.state.bot_seed ^ turns.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// A bot's turn, thought about at version `v`: committed now, or held until its moment
    /// while people watch.
    pub(super) async fn bot_turn(&mut self, v: u64, player: Player, turn: Turn) {
        if !self.bot_turn_stands(v, player) {
            return;
        }
        let after = self.state.log.last().map_or(self.state.updated_at, |e| e.1);
        let due = after + self.think_ms(player);
        if self.presence.total() > 0 && now_ms() < due {
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
            && self.bot_turn_stands(held.v, held.player)
        {
            self.play_bot_turn(held.player, held.turn).await;
        }
    }

    /// Whether a bot's turn chosen at `v` may still be played.
    fn bot_turn_stands(&self, v: u64, player: Player) -> bool {
        v == self.state.v
            && self.state.position().to_move() == Some(player)
            && self.state.bot(player).is_some()
            && self.state.status() == GameStatus::Live
    }

    async fn play_bot_turn(&mut self, player: Player, turn: Turn) {
        if let Err(e) = self
            .advance(vec![EventKind::Turn { player, turn }], None)
            .await
        {
            tracing::error!(game = %self.state.id, %player, error = %e.message, "a bot's turn failed");
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
            command::agreed_draw(&self.state)
        } else {
            vec![EventKind::DrawOffered(player)]
        };
        if let Err(e) = self.advance(events, None).await {
            tracing::error!(game = %self.state.id, %player, error = %e.message, "a bot's draw offer failed");
        }
    }

    /// A bot's answer to the draw offer made at version `offer`: it accepts when its
    /// evaluation says it is losing, or when the game goes nowhere.
    pub(super) async fn bot_draw(&mut self, offer: u64, player: Player, losing: bool) {
        if self.state.draw.is_none_or(|d| d.since != offer) || self.state.bot(player).is_none() {
            return;
        }
        let accept = losing || self.stale();
        let table = self.table(now_ms());
        let Some(kind) = command::bot_answer(&self.state, player, accept, &table) else {
            return;
        };
        if let Err(e) = self.advance(vec![kind], None).await {
            tracing::error!(game = %self.state.id, %player, error = %e.message, "a bot's draw answer failed");
        }
    }
}
