//! The search behind the levels and the puzzles.
//!
//! - `searcher.rs`: the `Searcher` — one search's state and its memory, allocated
//!   once (one list of legal turns and one of scored turns per ply: nothing is allocated per
//!   node);
//! - `paranoid.rs`: the Paranoid alpha-beta search and its quiescence search over kills, with a
//!   transposition table (`crate::tt`), move ordering (`ordering.rs`) and representative
//!   placements (`placement.rs`);
//! - `deepening.rs`: iterative deepening at the root (`hard`, and `medium` on its node budget),
//!   the value of a position for any player (the draw-offer assessment), the expected line;
//! - `hook.rs`: the one extension point, an [`IterationHook`] called after each completed
//!   iteration of `hard` (the lab's experiments; none in production);
//! - `rank.rs`: every root turn ranked, which verifies puzzles;
//! - `greedy.rs` (`random`, `easy`) and `beginner.rs`: the one-ply players of the low levels.
//!
//! Files depend on each other one way (`tests/module_layers.rs`): `searcher` below the node
//! code, the node code below iterative deepening and the ranking.

pub mod beginner;
mod deepening;
pub mod greedy;
pub mod hook;
pub(crate) mod ordering;
mod paranoid;
pub(crate) mod placement;
pub(crate) mod rank;
pub(crate) mod searcher;

pub use hook::{Iteration, IterationHook, Next};
pub use placement::representatives;
pub use searcher::MAX_DEPTH;
