//! Monte-Carlo Tree Search beyond the fourth ply: the arena's `hard-mcts` (issue 24; measured).
//!
//! Every way of searching deeper with the Paranoid model (docs/STRENGTH.md) scored like `hard`
//! on four times its opponents' nodes: a fifth ply costs about fifty times the fourth, and the
//! deeper Paranoid plies, where reached, chose no better among turns the fourth ply could not
//! tell apart. In multi-player games it is Monte-Carlo Tree Search with each player playing for
//! itself that gains most from more time (Nijssen & Winands 2012, "Search Policies in
//! Multi-Player Games"; Sturtevant 2008): its estimates sharpen with every position it
//! evaluates, with no cliff between one depth and the next.
//!
//! `hard-mcts` keeps `hard`'s full-width Paranoid search up to a completed fourth ply (what keeps
//! it out of the two-opponent traps) and changes only which of the turns it cannot tell apart is
//! played. The fourth ply leaves many root turns that may be as good as its best (about twenty
//! in a middle game whose fail-soft bound is not below it: the opponents' strongest answer often
//! costs the searching player the same whatever it does), and `hard` plays the first in its
//! seeded order. When the limits leave no room for a fifth ply, `hard-mcts` gives part of what
//! is left to the arena's MCTS ([`crate::search::mcts`]), whose root turns are only those whose
//! bound is within [`MCTS_MARGIN`] (none) of the best: a turn bounded lower is certainly worse.
//! MCTS's turns are then tried best first, at most [`MCTS_TRIES`], and the first that the
//! Paranoid check passes ([`Searcher::verify`] with [`MCTS_CHECK_MARGIN`]: a null-window search
//! of four plies finds it at most that far below the best) is played; the Paranoid best when
//! none does.
//!
//! On a node budget MCTS gets [`MCTS_PART`] of the positions left, so the choice stays a
//! function of position, seed and budget. On a move time alone it runs until [`MCTS_TIME`] of
//! it, at most [`MCTS_MAX_POSITIONS`] (its memory bound). A count at the search's rate, which it
//! had before, was almost never reached first: it made no difference on the clock, where more
//! time did not help either way (docs/STRENGTH.md).
//!
//! Two other margins were measured (docs/STRENGTH.md, "MCTS among the fourth ply's equals"):
//! 1 500 share units in both places ([`VERIFY_MARGIN`], as `hard-brs` allows) gave MCTS more
//! turns and cost more safety against the referee's players; a check with no margin left MCTS
//! too little to choose and scored below `hard` on more time.

use djambi_core::{Position, Turn};

use super::{Outcome, Searcher, VERIFY_MARGIN};

/// How far below the fourth ply's best the fail-soft bound of a turn MCTS may choose can be:
/// none. The turns in the running are those whose refutation was no better for the opponents
/// than the best turn's.
pub(crate) const MCTS_MARGIN: i32 = 0;

/// How far below the fourth ply's best a turn MCTS chooses may be, to a full-width null-window
/// search of four plies: twice [`VERIFY_MARGIN`] (3 000 share units, 3 % of the game).
pub(crate) const MCTS_CHECK_MARGIN: i32 = 2 * VERIFY_MARGIN;

/// On a node budget, the per cent of the positions left that MCTS may evaluate; the rest is for
/// the checks.
pub(crate) const MCTS_PART: u64 = 50;

/// The share of the move time after which MCTS stops, whatever it has evaluated: the rest is
/// for the checks.
pub(crate) const MCTS_TIME: f64 = 0.75;

/// The most positions one tree may evaluate on a move time alone, where MCTS runs until
/// [`MCTS_TIME`]: it bounds the tree's memory (a node is 40 bytes; a tree holds at most this
/// many and one expansion more, under 100 MB).
pub(crate) const MCTS_MAX_POSITIONS: u64 = 2_000_000;

/// How many of MCTS's turns, best first, are checked at most.
pub(crate) const MCTS_TRIES: usize = 3;

impl Searcher {
    /// After a completed Paranoid iteration `paranoid` of four plies, with `root_moves` as it
    /// left them (best first, the others' fail-soft bounds): MCTS among the turns whose bound
    /// is within [`MCTS_MARGIN`] of the best, then the Paranoid check of its first
    /// [`MCTS_TRIES`]. Returns the turn to play (its score and depth the Paranoid ones).
    pub(crate) fn choose_by_mcts(
        &mut self,
        pos: &Position,
        paranoid: Outcome,
        root_moves: &[(Turn, i32)],
    ) -> Outcome {
        let floor = paranoid.score.saturating_sub(MCTS_MARGIN);
        let running: Vec<Turn> = root_moves
            .iter()
            .filter(|(_, s)| *s >= floor)
            .map(|(t, _)| *t)
            .collect();
        if running.len() < 2 {
            return paranoid;
        }
        let Some(left) = self.clock.nodes_left(self.nodes) else {
            return paranoid;
        };
        // On a node budget MCTS gets part of what is left, so the choice stays a function of
        // the budget. On a move time it runs by the clock, within its memory bound: near a
        // game's end a position may cost more time than a search node, so a count alone
        // overran the move time.
        let clock = &self.clock;
        let budget = if clock.has_node_budget() {
            left * MCTS_PART / 100
        } else {
            MCTS_MAX_POSITIONS
        };
        let stop = || clock.time_used() >= MCTS_TIME;
        let Some(spent) = self.mcts.grow(pos, Some(&running), budget, stop) else {
            return paranoid;
        };
        self.nodes += spent;
        self.arm_check(&paranoid);
        self.verify_margin = MCTS_CHECK_MARGIN;
        let mut best = paranoid.clone();
        for t in self.mcts.ranked().into_iter().take(MCTS_TRIES) {
            if self.verify(pos, t) {
                best.best = t;
                break;
            }
            if self.clock.stopped() {
                break;
            }
        }
        self.verify_margin = VERIFY_MARGIN;
        self.disarm_check();
        best
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::paranoid::INF;
    use super::super::verify::{referee_opening, searched_after_referee_opening};
    use super::super::{MAX_DEPTH, VERIFIED_FROM, VERIFY_MARGIN};
    use super::MCTS_CHECK_MARGIN;
    use crate::time::{Clock, Limits};

    /// `hard-mcts` after the outside referee's opening (where red's `b8-c7` loses its chief to two
    /// opponents): with a budget that leaves no room for a fifth ply, MCTS runs among the turns
    /// the fourth ply left in the running (here it chooses another turn than the fourth ply's
    /// best), the turn played is worth at most [`MCTS_CHECK_MARGIN`] less than the fourth ply's
    /// best to a full-width search of four plies, is not `b8-c7`, and repeats on the same budget
    /// and seed; the search spends no more than its budget and leaves the check as it found it.
    #[test]
    fn an_mcts_turn_must_pass_the_paranoid_fourth_ply() {
        let p = referee_opening();
        let think = |mcts: bool, max_depth: i32| {
            searched_after_referee_opening(|s| s.mcts_beyond = mcts, 600_000, max_depth)
        };
        let (_, paranoid) = think(false, VERIFIED_FROM);
        assert_eq!(paranoid.depth, VERIFIED_FROM as u32);
        let (mut s, out) = think(true, MAX_DEPTH);
        let (again, same) = think(true, MAX_DEPTH);
        assert_eq!((s.nodes, out.best), (again.nodes, same.best));
        assert!(s.nodes <= 600_000, "{}", s.nodes);
        assert!(!s.mcts.ranked().is_empty(), "MCTS ran");
        assert!(s.safe.is_none() && s.verify_margin == VERIFY_MARGIN);
        assert_eq!((out.depth, out.score), (paranoid.depth, paranoid.score));
        assert_ne!(out.best, p.parse_turn("b8-c7").unwrap());
        assert_ne!(out.best, paranoid.best);
        s.safe = Some((paranoid.best, paranoid.score));
        s.reducing = true;
        s.clock = Clock::new(&Limits::default(), Instant::now());
        s.verify_margin = MCTS_CHECK_MARGIN;
        assert!(s.verify(&p, out.best));
        assert!(!s.verify(&p, p.parse_turn("b8-c7").unwrap()), "the trap");
        let mut child = p;
        child.play_unchecked(&out.best);
        s.reducing = false;
        let exact = s.search(&child, VERIFIED_FROM - 1, 1, -INF, INF);
        assert!(
            (paranoid.score - MCTS_CHECK_MARGIN..=paranoid.score).contains(&exact),
            "{exact} within the margin below {}",
            paranoid.score
        );
    }
}
