//! A game's state as its actor owns it: the core's [`Game`], the seats (and which of them bots
//! play), the version, the clock, and what is pending (a draw offer, a vote on an absent player,
//! a takeback request). Pure: no I/O. Applying an event ([`apply`]) is the one place where the
//! log changes the game, for live play and for replay alike, so a restored game is exactly the
//! game that was played — clocks included, since they are kept from the events' times.

mod apply;
mod checkpoint;
mod clock;
pub mod record;
mod rematch;
mod takeback;

use djambi_core::{Army, ArmySet, Game, GameEvent, Player, Position, ResultRecord, Rules, Turn};
use djambi_engine::Level;
use uuid::Uuid;

pub use apply::{Applied, ApplyError};
pub use checkpoint::Checkpoint;
pub use clock::Clock;
pub use takeback::NoTakeback;

use super::event::{CancelReason, Event, EventKind, VoteAction};
use super::rematch::Rematch;
use super::seat::Seat;
use super::settings::{ClockSpec, Settings};
use super::status::GameStatus;
use crate::token::TokenHash;

/// A pending draw offer (R12.2): it needs every living player's agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOffer {
    /// Who offered it.
    pub by: Player,
    /// Who agreed so far (the author included).
    pub accepted: ArmySet,
    /// The version of the event that opened it (bots answer this offer, not a later one).
    pub since: u64,
}

/// An open vote on an absent player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vote {
    /// Who opened it.
    pub by: Player,
    /// The absent player.
    pub target: Player,
    /// What it would do.
    pub action: VoteAction,
    /// Who may vote.
    pub voters: ArmySet,
    /// Who said yes.
    pub yes: ArmySet,
    /// Who said no.
    pub no: ArmySet,
}

impl Vote {
    /// Whether a majority of the voters said yes.
    pub fn passed(&self) -> bool {
        self.yes.len() * 2 > self.voters.len()
    }

    /// Whether a majority can no longer be reached.
    pub fn failed(&self) -> bool {
        let undecided = self.voters.len() - self.yes.len() - self.no.len();
        (self.yes.len() + undecided) * 2 <= self.voters.len()
    }
}

/// A pending takeback request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Takeback {
    /// Who asks.
    pub by: Player,
    /// Who agreed so far.
    pub accepted: ArmySet,
}

/// A turn that stands, with the version of its event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandingTurn {
    /// Its event's version.
    pub v: u64,
    /// Its number (NOTATION's turn count).
    pub number: u32,
    /// Who played it.
    pub player: Player,
    /// The turn.
    pub turn: Turn,
}

/// Why an event of the log cannot be applied (a corrupt or foreign log).
#[derive(Clone, Debug, thiserror::Error)]
#[error("event {v}: {message}")]
pub struct ReplayError {
    /// The event's version.
    pub v: u64,
    /// What is wrong.
    pub message: String,
}

/// The state of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The game's id.
    pub id: Uuid,
    /// 3 or 4.
    pub players: u8,
    /// The hostage army of a 3-player game.
    pub hostage: Option<Army>,
    /// Whether free seats may be claimed without an invite.
    pub open: bool,
    /// Whether the lobby lists the game (by default: when it is open).
    pub listed: bool,
    /// When the game was created.
    pub created_at: i64,
    /// When it last changed.
    pub updated_at: i64,
    /// The rules engine's game: the turns that stand (a turn taken back is not in it).
    pub game: Game,
    /// The version of the last event (0 before any).
    pub v: u64,
    /// The seats, in base order.
    pub seats: Vec<Seat>,
    /// The pending draw offer.
    pub draw: Option<DrawOffer>,
    /// Every event so far with its time (ms), in order: the event of version `v` is
    /// `log[v - 1]` (small `Copy` values, so a long game's log stays a few tens of kilobytes).
    pub log: Vec<(EventKind, i64)>,
    /// The versions of the turns that stand, in order (those of [`game`](Self::game)).
    pub turn_versions: Vec<u64>,
    /// Why the game was called off, if it was.
    pub cancelled: Option<CancelReason>,
    /// The game's options beyond the ruleset.
    pub settings: Settings,
    /// The hash of the creator's admin token.
    pub admin_hash: Option<TokenHash>,
    /// Whether the game started (every seat taken).
    pub started: bool,
    /// The clock of a timed game.
    pub clock: Option<Clock>,
    /// The open vote on an absent player.
    pub vote: Option<Vote>,
    /// The pending takeback request.
    pub takeback: Option<Takeback>,
    /// The seed of the bots' choices (stored with the game, so a restored game goes on as it
    /// would have).
    pub bot_seed: u64,
    /// Since when (the count of turns that stood then) every living seat is a bot, if it is:
    /// from then on the game ends after [`BOTS_ALONE_QUIET_TURNS`] quiet turns.
    pub bots_alone_since: Option<u32>,
    /// The rematch offered after the game (never rolled back: it comes after the end).
    pub rematch: Option<Rematch>,
    /// The circle the game was created for (docs/CIRCLES.md): its members may take its free
    /// seats, and its finished game is rated among them.
    pub circle: Option<Uuid>,
}

/// Any game without a turn limit, people's too, is drawn (agreed) after this many
/// consecutive turns without a kill or an elimination: no game grows without bound (kills are
/// finite, so neither does a game's log).
pub const HOUSE_QUIET_TURNS: u32 = 500;

/// Once every living seat is a bot in a game without a turn limit, the bots agree to a draw
/// after this many consecutive turns without a kill or an elimination (R12.4's count, from
/// that moment on): a table of bots always comes to an end.
pub const BOTS_ALONE_QUIET_TURNS: u32 = 100;

impl GameState {
    /// A new game from `start`, with no event yet.
    pub fn new(id: Uuid, start: Position, seats: Vec<Seat>, open: bool, now: i64) -> GameState {
        let game = Game::new(start);
        GameState {
            id,
            players: game.players().len() as u8,
            hostage: start.hostage(),
            open,
            listed: open,
            created_at: now,
            updated_at: now,
            game,
            v: 0,
            seats,
            draw: None,
            log: Vec::new(),
            turn_versions: Vec::new(),
            cancelled: None,
            settings: Settings::default(),
            admin_hash: None,
            started: false,
            clock: None,
            vote: None,
            takeback: None,
            bot_seed: 0,
            bots_alone_since: None,
            rematch: None,
            circle: None,
        }
    }

    /// The same, a game of this circle.
    pub fn with_circle(mut self, circle: Option<Uuid>) -> Self {
        self.circle = circle;
        self
    }

    /// The same, listed in the lobby or not.
    pub fn with_listed(mut self, listed: bool) -> Self {
        self.listed = listed;
        self
    }

    /// The same with the seed of its bots' choices.
    pub fn with_bot_seed(mut self, seed: u64) -> Self {
        self.bot_seed = seed;
        self
    }

    /// The same with its options and the creator's admin token.
    pub fn with_settings(mut self, settings: Settings, admin_hash: Option<TokenHash>) -> Self {
        self.clock = settings.clock.map(Clock::new);
        self.settings = settings;
        self.admin_hash = admin_hash;
        self
    }

    /// The same game back at its start, seats and all (to replay the log again).
    pub fn at_start(&self) -> GameState {
        let mut seats = self.seats.clone();
        for seat in &mut seats {
            seat.bot = seat.start_bot;
        }
        GameState {
            game: Game::new(*self.game.start()),
            v: 0,
            draw: None,
            log: Vec::new(),
            turn_versions: Vec::new(),
            cancelled: None,
            started: false,
            clock: self.settings.clock.map(Clock::new),
            vote: None,
            takeback: None,
            bots_alone_since: None,
            seats,
            ..self.clone()
        }
    }

    /// Applies one stored event, checking it is the next one.
    pub fn replay(&mut self, event: &Event) -> Result<Applied, ReplayError> {
        if event.v != self.v + 1 {
            return Err(ReplayError {
                v: event.v,
                message: format!("expected version {}", self.v + 1),
            });
        }
        self.apply(&event.kind, event.at).map_err(|e| ReplayError {
            v: event.v,
            message: e.to_string(),
        })
    }

    /// The ruleset.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The seat of `player`, if the game has one.
    pub fn seat(&self, player: Player) -> Option<&Seat> {
        self.seats.iter().find(|s| s.player == player)
    }

    /// The bot that plays `player`'s seat now, if any.
    pub fn bot(&self, player: Player) -> Option<Level> {
        self.seat(player).and_then(|s| s.bot)
    }

    /// The living players whose seats a person plays.
    pub fn living_humans(&self) -> ArmySet {
        self.position()
            .alive()
            .iter()
            .filter(|p| self.bot(*p).is_none())
            .collect()
    }

    /// The seat whose token hashes to `hash`. Every seat is compared, in constant time, so the
    /// time taken says nothing about which one matched.
    pub fn seat_of_token(&self, hash: &TokenHash) -> Option<Player> {
        let mut found = None;
        for seat in &self.seats {
            if seat.token_hash.matches(hash) {
                found = Some(seat.player);
            }
        }
        found
    }

    /// Whether every living player's seat is taken.
    pub fn all_seated(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.claimed || !self.position().is_alive(s.player))
    }

    /// Whether the game is over: finished, or cancelled.
    pub fn is_over(&self) -> bool {
        self.cancelled.is_some() || self.position().is_game_over()
    }

    /// Open until every living player's seat is taken, then live, then finished (or
    /// cancelled).
    pub fn status(&self) -> GameStatus {
        if self.cancelled.is_some() {
            GameStatus::Cancelled
        } else if self.is_over() {
            GameStatus::Finished
        } else if self.started {
            GameStatus::Live
        } else {
            GameStatus::Open
        }
    }

    /// Whose time can run out now (the player to move of a live game, unless a bot plays it).
    pub fn runner(&self) -> Option<Player> {
        if !self.started || self.is_over() {
            return None;
        }
        self.position().to_move().filter(|p| self.bot(*p).is_none())
    }

    /// Consecutive turns without a kill or an elimination since every living seat became a
    /// bot (none while a person plays a living seat).
    pub fn bots_alone_quiet(&self) -> Option<u32> {
        let since = self.bots_alone_since?;
        let turns = self.turn_count().saturating_sub(since);
        Some(self.position().quiet().min(turns))
    }

    /// The number of turns that stand (passes included).
    pub fn turn_count(&self) -> u32 {
        u32::try_from(self.turn_versions.len()).unwrap_or(u32::MAX)
    }

    /// How many times the current position (board, control, whose turn) stood since the last
    /// kill or elimination, this time included: shuffling pieces repeats it.
    pub fn repetitions(&self) -> usize {
        let quiet = self.position().quiet() as usize;
        let key = board_key(self.position());
        let positions = self.game.positions();
        positions
            .iter()
            .rev()
            .take(quiet + 1)
            .filter(|p| board_key(p) == key)
            .count()
    }

    /// The most common level among the bots at the table (the stronger on a tie), if any.
    pub fn table_bot_level(&self) -> Option<Level> {
        table_level(self.seats.iter().filter_map(|s| s.bot))
    }

    /// Whose clock runs now: the player to move of a live game, a bot included on a live clock
    /// (it is charged the time it takes; it never times out), never a bot on a correspondence
    /// deadline.
    pub fn clock_runner(&self) -> Option<Player> {
        if !self.started || self.is_over() {
            return None;
        }
        let live = matches!(self.settings.clock, Some(ClockSpec::Live { .. }));
        self.position()
            .to_move()
            .filter(|p| live || self.bot(*p).is_none())
    }

    /// The level of a bot that takes a seat when nobody named one: the table's other bots'
    /// level, else medium.
    pub fn default_bot_level(&self) -> Level {
        self.table_bot_level().unwrap_or(Level::Medium)
    }

    /// The result, once over.
    pub fn result(&self) -> Option<ResultRecord> {
        ResultRecord::from_outcome(self.game.outcome())
    }

    /// The turns that stand (passes included) with their versions, oldest first.
    pub fn turns(&self) -> Vec<StandingTurn> {
        self.game
            .events()
            .iter()
            .filter_map(|e| match e {
                GameEvent::Turn {
                    number,
                    player,
                    turn,
                } => Some((*number, *player, *turn)),
                _ => None,
            })
            .zip(&self.turn_versions)
            .map(|((number, player, turn), v)| StandingTurn {
                v: *v,
                number,
                player,
                turn,
            })
            .collect()
    }

    /// The last turn played, if any: (number, canonical text).
    pub fn last_turn(&self) -> Option<(u32, String)> {
        self.game.events().iter().rev().find_map(|e| match e {
            GameEvent::Turn { number, turn, .. } => Some((*number, turn.to_string())),
            _ => None,
        })
    }

    /// The pass owed now: the player to move has `pass` as its only legal turn (R8.6).
    pub fn forced_pass(&self) -> Option<EventKind> {
        if !self.started {
            return None;
        }
        let pos = self.position();
        let player = pos.to_move()?;
        (!pos.has_move()).then_some(EventKind::Turn {
            player,
            turn: Turn::Pass,
        })
    }

    /// Whether `player` may take back their last turn now: it stands, only passes followed
    /// it, and the game is not over.
    pub fn can_take_back(&self, player: Player) -> bool {
        if self.is_over() {
            return false;
        }
        for e in self.game.events().iter().rev() {
            match e {
                GameEvent::Turn {
                    turn: Turn::Pass, ..
                } => continue,
                GameEvent::Turn { player: p, .. } => return *p == player,
                _ => return false,
            }
        }
        false
    }
}

/// The most common of some bots' levels (the stronger on a tie), if any.
pub fn table_level(levels: impl IntoIterator<Item = Level>) -> Option<Level> {
    let mut counts: Vec<(Level, usize)> = Vec::new();
    for level in levels {
        match counts.iter_mut().find(|(l, _)| *l == level) {
            Some((_, n)) => *n += 1,
            None => counts.push((level, 1)),
        }
    }
    let rank = |l: Level| Level::ALL.iter().position(|x| *x == l);
    counts
        .into_iter()
        .max_by_key(|(l, n)| (*n, rank(*l)))
        .map(|(l, _)| l)
}

/// What makes two positions the same for repetitions: all but the turn counters.
fn board_key(
    p: &Position,
) -> (
    djambi_core::Board,
    [djambi_core::Controller; 4],
    Option<Player>,
    u8,
    ArmySet,
) {
    let control = [Army::Red, Army::Blue, Army::Yellow, Army::Green].map(|a| p.control(a));
    (*p.board(), control, p.to_move(), p.bonus(), p.passed())
}

/// The bots' seed of a game stored before seeds were (from its random id).
pub fn seed_of_id(id: Uuid) -> u64 {
    let (a, b) = id.as_u64_pair();
    a ^ b.rotate_left(17)
}

#[cfg(test)]
mod tests;
