//! The check a deeper iteration's turn must pass before it is played: the arena's `hard-lmrv`
//! (reduced iterations beyond the fourth ply) and `hard-brs` (Best-Reply iterations beyond it,
//! `beyond.rs`) both play a new best turn only if the full-width Paranoid search of
//! [`VERIFIED_FROM`] plies finds it at most [`VERIFY_MARGIN`] below the full-width best (issue 24).

use djambi_core::{Position, Turn};

#[cfg(doc)]
use super::VERIFY_MARGIN;
use super::{Searcher, Style, VERIFIED_FROM};

impl Searcher {
    /// Arms [`Searcher::verify`] against `best`, the full-width fourth ply's turn and score, until
    /// [`Searcher::disarm_check`]: the searches beyond the fourth ply (`hard-brs`, `hard-mcts`).
    pub(crate) fn arm_check(&mut self, best: &super::Outcome) {
        // `verify` checks a turn against the Paranoid best while `reducing` is set.
        self.safe = Some((best.best, best.score));
        self.reducing = true;
    }

    /// Disarms [`Searcher::verify`] after [`Searcher::arm_check`]: every turn passes again, and
    /// `reducing` is what the search's form starts an iteration with.
    pub(crate) fn disarm_check(&mut self) {
        self.safe = None;
        self.reducing = self.reductions != super::Reductions::Verified;
    }

    /// Whether the root turn `t`, found best by a reduced iteration
    /// ([`Reductions::Verified`](super::Reductions::Verified)) or a Best-Reply one (`hard-brs`,
    /// `beyond.rs`), may be played: a full-width Paranoid null-window search of
    /// [`VERIFIED_FROM`] plies, without the table's cutoffs, finds it at most
    /// [`Searcher::verify_margin`] ([`VERIFY_MARGIN`]; twice that in `hard-mcts`) below the
    /// full-width best. Always true outside those forms and for the full-width best itself.
    pub(crate) fn verify(&mut self, pos: &Position, t: Turn) -> bool {
        let Some((safe, score)) = self.safe.filter(|_| self.reducing) else {
            return true;
        };
        if t == safe {
            return true;
        }
        let floor = score.saturating_sub(self.verify_margin);
        let mut child = *pos;
        child.play_unchecked(&t);
        // `hard-brs`: the check is the Paranoid search's, on the Paranoid entries.
        let brs = self.style == Style::BestReply && self.brs_beyond;
        if brs {
            self.best_reply_phase(false);
        }
        self.reducing = false;
        // `hard-mcts`'s table holds only full-width Paranoid entries: they may cut off.
        self.tt_cutoffs = self.mcts_beyond;
        let s = self.search(&child, VERIFIED_FROM - 1, 1, floor - 1, floor);
        self.reducing = true;
        self.tt_cutoffs = true;
        if brs {
            self.best_reply_phase(true);
        }
        !self.clock.stopped() && s >= floor
    }
}

/// The outside referee's opening (`c7-d8 h7-g6 g3-f4 c3-f6`, tests/traps.rs), red to move:
/// red's `b8-c7` now loses its chief to two opponents within four plies. The tests of the checks
/// beyond the fourth ply start from it.
#[cfg(test)]
pub(crate) fn referee_opening() -> Position {
    let mut p = Position::new();
    for t in ["c7-d8", "h7-g6", "g3-f4", "c3-f6"] {
        p.play(&p.parse_turn(t).unwrap()).unwrap();
    }
    p
}

/// `s`'s search of [`referee_opening`] within `limits` and `max_depth` plies, seed 1: the search
/// the tests beyond the fourth ply compare.
#[cfg(test)]
pub(crate) fn think_after_referee_opening(
    s: &mut Searcher,
    limits: &crate::time::Limits,
    max_depth: i32,
) -> super::Outcome {
    s.think(
        &referee_opening(),
        limits,
        max_depth,
        std::time::Instant::now(),
        &mut crate::rng::Rng::new(1),
    )
    .unwrap()
}

/// A searcher made by `set` from a new one, and its search of [`referee_opening`] on `nodes`
/// nodes and `max_depth` plies, seed 1: how the tests of the searches beyond the fourth ply
/// (`hard-brs`, `hard-mcts`) compare a form with `hard`.
#[cfg(test)]
pub(crate) fn searched_after_referee_opening(
    set: impl FnOnce(&mut Searcher),
    nodes: u64,
    max_depth: i32,
) -> (Searcher, super::Outcome) {
    let mut s = Searcher::new(1 << 22);
    set(&mut s);
    let out = think_after_referee_opening(&mut s, &crate::time::Limits::nodes(nodes), max_depth);
    (s, out)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::paranoid::INF;
    use super::super::{Reductions, Searcher, VERIFIED_FROM, VERIFY_MARGIN};
    use crate::time::{Clock, Limits};

    /// `hard-lmrv`'s check: after the outside referee's opening (`c7-d8 h7-g6 g3-f4 c3-f6`,
    /// tests/traps.rs), red's `b8-c7` loses its chief to two opponents within four plies, so a
    /// reduced iteration could not play it over the full-width best; the full-width best itself
    /// and a turn no worse pass.
    #[test]
    fn a_reduced_iterations_turn_must_pass_the_full_width_search() {
        let p = super::referee_opening();
        let mut s = Searcher::new(1 << 22);
        s.reductions = Reductions::Verified;
        let out =
            super::think_after_referee_opening(&mut s, &Limits::nodes(400_000), VERIFIED_FROM);
        assert_eq!(out.depth, VERIFIED_FROM as u32);
        s.safe = Some((out.best, out.score));
        s.reducing = true;
        s.clock = Clock::new(&Limits::default(), Instant::now());
        assert!(s.verify(&p, out.best));
        assert!(!s.verify(&p, p.parse_turn("b8-c7").unwrap()), "the trap");
        // Another turn passes exactly when its full-width value is within the margin.
        let other = s
            .root_moves
            .iter()
            .map(|m| m.0)
            .find(|t| *t != out.best)
            .unwrap();
        let mut child = p;
        child.play_unchecked(&other);
        s.reducing = false;
        let v = s.search(&child, VERIFIED_FROM - 1, 1, -INF, INF);
        s.reducing = true;
        s.safe = Some((out.best, v + VERIFY_MARGIN));
        assert!(s.verify(&p, other));
        s.safe = Some((out.best, v + VERIFY_MARGIN + 1));
        assert!(!s.verify(&p, other));
        assert!(s.tt_cutoffs && s.reducing, "restored after checking");
        // Outside the verified form every turn passes.
        s.reductions = Reductions::Late;
        s.safe = None;
        assert!(s.verify(&p, p.parse_turn("b8-c7").unwrap()));
    }
}
