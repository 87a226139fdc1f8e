//! The verifier: is there one clearly best turn, in the engine's own view?
//!
//! Every legal turn of the player to move (every placement included) is searched at depths
//! 1, 2, … with the Paranoid search (the root player against the coalition of the others, the
//! engine's own view), keeping the exact values of the two best turns at each depth
//! (`search/rank.rs`). A position is a puzzle at depth `D` when
//! - the best turn at `D` beats the second best by at least the required margin, and
//! - (when asked, as the generator does) it is still the best one ply deeper, by at least half
//!   that margin: an answer that the next ply overturns is not an answer.
//!
//! Everything runs on a node budget, so a verdict depends only on the position, the depth and
//! the budget: the generator and the tests that re-verify the puzzle file agree exactly.

use djambi_core::{Position, Turn};

use crate::search::rank::Ranked;
use crate::search::searcher::Searcher;
use crate::time::Limits;

/// The transposition table of a [`Verifier`]: 16 MiB.
pub const VERIFY_TT_BYTES: usize = 16 << 20;

/// A position with one clearly best turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The best turn: the puzzle's answer.
    pub solution: Turn,
    /// Its value at `depth` (the solver's score, [`crate::eval`]'s scale).
    pub score: i32,
    /// The second-best turn at `depth`.
    pub runner_up: Turn,
    /// The value of the best turn less that of the second best, at `depth`.
    pub margin: i32,
    /// The depth of the verdict, in plies (the answer included).
    pub depth: u32,
    /// The shallowest depth from which the answer is the strict best at every depth up to
    /// `depth` (1: a one-ply look finds it).
    pub found_at: u32,
    /// The engine's expected continuation after the answer (its best line, possibly empty).
    pub line: Vec<Turn>,
    /// The nodes searched.
    pub nodes: u64,
}

/// Why a position is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// Nobody is to move.
    GameOver,
    /// The player to move has one legal turn (`pass`, when it has no other).
    NoChoice,
    /// The search did not complete the depth within its node budget.
    TooCostly,
    /// The best turn does not beat the second best by the required margin.
    Close {
        /// The margin found.
        margin: i32,
    },
    /// One ply deeper, another turn is best, or the margin shrank below half.
    Unstable,
}

/// Ranks every turn of a position to decide whether it has one clearly best answer. One
/// verifier holds a search's memory (its table and buffers); reuse it for many positions.
pub struct Verifier {
    searcher: Searcher,
    nodes: u64,
}

impl Verifier {
    /// A verifier whose every verdict searches at most `nodes` nodes.
    pub fn new(nodes: u64) -> Verifier {
        // A verdict is a proof at its depth: every turn is searched to it, none reduced.
        Verifier {
            searcher: Searcher::new(VERIFY_TT_BYTES),
            nodes,
        }
    }

    /// The node budget of one verdict.
    pub fn budget(&self) -> u64 {
        self.nodes
    }

    /// Whether `pos` has one best turn at `depth` (≥ 1) beating every other by at least
    /// `min_margin`; with `stable`, that turn must also be best at `depth + 1` by at least half
    /// of `min_margin`.
    pub fn verify(
        &mut self,
        pos: &Position,
        depth: u32,
        min_margin: i32,
        stable: bool,
    ) -> Result<Verified, Rejection> {
        if pos.is_game_over() {
            return Err(Rejection::GameOver);
        }
        let depth = depth.max(1);
        let Some(mut ranking) = self.searcher.rank_start(pos, &Limits::nodes(self.nodes)) else {
            return Err(Rejection::NoChoice);
        };
        while ranking.ranks.len() < depth as usize {
            if !self.searcher.rank_deeper(pos, &mut ranking) {
                return Err(Rejection::TooCostly);
            }
        }
        let at = ranking.ranks[depth as usize - 1];
        let margin = at.best.1 - at.second.1;
        if margin < min_margin.max(1) {
            return Err(Rejection::Close { margin });
        }
        let solution = at.best.0;
        // One ply deeper only for a position that passed: most do not, and it costs the most.
        if stable {
            if !self.searcher.rank_deeper(pos, &mut ranking) {
                return Err(Rejection::TooCostly);
            }
            let deeper = ranking.ranks[depth as usize];
            let kept = deeper.best.1 - deeper.second.1;
            if deeper.best.0 != solution || kept < (min_margin / 2).max(1) {
                return Err(Rejection::Unstable);
            }
        }
        let line = self.searcher.pv(pos, solution, depth as usize);
        Ok(Verified {
            solution,
            score: at.best.1,
            runner_up: at.second.0,
            margin,
            depth,
            found_at: found_at(&ranking.ranks[..depth as usize], solution),
            line: line[1..].to_vec(),
            nodes: self.searcher.nodes(),
        })
    }
}

/// The shallowest depth from which `solution` is the strict best of every ranking after it.
fn found_at(ranks: &[Ranked], solution: Turn) -> u32 {
    let mut from = ranks.len();
    while from > 0 {
        let r = &ranks[from - 1];
        if r.best.0 != solution || r.best.1 == r.second.1 {
            break;
        }
        from -= 1;
    }
    ranks[from.min(ranks.len() - 1)].depth
}
