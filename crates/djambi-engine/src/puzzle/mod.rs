//! Puzzles: positions from engine play with one clearly best turn, verified by the engine, with
//! a theme and a difficulty — what `djambi puzzles` writes to `data/puzzles.json` and the
//! server serves.
//!
//! - [`generate()`] (`generate.rs`) plays seeded games between the levels, looks at their
//!   positions, keeps those the verifier accepts and that have a theme, and balances the
//!   themes;
//! - [`Verifier`] (`verify.rs`) searches every legal turn of the player to move and accepts a
//!   position whose best turn beats the second best by a clear margin, and stays best one ply
//!   deeper;
//! - [`classify`] (`theme.rs`) names what the answer does ([`Theme`]);
//! - [`Signals`] (`difficulty.rs`) grade it from 1 to 5;
//! - [`Puzzle`] and [`PuzzleFile`] (`file.rs`): a puzzle, and the file's JSON shape, which
//!   checks a record back into a [`Puzzle`].
//!
//! `docs/ENGINE.md` ("Puzzles") says how they are made and why.

mod difficulty;
mod file;
mod generate;
mod theme;
mod verify;

pub use difficulty::{Signals, TRIES};
pub use file::{PUZZLE_FILE_VERSION, Puzzle, PuzzleError, PuzzleFile, PuzzleRecord, puzzle_id};
pub use generate::{
    DEFAULT_DEPTH, DEFAULT_NODES, MAX_THEME_SHARE, MIN_MARGIN, Progress, Settings, generate,
};
pub use theme::{Theme, Threats, classify, threats};
pub use verify::{Rejection, VERIFY_TT_BYTES, Verified, Verifier};
