//! The creator's rights before the game starts, with the admin token shown at creation: cancel
//! the game, give a seat a new invite (whoever held the old token loses the seat), or give a
//! seat to a bot.

use djambi_core::Player;
use djambi_engine::Level;
use serde::{Deserialize, Serialize};

use super::GameState;
use super::refusal::AdminError;
use super::settings::BotLevel;
use super::status::GameStatus;
use crate::token::{SeatToken, TokenHash};

/// The creator's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdminWhat {
    /// Cancel the game.
    Cancel,
    /// A new invite for a seat (sockets on the old token lose it).
    Reinvite(Player),
    /// A bot of this level plays the seat.
    Bot(Player, BotLevel),
}

/// What an admin action gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdminAnswer {
    /// The game is cancelled.
    Cancelled,
    /// The seat's new token.
    Invite(Player, SeatToken),
    /// A bot plays the seat.
    Bot,
}

impl GameState {
    /// Whether `token` is the creator's and the game has not started: the creator may act.
    pub fn check_admin(&self, token: &str) -> Result<(), AdminError> {
        let hash = TokenHash::of(token);
        if !self.admin_hash.is_some_and(|h| h.matches(&hash)) {
            return Err(AdminError::BadToken);
        }
        if self.status() != GameStatus::Open {
            return Err(AdminError::Started);
        }
        Ok(())
    }

    /// Gives `player`'s seat a new token (and, with `bot`, to a bot of that level): the seat's
    /// new token. The caller keeps the seats in its checkpoint.
    pub fn reseat(&mut self, player: Player, bot: Option<Level>) -> Result<SeatToken, AdminError> {
        if self.seat(player).is_none() || !self.position().is_alive(player) {
            return Err(AdminError::NoSeat(player));
        }
        let token = SeatToken::generate();
        let seat = self
            .seats
            .iter_mut()
            .find(|s| s.player == player)
            .expect("the seat exists");
        seat.token_hash = token.hash();
        seat.name = None;
        seat.claimed = bot.is_some();
        seat.bot = bot;
        seat.start_bot = bot;
        // Whoever took it (a circle's member too) no longer has it.
        seat.member = None;
        Ok(token)
    }
}
