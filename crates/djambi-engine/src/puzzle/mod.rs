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
//! - [`PuzzleFile`] (`file.rs`) is the file's JSON shape, and checks a record back into a
//!   [`Puzzle`].
//!
//! `docs/ENGINE.md` ("Puzzles") says how they are made and why.

mod difficulty;
mod file;
mod generate;
mod theme;
mod verify;

pub use difficulty::{Signals, TRIES};
pub use file::{PUZZLE_FILE_VERSION, PuzzleError, PuzzleFile, PuzzleRecord, puzzle_id};
pub use generate::{
    DEFAULT_DEPTH, DEFAULT_NODES, MAX_THEME_SHARE, MIN_MARGIN, Progress, Settings, generate,
};
pub use theme::{Theme, Threats, classify, threats};
pub use verify::{Rejection, VERIFY_TT_BYTES, Verified, Verifier};

use djambi_core::{Player, Position, Turn};

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, the solver to move (standard rules).
    pub position: Position,
    /// The one best turn.
    pub solution: Turn,
    /// The engine's continuation after it.
    pub line: Vec<Turn>,
    /// What it is about.
    pub theme: Theme,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
    /// The depth at which the answer was verified unique, in plies.
    pub depth: u32,
    /// The answer's lead over the second-best turn at that depth (engine units).
    pub margin: i32,
}

impl Puzzle {
    /// The solver: the player to move.
    ///
    /// # Panics
    /// If the position is a finished game (not a puzzle: [`generate()`] and
    /// [`PuzzleRecord::puzzle`] never make one).
    pub fn player(&self) -> Player {
        self.position
            .to_move()
            .expect("a puzzle's position has a player to move")
    }
}
