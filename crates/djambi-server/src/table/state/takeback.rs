//! What a person may ask only once per turn, beyond what the log can replay: to take back a
//! turn (one request per turn: a refused request is not asked again before the next turn, and
//! only a turn the person played, not one their bot played before they took the seat back),
//! and a draw (one offer per player per turn: offers and refusals cannot go round without end).

use djambi_core::{GameEvent, Player, Turn};

use super::GameState;
use crate::table::EventKind;

/// Why a takeback may not be asked for now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTakeback {
    /// The player's last turn does not stand alone at the end (another turn followed it, or the
    /// game is over).
    NotLast,
    /// The player already asked since the last turn.
    AskedThisTurn,
    /// The turn was played by the bot that held the seat.
    BotsTurn,
}

impl NoTakeback {
    /// For people.
    pub fn message(self) -> &'static str {
        match self {
            NoTakeback::NotLast => {
                "only your last turn can be taken back, before the next turn is played"
            }
            NoTakeback::AskedThisTurn => {
                "you already asked to take this turn back: one request per turn"
            }
            NoTakeback::BotsTurn => {
                "that turn was your bot's: only your own turns can be taken back"
            }
        }
    }
}

impl GameState {
    /// Whether `player` offered a draw since the last turn (one offer per player per turn).
    pub fn offered_draw_this_turn(&self, player: Player) -> bool {
        for (kind, _) in self.log.iter().rev() {
            match kind {
                EventKind::Turn { .. } => return false,
                EventKind::DrawOffered { by: p } if *p == player => return true,
                _ => {}
            }
        }
        false
    }

    /// Whether `player` may ask to take back their last turn now, and why not.
    pub fn takeback_allowed(&self, player: Player) -> Result<(), NoTakeback> {
        if !self.can_take_back(player) {
            return Err(NoTakeback::NotLast);
        }
        for (kind, _) in self.log.iter().rev() {
            match kind {
                EventKind::Turn { .. } => break,
                EventKind::TakebackRequested { by: p } if *p == player => {
                    return Err(NoTakeback::AskedThisTurn);
                }
                _ => {}
            }
        }
        match self.last_turn_version(player) {
            Some(v) if self.bot_at(player, v) => Err(NoTakeback::BotsTurn),
            _ => Ok(()),
        }
    }

    /// The version of `player`'s last turn that stands (not a pass), if it is the last one.
    fn last_turn_version(&self, player: Player) -> Option<u64> {
        let turns = self
            .game
            .events()
            .iter()
            .filter(|e| matches!(e, GameEvent::Turn { .. }));
        let (i, _) = turns
            .enumerate()
            .filter(|(_, e)| {
                matches!(e, GameEvent::Turn { player: p, turn, .. } if *p == player && *turn != Turn::Pass)
            })
            .last()?;
        self.turn_versions.get(i).copied()
    }

    /// Whether a bot played `player`'s seat when the event of version `v` was made.
    fn bot_at(&self, player: Player, v: u64) -> bool {
        let mut bot = self.seat(player).is_some_and(|s| s.start_bot.is_some());
        for (kind, _) in self.log.iter().take(v.saturating_sub(1) as usize) {
            match kind {
                EventKind::SeatToBot { player: p, .. } if *p == player => bot = true,
                EventKind::SeatToHuman { player: p } if *p == player => bot = false,
                _ => {}
            }
        }
        bot
    }
}
