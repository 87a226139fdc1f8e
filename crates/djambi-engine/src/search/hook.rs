//! The search's one extension point: a hook that `hard`'s iterative deepening calls after each
//! completed iteration, and that may let it go on, stop it, or choose another of its root
//! turns.
//!
//! It is how an experiment changes `hard` without a line of its own in the engine: the lab
//! (`crates/djambi-lab`, its `experiments/` folder) builds an [`Engine`](crate::Engine) with
//! [`Engine::with_hook`](crate::Engine::with_hook) and plays it in the arena. No level of the
//! server or of the command line has a hook, and `medium`, [`Engine::value`](crate::Engine::value),
//! [`Engine::assess`](crate::Engine::assess) and the puzzles never call one: without it, `hard`
//! is exactly the search the tests replay (`tests/replay.rs`).
//!
//! The hook is called only after an iteration that searched every root turn and found no forced
//! win or loss (those end the search anyway), with the root turns already sorted for the next
//! iteration. On a node budget everything it is shown is a function of the position, the seed
//! and the budget, so a hook that decides from it alone keeps the games repeatable.

use djambi_core::{Position, Turn};

/// What a hook sees of a search after a completed iteration.
#[derive(Clone, Copy, Debug)]
pub struct Iteration<'a> {
    /// The iteration's depth, in plies (1 for the first).
    pub depth: u32,
    /// The turn the search would play now, and its score (the root player's share in
    /// 1/100 000, as [`Report::score`](crate::Report::score)).
    pub best: (Turn, i32),
    /// Every root turn the search considers, best first, with its score from this iteration:
    /// exact for the best, an upper bound (fail-soft) for the others. Equal scores keep the
    /// previous order, which starts as a seeded shuffle.
    pub root_turns: &'a [(Turn, i32)],
    /// Nodes searched so far.
    pub nodes: u64,
    /// The largest share of a limit used so far, 0 to 1: of the node budget, or of the move
    /// time (0 without limits).
    pub used: f64,
    /// Whether the limits allow another iteration to start (as `hard` decides it: no new one
    /// after 45 % of the move time, none once the node budget is spent).
    pub may_deepen: bool,
}

/// What the search does after a hook has seen an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Go on as `hard` does: deepen while the limits allow.
    Deepen,
    /// Stop and play the iteration's best turn.
    Stop,
    /// Stop and play this turn instead, with the iteration's score and depth; a turn that is not
    /// one of [`Iteration::root_turns`] is ignored (the best is played).
    Play(Turn),
}

/// An extension of `hard`'s iterative deepening, called after each completed iteration.
/// `Send`, like the [`Engine`](crate::Engine) that holds it.
pub trait IterationHook: Send {
    /// Decides what the search does after `iteration`, a completed iteration of the search of
    /// `pos`.
    fn after_iteration(&mut self, pos: &Position, iteration: &Iteration<'_>) -> Next;
}
