//! # djambi-lab
//!
//! The engine's lab: where the bots' strength is measured and where changes to `hard` are tried
//! before one lands in `djambi-engine`. Nothing that ships depends on it (not the server, not
//! the command line); it depends on the engine's public API only.
//!
//! - [`arena`]: whole games between agents ([`agent`]), seats rotated, for matches of many
//!   games; [`stats`] turns their scores into means with confidence intervals and Elo steps.
//!   `examples/arena.rs` runs matches and ladders (`docs/ARENA.md`).
//! - The arena's opponents that are not the engine: [`maxn`] (the Max-N-2 material baseline),
//!   [`referee`] (the outside referee's Max-N-2 player) and [`mcts`] (Monte-Carlo Tree Search).
//! - [`experiments`]: changes to `hard`, each one file plugged into the search's one extension
//!   point, a hook called after each completed iteration
//!   (`djambi_engine::search::IterationHook`).
//! - `examples/calibrate`: the games and the fit of the analysis's value model
//!   (`djambi_engine::analysis::Model::FITTED`); `examples/eval_fit.rs`: the evaluation's
//!   weights fitted on `hard`'s games.
//!
//! What was measured with it, and what landed, is recorded in `docs/lab/`.
//!
//! ```
//! use djambi_engine::Level;
//! use djambi_lab::agent::Agent;
//! use djambi_lab::arena::{GameSetup, play_game, rotated_seats};
//!
//! let setup = GameSetup {
//!     seats: rotated_seats(Agent::Level(Level::Easy), Agent::Level(Level::Random), 0),
//!     movetime: [None; 4],
//!     nodes: [Some(1_000); 4],
//!     turn_limit: 10,
//!     seed: 1,
//!     tt_bytes: 1 << 16,
//! };
//! let game = play_game(&setup);
//! assert!((game.scores.iter().sum::<f64>() - 1.0).abs() < 1e-9);
//! ```

pub mod agent;
pub mod arena;
pub mod experiments;
pub mod maxn;
pub mod mcts;
pub mod referee;
pub mod stats;
