//! The fifth ply started only where it fits: the arena's `hard-stop` (issue 24; measured, not
//! landed).
//!
//! A fifth Paranoid ply costs about fifty times the fourth ([`FIFTH_PLY_COST`]; docs/STRENGTH.md,
//! "The fifth ply"), so on the clock `hard` usually completes the fourth ply in a fraction of its
//! move time and spends the rest on a fifth it does not finish. A stopped iteration's turn is
//! still played when it beats the previous best at the new depth (`Searcher::root_iteration`).
//! `hard-stop` starts a fifth ply only where the limits leave room for what it is expected to
//! cost (simple positions and endings) and otherwise plays the fourth ply's best at once, in
//! about a third of `hard`'s time. Alone against three `hard` at the same move time it scored
//! 0.355 over its first 100 games and 0.233 (0.197 – 0.270) over 400: no stronger than `hard`,
//! and more time helps it no more than it helps `hard` (docs/STRENGTH.md, "The partial fifth
//! ply").

use super::{Searcher, VERIFIED_FROM};

/// How many times the nodes used so far a fifth ply is expected to cost at least: when the
/// limits leave less, `hard-stop` does not start it, and `hard-wide` and `hard-mcts`
/// spend the rest otherwise.
pub(crate) const FIFTH_PLY_COST: f64 = 50.0;

impl Searcher {
    /// Whether the limits leave less than a fifth ply is expected to cost ([`FIFTH_PLY_COST`]
    /// times the nodes used so far), but still room to search.
    pub(crate) fn no_fifth_fits(&self) -> bool {
        self.clock.used(self.nodes) * FIFTH_PLY_COST >= 1.0
            && self.clock.may_start_iteration(self.nodes)
    }

    /// Whether the completed iteration of `depth` plies is the fourth and no fifth fits the
    /// limits: where `hard-stop` stops and `hard-wide` and `hard-mcts` spend the rest otherwise.
    pub(crate) fn fourth_without_fifth(&self, depth: i32) -> bool {
        depth == VERIFIED_FROM && self.no_fifth_fits()
    }

    /// Whether iterative deepening stops after the completed iteration of `depth` plies:
    /// `hard-stop` ([`Searcher::stop_at_fourth`]) after [`VERIFIED_FROM`] plies when a fifth
    /// would not fit the limits. Without room left to search at all, no iteration is started
    /// anyway.
    pub(crate) fn stops_after(&self, depth: i32) -> bool {
        self.stop_at_fourth && self.fourth_without_fifth(depth)
    }
}

#[cfg(test)]
mod tests {
    use djambi_core::{Position, Rules};

    use super::super::verify::{referee_opening, searched_after_referee_opening};
    use super::super::{MAX_DEPTH, Searcher, VERIFIED_FROM};
    use crate::time::Limits;

    /// After the outside referee's opening (`verify::referee_opening`, where red's `b8-c7`
    /// loses its chief to two opponents), 2 000 000 nodes complete the fourth ply and leave less
    /// than a fifth costs: `hard-stop` stops there, exactly where a search capped at four plies stops
    /// (same nodes, same turn, not `b8-c7`), and the same budget and seed give the same turn;
    /// `hard` goes on into the fifth ply and spends the budget.
    #[test]
    fn the_fifth_ply_is_not_started_where_it_does_not_fit() {
        const NODES: u64 = 2_000_000;
        let stop = |s: &mut Searcher| s.stop_at_fourth = true;
        let (capped, four) = searched_after_referee_opening(|_| {}, NODES, VERIFIED_FROM);
        assert_eq!(four.depth, VERIFIED_FROM as u32);
        let (s, out) = searched_after_referee_opening(stop, NODES, MAX_DEPTH);
        let (again, same) = searched_after_referee_opening(stop, NODES, MAX_DEPTH);
        assert_eq!(out.depth, VERIFIED_FROM as u32);
        assert_eq!((s.nodes, out.best), (capped.nodes, four.best));
        assert_eq!((again.nodes, same.best), (s.nodes, out.best));
        assert_ne!(out.best, referee_opening().parse_turn("b8-c7").unwrap());
        assert!(s.nodes * 50 >= NODES, "no fifth fits: {}", s.nodes);
        let (fifth, _) = searched_after_referee_opening(|_| {}, NODES, MAX_DEPTH);
        assert!(fifth.nodes >= NODES, "{}", fifth.nodes);
    }

    /// Where a fifth ply fits the limits (an ending of a few pieces, whose fourth ply costs a
    /// small part of the budget), `hard-stop` goes deeper than the fourth ply as `hard` does.
    #[test]
    fn the_fifth_ply_is_searched_where_it_fits() {
        let p = Position::from_dpn(
            "Cb2Mb5/9/Mb8/9/9/9/8Mr/9/4Mr2Cr1 r rb-- - 0 - 0 3",
            Rules::default(),
        )
        .unwrap();
        let mut s = Searcher::new(1 << 22);
        s.stop_at_fourth = true;
        let out = s
            .think(
                &p,
                &Limits::nodes(2_000_000),
                MAX_DEPTH,
                std::time::Instant::now(),
                &mut crate::rng::Rng::new(1),
            )
            .unwrap();
        assert!(out.score.abs() < crate::eval::WIN_THRESHOLD, "not decided");
        assert!(out.depth > VERIFIED_FROM as u32, "depth {}", out.depth);
    }
}
