//! The fourth ply searched wider: the arena's `hard-wide` (issue 24; measured).
//!
//! A fifth Paranoid ply costs about fifty times the fourth (docs/STRENGTH.md, "The fifth ply"),
//! so on the referee's clock `hard` completes the fourth ply and spends the rest of its time on a
//! fifth it rarely finishes for even one root turn. Deeper searches reached by other means did
//! not play better. `hard-wide` spends that time across instead of down: once the fourth ply is
//! complete and the limits leave no room for a fifth, it searches the same four plies again with
//! more representative placements per group in the tree and more kills, followed further, in the
//! quiescence search ([`Width::WIDE`]). Every turn the narrow search looks at is still looked at,
//! so the wider iteration only adds what the narrow one could not see: an opponent's placement
//! among the ones left out, a longer exchange of kills.
//!
//! The wider entries live under another table salt ([`WIDE_SALT`]): a narrow entry of the same
//! depth would otherwise cut the wider search off with the narrow value.

use djambi_core::{Position, Turn};

use super::paranoid::{PER_GROUP, QDEPTH};
use super::{Outcome, Searcher, VERIFIED_FROM};

/// XORed into the table's salt while the wider iteration searches.
const WIDE_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// How wide the search looks at each node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Width {
    /// Representative placements kept per group of turns in the tree.
    pub placements: usize,
    /// Representative placements kept per group of kills in the quiescence search.
    pub kill_placements: usize,
    /// Plies of kills the quiescence search follows at most.
    pub qdepth: usize,
}

impl Width {
    /// `hard`'s search.
    pub(crate) const NARROW: Width = Width {
        placements: PER_GROUP,
        kill_placements: 1,
        qdepth: QDEPTH,
    };

    /// `hard-wide`'s fourth ply searched again.
    pub(crate) const WIDE: Width = Width {
        placements: 6,
        kill_placements: 2,
        qdepth: QDEPTH + 2,
    };
}

impl Searcher {
    /// Whether, after a completed iteration of [`VERIFIED_FROM`] plies, `hard-wide` searches
    /// those plies again wider rather than starting a fifth: the limits leave less than a fifth
    /// ply is expected to cost.
    pub(crate) fn widens(&self, depth: i32) -> bool {
        self.wide_beyond && self.fourth_without_fifth(depth)
    }

    /// The completed iteration `narrow` of [`VERIFIED_FROM`] plies searched again at
    /// [`Width::WIDE`] over `root_moves` (in the order `narrow` left them): its best turn when at
    /// least its first turn (`narrow`'s best) was searched, else `narrow`.
    pub(crate) fn search_wider(
        &mut self,
        pos: &Position,
        narrow: Outcome,
        root_moves: &mut [(Turn, i32)],
    ) -> Outcome {
        let salt = self.tt.salt();
        self.tt.new_search(salt ^ WIDE_SALT);
        self.width = Width::WIDE;
        let (iteration, _) = self.root_iteration(pos, VERIFIED_FROM, root_moves);
        self.width = Width::NARROW;
        self.tt.new_search(salt);
        match iteration {
            Some((best, score)) => Outcome {
                best,
                score,
                depth: narrow.depth,
            },
            None => narrow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::verify::think_after_referee_opening;
    use super::super::{MAX_DEPTH, Searcher, VERIFIED_FROM};
    use super::Width;
    use crate::time::Limits;

    /// `hard-wide` after the outside referee's opening ([`super::super::verify::referee_opening`],
    /// where red's `b8-c7` loses its chief to two opponents): with a budget that leaves no room
    /// for a fifth ply, the completed fourth ply is searched again wider, which costs more nodes
    /// than the narrow fourth ply and fewer than the budget; the turn is not `b8-c7`; the search
    /// leaves its width and its table's salt as it found them; the same budget and seed give the
    /// same turn.
    #[test]
    fn the_fourth_ply_is_searched_again_wider_when_no_fifth_fits() {
        let p = super::super::verify::referee_opening();
        let think = |wide: bool, max_depth: i32| {
            let mut s = Searcher::new(1 << 22);
            s.wide_beyond = wide;
            let out = think_after_referee_opening(&mut s, &Limits::nodes(2_000_000), max_depth);
            assert_eq!(s.width, Width::NARROW);
            assert_eq!(s.tt.salt(), crate::rng::mix(s.searches));
            (s.nodes, out)
        };
        let (narrow_nodes, narrow) = think(false, VERIFIED_FROM);
        assert_eq!(narrow.depth, VERIFIED_FROM as u32);
        let (nodes, out) = think(true, MAX_DEPTH);
        let (again, same) = think(true, MAX_DEPTH);
        assert_eq!((nodes, out.best), (again, same.best));
        assert_eq!(out.depth, VERIFIED_FROM as u32);
        assert!(
            nodes > narrow_nodes && nodes < 2_000_000,
            "{narrow_nodes} {nodes}"
        );
        assert_ne!(out.best, p.parse_turn("b8-c7").unwrap());
    }
}
