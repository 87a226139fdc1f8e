//! Every root turn ranked: the search behind the puzzles (`crate::puzzle`). Where
//! [`Searcher::think`] looks for one good turn among representative placements, this searches
//! **every** legal turn of the player to move (every placement included) at each depth of an
//! iterative deepening, with the same Paranoid search below the root, and keeps the exact values
//! of the two best: enough to say whether one turn is clearly better than all the others.
//!
//! Each root turn after the first two is searched with the second-best value as alpha: a turn
//! that cannot beat it fails low cheaply (one refutation per opponent's node), and one that
//! beats it gets its exact value. Root turns are tried in the order of their one-ply scores, then
//! of the previous iteration's (stable sorts; no random tie-break), so a ranking depends only on
//! the position, the depth and the node budget.

use std::time::Instant;

use djambi_core::{Position, Turn};

use crate::search::searcher::{INF, MAX_DEPTH, Searcher};
use crate::time::Limits;

/// The two best root turns of one completed iteration, with their exact values (the root
/// player's scores, [`crate::eval`]'s scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ranked {
    /// The iteration's depth, in plies (the root turn included).
    pub depth: u32,
    /// The best turn and its value (the first found among equals).
    pub best: (Turn, i32),
    /// The runner-up and its value: equal to the best's value when two turns tie.
    pub second: (Turn, i32),
}

/// A ranking in progress: the root turns in their current order and the iterations done.
pub(crate) struct RootRanking {
    moves: Vec<(Turn, i32)>,
    /// One [`Ranked`] per completed iteration, shallowest first.
    pub ranks: Vec<Ranked>,
}

impl Searcher {
    /// Starts ranking the root turns of `pos` within `limits` (for the whole ranking: a node
    /// budget makes it repeatable). `None` when the game is over or the player to move has
    /// fewer than two legal turns. Deepen it with [`Searcher::rank_deeper`], with no other
    /// search on this searcher in between.
    pub(crate) fn rank_start(&mut self, pos: &Position, limits: &Limits) -> Option<RootRanking> {
        let root = pos.to_move()?;
        self.begin(root, limits, Instant::now());
        let mut moves: Vec<(Turn, i32)> = pos
            .legal_turns()
            .into_iter()
            .map(|t| (t, self.one_ply(pos, &t)))
            .collect();
        if moves.len() < 2 {
            return None;
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        Some(RootRanking {
            moves,
            ranks: Vec::new(),
        })
    }

    /// Searches the next depth of `ranking` (of `pos`); `false` when the budget ran out first
    /// (or the deepest depth was reached), and then the ranking gains nothing.
    pub(crate) fn rank_deeper(&mut self, pos: &Position, ranking: &mut RootRanking) -> bool {
        let depth = ranking.ranks.len() as u32 + 1;
        if depth > MAX_DEPTH as u32 {
            return false;
        }
        let Some(ranked) = self.rank_iteration(pos, depth, &mut ranking.moves) else {
            return false;
        };
        ranking.ranks.push(ranked);
        ranking.moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        true
    }

    /// One iteration over every root turn; `None` when the budget ran out before its end.
    /// Each entry's score becomes its value (exact for the two best, an upper bound for the
    /// others).
    fn rank_iteration(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &mut [(Turn, i32)],
    ) -> Option<Ranked> {
        let mut best: Option<(Turn, i32)> = None;
        let mut second: Option<(Turn, i32)> = None;
        for entry in moves.iter_mut() {
            self.nodes += 1;
            let mut child = *pos;
            child.play_unchecked(&entry.0);
            let alpha = second.map_or(-INF, |s| s.1);
            let s = self.search(&child, depth as i32 - 1, 1, alpha, INF);
            if self.clock.stopped() {
                return None;
            }
            entry.1 = s;
            match best {
                None => best = Some((entry.0, s)),
                Some(b) if s > b.1 => {
                    second = best;
                    best = Some((entry.0, s));
                }
                Some(_) if second.is_none_or(|x| s > x.1) => second = Some((entry.0, s)),
                Some(_) => {}
            }
        }
        Some(Ranked {
            depth,
            best: best?,
            second: second?,
        })
    }
}
