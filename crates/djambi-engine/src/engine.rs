//! The engine: one object per bot seat (or per command), holding its transposition table and
//! buffers, answering [`Engine::think`] at any [`Level`].

use std::time::{Duration, Instant};

use djambi_core::{Player, Position, Turn};

use crate::eval::{self, Assessment};
use crate::level::Level;
use crate::rng::Rng;
use crate::search::beginner::beginner_turn;
use crate::search::greedy::{easy_turn, random_turn};
use crate::search::hook::IterationHook;
use crate::search::searcher::{MAX_DEPTH, Searcher};
use crate::time::Limits;
use crate::zobrist::hash;

/// The move time used when [`Limits`] gives neither a move time nor a node budget.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The node budget of `medium`: a few plies of the Paranoid search, enough to play at least as
/// well as the Max-N-2 material player (see BENCHMARKS.md), and deterministic.
pub const MEDIUM_NODES: u64 = 4_000;

/// The nodes [`Engine::assess`] searches.
pub const ASSESS_NODES: u64 = 3_000;

/// The longest best line a [`Report`] carries.
const PV_MAX: usize = 12;

/// How an [`Engine`] is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The transposition table's size in bytes (rounded down to a power of two of 16-byte
    /// entries; at least one entry). The engine's memory is this plus about 1 MiB of buffers.
    pub tt_bytes: usize,
    /// The seed of every random choice (tie-breaks, `random`, `beginner` and `easy`). Mixed with the
    /// position, so one seed gives different but repeatable choices in different positions.
    pub seed: u64,
}

impl Default for EngineConfig {
    /// 16 MiB of table, seed 0.
    fn default() -> EngineConfig {
        EngineConfig {
            tt_bytes: 16 << 20,
            seed: 0,
        }
    }
}

/// What the engine chose and what it thought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The turn to play: always one of the position's legal turns, `pass` only when it is the
    /// only one.
    pub best: Turn,
    /// The mover's expected share of the game in 1/100 000 ([`eval::SHARE_SCALE`] is a sure
    /// win, a draw shared by k is 100 000 / k); beyond ±[`eval::WIN_THRESHOLD`] a forced win or
    /// loss ([`eval::WIN`] less the plies to it).
    pub score: i32,
    /// The deepest iteration completed, in plies (0: only the one-ply pass, or a level that
    /// does not search).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Turn>,
    /// Time spent thinking.
    pub elapsed: Duration,
}

/// The game is over: there is nothing to choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver;

impl std::fmt::Display for GameOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the game is over")
    }
}

impl std::error::Error for GameOver {}

/// A Djambi bot. `Send`: it can run on a blocking thread pool. Choices depend only on the
/// position (ruleset included), the level, the seed and the limits: with a node budget (and no
/// move time that runs out first) the same call gives the same turn, on a fresh engine or one
/// that has played before.
pub struct Engine {
    searcher: Searcher,
    seed: u64,
    buf: Vec<Turn>,
    /// What `hard` calls after each completed iteration ([`Engine::with_hook`]): `None` in
    /// every engine of the server and the command line.
    hook: Option<Box<dyn IterationHook>>,
}

impl Engine {
    /// An engine with its table allocated.
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            searcher: Searcher::new(config.tt_bytes),
            seed: config.seed,
            buf: Vec::with_capacity(4096),
            hook: None,
        }
    }

    /// An engine whose `hard` calls `hook` after each completed iteration of its search
    /// ([`crate::search::hook`]): how the lab's experiments (`crates/djambi-lab`) change `hard`
    /// without code of their own in the engine. The other levels, [`Engine::value`] and
    /// [`Engine::assess`] do not call it.
    pub fn with_hook(config: EngineConfig, hook: Box<dyn IterationHook>) -> Engine {
        Engine {
            hook: Some(hook),
            ..Engine::new(config)
        }
    }

    /// Sets the seed of the next choices (a server's engine serves many games: each game, and
    /// each of its turns, brings its own seed, so two games differ and a replayed game does
    /// not). The table is kept: with a node budget a choice depends on the seed, not on it.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The seed of the next choices.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The transposition table's memory, in bytes (at most the configured size).
    pub fn tt_bytes(&self) -> usize {
        self.searcher.tt_bytes()
    }

    /// Chooses a turn for the player to move in `pos` at `level` within `limits`. Never
    /// panics; never resigns; returns `Err(GameOver)` when nobody is to move.
    ///
    /// Limits: `hard` searches until the move time runs out, the node budget is spent or the
    /// stop flag is set (with no limit at all, [`DEFAULT_MOVETIME`]); `medium` searches at most
    /// [`MEDIUM_NODES`] nodes (fewer if the limits say so); `easy`, `beginner` and `random`
    /// answer in microseconds whatever the limits.
    pub fn think(
        &mut self,
        pos: &Position,
        level: Level,
        limits: &Limits,
    ) -> Result<Report, GameOver> {
        let start = Instant::now();
        let mover = pos.to_move().ok_or(GameOver)?;
        let mut rng = Rng::new(self.seed ^ hash(pos, mover));
        let simple = |best: Turn, score: i32| Report {
            best,
            score,
            depth: 0,
            nodes: 0,
            pv: vec![best],
            elapsed: start.elapsed(),
        };
        match level {
            Level::Random => {
                let t = random_turn(pos, &mut rng, &mut self.buf).ok_or(GameOver)?;
                let mut child = *pos;
                child.play_unchecked(&t);
                Ok(simple(t, eval::terminal(&child, mover, 1)))
            }
            Level::Beginner => {
                let (t, s) = beginner_turn(pos, &mut rng, &mut self.buf).ok_or(GameOver)?;
                Ok(simple(t, s))
            }
            Level::Easy => {
                let (t, s) = easy_turn(pos, &mut rng, &mut self.buf).ok_or(GameOver)?;
                Ok(simple(t, s))
            }
            Level::Medium | Level::Hard => {
                let mut limits = limits.clone();
                if level == Level::Medium {
                    limits.nodes = Some(limits.nodes.map_or(MEDIUM_NODES, |n| n.min(MEDIUM_NODES)));
                } else if limits.movetime.is_none() && limits.nodes.is_none() {
                    limits.movetime = Some(DEFAULT_MOVETIME);
                }
                let hook = match level {
                    Level::Hard => self
                        .hook
                        .as_deref_mut()
                        .map(|h| h as &mut dyn IterationHook),
                    _ => None,
                };
                let out = self
                    .searcher
                    .think(pos, &limits, MAX_DEPTH, start, &mut rng, hook)
                    .ok_or(GameOver)?;
                Ok(Report {
                    best: out.best,
                    score: out.score,
                    depth: out.depth,
                    nodes: self.searcher.nodes(),
                    pv: self.searcher.pv(pos, out.best, PV_MAX),
                    elapsed: self.searcher.elapsed(),
                })
            }
        }
    }

    /// The value of `pos` for `player` (who need not be the one to move): the Paranoid search
    /// from `player`'s point of view, iteratively deepened within `limits`, on the scale of
    /// [`Report::score`] (`player`'s share in 1/100 000, beyond ±[`eval::WIN_THRESHOLD`] a forced
    /// win or loss). A finished game gives its [`eval::terminal`] score, a player out of the
    /// game a loss. With neither a move time nor a node budget, [`DEFAULT_MOVETIME`]. The first
    /// iteration always completes; with a node budget the value is repeatable.
    pub fn value(&mut self, pos: &Position, player: Player, limits: &Limits) -> i32 {
        if limits.movetime.is_none() && limits.nodes.is_none() {
            let limits = Limits {
                movetime: Some(DEFAULT_MOVETIME),
                ..limits.clone()
            };
            return self.searcher.value(pos, player, &limits);
        }
        self.searcher.value(pos, player, limits)
    }

    /// `player`'s chances in `pos` after a short search ([`ASSESS_NODES`] nodes, deterministic),
    /// for deciding whether a bot seat accepts a draw: it does when
    /// [`Assessment::losing`](crate::Assessment) is true. `player` need not be the one to move.
    pub fn assess(&mut self, pos: &Position, player: Player) -> Assessment {
        if !pos.is_alive(player) {
            return eval::assess(pos, player);
        }
        let v = self
            .searcher
            .value(pos, player, &Limits::nodes(ASSESS_NODES));
        eval::assessment_from_score(pos, player, v)
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(EngineConfig::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    /// The two-opponent opening trap an outside referee found (`tests/traps.rs`): after red's
    /// `b8-c7`, blue's Diplomat sets yellow's Militant down beside red's Chief and yellow kills
    /// it. The value of the position for red sees red lost, thanks to the square beside its
    /// chief kept among an opponent's placements (`search/placement.rs`).
    #[test]
    fn the_value_sees_the_opening_trap() {
        let mut p = Position::new();
        for t in ["c7-d8", "h7-g6", "g3-f4", "c3-f6", "b8-c7"] {
            let t = p.parse_turn(t).unwrap();
            p.play(&t).unwrap();
        }
        let seen = Engine::default().value(&p, Player::Red, &Limits::nodes(20_000));
        assert!(seen < -eval::WIN_THRESHOLD, "red is lost: {seen}");
    }

    #[test]
    fn assess_says_who_is_losing() {
        let rules = djambi_core::Rules::default();
        let mut e = Engine::default();
        let start = Position::new();
        for p in djambi_core::Army::ALL {
            assert!(!e.assess(&start, p).losing);
        }
        // A lone red chief against blue's whole army; blue to move.
        let lonely = Position::from_dpn(
            "Cr5MbRbCb/6MbDbAb/6NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5",
            rules,
        )
        .unwrap();
        assert!(e.assess(&lonely, Player::Red).losing);
        assert!(!e.assess(&lonely, Player::Blue).losing);
        // Out of the game: losing; the winner of a finished game: not.
        assert!(e.assess(&lonely, Player::Yellow).losing);
        let won = Position::from_dpn("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9", rules).unwrap();
        let a = e.assess(&won, Player::Red);
        assert!(!a.losing && a.share == 1.0);
    }

    #[test]
    fn engine_is_send_and_answers_at_every_level() {
        assert_send::<Engine>();
        let mut e = Engine::new(EngineConfig {
            tt_bytes: 1 << 16,
            seed: 1,
        });
        let p = Position::new();
        for level in Level::ALL {
            let r = e.think(&p, level, &Limits::nodes(2000)).unwrap();
            assert!(p.is_legal(&r.best), "{level}");
            assert_eq!(r.pv.first(), Some(&r.best));
        }
    }
}
