//! How bots behave at the table, decided from the state alone: how long a bot thinks, the seed
//! of its choice, whether a game goes nowhere (bots then offer and accept draws), and whether a
//! bot's turn chosen earlier still stands. The actor asks these questions and does the rest
//! (the engine thinks off the async runtime, its answers come back through the inbox).

use djambi_core::Player;

use super::GameState;
use super::settings::ClockSpec;
use super::status::GameStatus;

/// Turns without a kill or an elimination after which a bot thinks the game goes nowhere.
pub const STALE_QUIET_TURNS: u32 = 48;

/// How often the same position must have stood (since the last kill) for a bot to think the
/// game goes nowhere.
pub const STALE_REPETITIONS: usize = 3;

/// Turns a bot lets pass after its draw offer before it offers again.
pub const BOT_OFFER_GAP: u32 = 24;

/// The shortest a bot thinks when its clock runs low (ms).
const MIN_THINK_MS: i64 = 50;

impl GameState {
    /// Whether the game goes nowhere: nothing killed for long, or a position repeated.
    pub fn stale(&self) -> bool {
        let quiet = self.position().quiet();
        quiet >= STALE_QUIET_TURNS || (quiet >= 4 && self.repetitions() >= STALE_REPETITIONS)
    }

    /// The bot that offers a draw now, if one should: the game goes nowhere, a person is to
    /// move (or bots alone are at the table), no vote or takeback is pending, and no bot
    /// offered since `last_offer` (a count of turns) in the last [`BOT_OFFER_GAP`] turns.
    pub fn draw_offerer(&self, last_offer: Option<u32>) -> Option<Player> {
        let pos = self.position();
        let to_move = pos.to_move()?;
        let offerer = pos.alive().iter().find(|p| self.bot(*p).is_some())?;
        let humans = self.living_humans();
        let moment = humans.is_empty() || humans.contains(to_move);
        let recently =
            last_offer.is_some_and(|at| self.turn_count() < at.saturating_add(BOT_OFFER_GAP));
        (moment && !recently && self.vote.is_none() && self.takeback.is_none() && self.stale())
            .then_some(offerer)
    }

    /// How long the bot of `player` thinks at `now` (ms): the game's think time, less when its
    /// live clock runs low (a tenth of what it has left), so a bot never spends its whole clock.
    pub fn think_ms(&self, player: Player, now: i64) -> i64 {
        let mut ms = i64::from(self.settings.bot_movetime_ms);
        if let Some(clock) = self.clock
            && let Some(ClockSpec::Live { .. }) = self.settings.clock
        {
            ms = ms.min((clock.left(player, now) / 10).max(MIN_THINK_MS));
        }
        ms
    }

    /// The seed of the bot's choice about to be made: the game's, mixed with the turns played
    /// (a position met again is not always answered alike; a restored game goes on alike).
    pub fn turn_seed(&self) -> u64 {
        let turns = u64::from(self.turn_count());
        self.bot_seed ^ turns.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// Whether a bot's turn for `player`, chosen at version `v`, may still be played.
    pub fn bot_turn_stands(&self, v: u64, player: Player) -> bool {
        v == self.v
            && self.position().to_move() == Some(player)
            && self.bot(player).is_some()
            && self.status() == GameStatus::Live
    }

    /// When a bot's turn chosen now may be committed while people watch: its think time after
    /// the event before it (ms).
    pub fn bot_turn_due(&self, player: Player, now: i64) -> i64 {
        let after = self.log.last().map_or(self.updated_at, |e| e.1);
        after + self.think_ms(player, now)
    }
}
