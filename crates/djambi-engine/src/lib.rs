//! # djambi-engine
//!
//! Bots for Djambi over `djambi-core`: an evaluation ([`eval`]), a Paranoid alpha-beta search
//! with iterative deepening, a transposition table and quiescence ([`search`]), time and node
//! limits ([`time`]), five [`Level`]s, post-game analysis ([`analysis`]: every player's chance
//! of winning after each turn by a fitted value model, the engine's choice, a verdict and each
//! player's accuracy), and puzzles ([`puzzle`]: positions of engine play with one clearly best
//! turn, verified by the search). That is all it holds: the arena that measures the levels, its
//! opponents and the experiments live in the lab (`crates/djambi-lab`), which reaches `hard`
//! through one extension point ([`search::IterationHook`]). `docs/ENGINE.md` explains the
//! design, `docs/ARENA.md` how strength is measured and BENCHMARKS.md the figures.
//!
//! ```
//! use djambi_core::Position;
//! use djambi_engine::{Engine, EngineConfig, Level, Limits};
//!
//! let mut engine = Engine::new(EngineConfig { tt_bytes: 1 << 20, seed: 7 });
//! let pos = Position::new();
//! let report = engine.think(&pos, Level::Hard, &Limits::nodes(5_000)).unwrap();
//! assert!(pos.is_legal(&report.best));
//! // Same seed, same budget: the same turn.
//! let again = Engine::new(EngineConfig { tt_bytes: 1 << 20, seed: 7 })
//!     .think(&pos, Level::Hard, &Limits::nodes(5_000))
//!     .unwrap();
//! assert_eq!(again.best, report.best);
//! // A bot seat accepts a draw offer when it is losing.
//! assert!(!engine.assess(&pos, pos.to_move().unwrap()).losing);
//! ```

pub mod analysis;
mod engine;
pub mod eval;
mod level;
pub mod puzzle;
mod rng;
pub mod search;
pub mod time;
mod tt;
mod zobrist;

pub use analysis::{Judgement, Label, Model, analyse_game, analyse_game_with, judge};
pub use engine::{
    ASSESS_NODES, DEFAULT_MOVETIME, Engine, EngineConfig, GameOver, MEDIUM_NODES, Report,
};
pub use eval::{Assessment, assess};
pub use level::{Level, ParseLevelError};
pub use rng::{Rng, mix};
pub use time::{Limits, process_budget};
