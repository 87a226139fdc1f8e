//! Best-Reply Search beyond the fourth ply: the arena's `hard-brs` (issue 24; measured).
//!
//! Four times the nodes buy `hard` little (docs/STRENGTH.md, "The fifth ply"): a fifth Paranoid
//! ply costs about fifty times the fourth, because three minimising opponents follow the
//! searching player's second turn, each with all its turns and kills. Deeper Paranoid searches
//! reached by other means (late-move reductions, fewer kills in the quiescence search) did not
//! play better either. `hard-brs` keeps `hard`'s full-width Paranoid search up to the fourth ply
//! (every opponent answering once: what keeps it out of the two-opponent traps) and spends
//! what is left of its budget on a less paranoid model: Best-Reply Search+ (Schadd & Winands
//! 2011; Esser et al. 2013), where between two of the searching player's turns one opponent
//! branches and the others play their first ordered turn, so that a ply of depth is one
//! opponent's branching rather than three. A Best-Reply iteration's turn is played only if the
//! full-width Paranoid search of four plies finds it at most [`super::VERIFY_MARGIN`] below the
//! Paranoid best ([`Searcher::verify`]).
//!
//! The arena's `hard-opps` is `hard-brs` whose non-branching opponents try their first two
//! ordered turns rather than one ([`Searcher::opponent_keep`](super::Searcher), after Baier &
//! Kaisers' Opponent-Pruning Paranoid Search, 2020): a little more paranoid than BRS+, far less
//! than the full width.
//!
//! The two searches keep apart in the transposition table: the Best-Reply entries live under
//! another salt ([`BRS_SALT`]), so neither cuts off on the other's values.

use djambi_core::{Position, Turn};

use super::{MAX_DEPTH, Outcome, Searcher, Style};

/// XORed into the table's salt while the Best-Reply iterations search.
const BRS_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The first Best-Reply iteration: three plies (the searching player, one opponent branching,
/// the searching player again) reach its next turn, which the Paranoid fourth ply does not.
/// Shallower ones would only repeat what the Paranoid search knows.
pub(crate) const BRS_FROM: i32 = 3;

impl Searcher {
    /// After a completed Paranoid iteration `paranoid` of depth four: Best-Reply iterations
    /// from [`BRS_FROM`] plies on while the limits allow, each over `root_moves` in the order
    /// the last one left them. Returns the last Best-Reply iteration's turn that passed the
    /// Paranoid check (its `depth` the Best-Reply depth, its score the Paranoid one), or
    /// `paranoid` when none did.
    pub(crate) fn best_reply_beyond(
        &mut self,
        pos: &Position,
        paranoid: Outcome,
        root_moves: &mut [(Turn, i32)],
    ) -> Outcome {
        self.arm_check(&paranoid);
        self.best_reply_phase(true);
        let mut best = paranoid.clone();
        for depth in BRS_FROM..=MAX_DEPTH {
            if !self.clock.may_start_iteration(self.nodes) {
                break;
            }
            let (iteration, complete) = self.root_iteration(pos, depth, root_moves);
            if let Some((t, _)) = iteration {
                best = Outcome {
                    best: t,
                    score: paranoid.score,
                    depth: if complete { depth as u32 } else { best.depth },
                };
            }
            if !complete {
                break;
            }
            root_moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        }
        self.best_reply_phase(false);
        self.disarm_check();
        best
    }

    /// Enters (`on`) or leaves the Best-Reply phase: the search's style and the table's salt.
    pub(crate) fn best_reply_phase(&mut self, on: bool) {
        self.style = if on {
            Style::BestReply
        } else {
            Style::Paranoid
        };
        self.tt.new_search(self.tt.salt() ^ BRS_SALT);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::verify::{searched_after_referee_opening, think_after_referee_opening};
    use super::super::{MAX_DEPTH, Searcher, Style, VERIFIED_FROM};
    use crate::time::{Clock, Limits};

    /// `hard-brs` after the outside referee's opening ([`super::super::verify::referee_opening`],
    /// where red's `b8-c7` loses its chief to two opponents): the Best-Reply
    /// iterations run once the fourth ply is complete (and here choose another turn), the turn
    /// played passes the Paranoid check
    /// against `hard`'s own depth-4 best, the search leaves the Paranoid style and its table as
    /// it found them, and the same budget and seed give the same turn.
    #[test]
    fn a_best_reply_turn_must_pass_the_paranoid_fourth_ply() {
        let p = super::super::verify::referee_opening();
        let think = |brs: bool, max_depth: i32| {
            searched_after_referee_opening(|s| s.brs_beyond = brs, 400_000, max_depth)
        };
        let (_, paranoid) = think(false, VERIFIED_FROM);
        assert_eq!(paranoid.depth, VERIFIED_FROM as u32);
        let (mut s, out) = think(true, MAX_DEPTH);
        let (_, again) = think(true, MAX_DEPTH);
        assert_eq!((out.best, out.depth), (again.best, again.depth));
        assert_eq!(s.style, Style::Paranoid);
        assert!(s.safe.is_none());
        assert_ne!(out.best, p.parse_turn("b8-c7").unwrap());
        // Here the Best-Reply iterations chose another turn than the Paranoid fourth ply's.
        assert_ne!(out.best, paranoid.best);
        s.safe = Some((paranoid.best, paranoid.score));
        s.reducing = true;
        s.clock = Clock::new(&Limits::default(), Instant::now());
        assert!(s.verify(&p, out.best));
    }

    /// `hard-opps`: a non-branching opponent that tries its first two ordered turns instead of
    /// one searches more of the same Best-Reply depth (three plies from the referee's opening,
    /// no budget), answers legally, and repeats itself; BRS+ itself (one turn) is unchanged.
    #[test]
    fn a_non_branching_opponent_may_try_more_than_one_turn() {
        let p = super::super::verify::referee_opening();
        let search = |keep: usize| {
            let mut s = Searcher::new(1 << 22);
            s.style = Style::BestReply;
            s.opponent_keep = keep;
            let out = think_after_referee_opening(&mut s, &Limits::default(), 3);
            (s.nodes, out.best, out.depth)
        };
        let (one, t1, d1) = search(1);
        let (two, t2, d2) = search(2);
        assert_eq!((d1, d2), (3, 3));
        assert!(p.is_legal(&t1) && p.is_legal(&t2));
        assert!(two > one, "{one} {two}");
        assert_eq!(search(2), (two, t2, d2));
        assert_eq!(search(1), (one, t1, d1));
    }
}
