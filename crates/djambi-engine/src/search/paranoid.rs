//! The Paranoid search (Sturtevant & Korf 2000): the root player maximises its score and every
//! other player is assumed to minimise it, which turns the four-player game into a two-sided one
//! where alpha-beta pruning applies. The real turn order of the rules is followed (bonus turns of
//! the ruler included, R8.3–R8.5), so a node is a max node exactly when the root player is to
//! move. Scores are from the root player's point of view (see [`crate::eval`]).
//!
//! Leaves go through a quiescence search over kills, so the evaluation is not taken in the
//! middle of an exchange (a chief about to be taken looks as lost as it is).

use djambi_core::{Position, Turn};

use crate::eval::{self, WIN};
use crate::search::ordering::pick_next;
use crate::search::placement::{PER_GROUP, PlaceCtx, reduce_if, victim};
use crate::search::searcher::{INF, MAX_PLY, QDEPTH, Searcher};
use crate::tt::{Bound, from_tt, to_tt};
use crate::zobrist::hash;

impl Searcher {
    /// The Paranoid value of `pos` searched `depth` plies deep, `ply` plies below the root, in
    /// the window `(alpha, beta)` (fail-soft). Returns 0 when stopped (the caller checks).
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.should_stop(self.nodes) {
            return 0;
        }
        let Some(mover) = pos.to_move() else {
            return eval::terminal(pos, self.root, ply);
        };
        if !pos.is_alive(self.root) {
            return -WIN + ply as i32;
        }
        if depth <= 0 || ply + QDEPTH + 2 >= MAX_PLY {
            return self.qsearch(pos, ply, alpha, beta, QDEPTH);
        }
        let maximizing = mover == self.root;
        let key = hash(pos, self.root);
        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && i32::from(h.depth) >= depth
        {
            let s = from_tt(h.score, ply);
            match h.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let tt_move = hit.and_then(|h| h.mv);
        let mut list = std::mem::take(&mut self.moves[ply]);
        self.generate(pos, ply, tt_move, false, &mut list);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = None;
        for i in 0..list.len() {
            if alpha >= beta {
                break;
            }
            pick_next(&mut list, i);
            let t = list[i].0;
            let mut child = *pos;
            child.play_unchecked(&t);
            let s = self.search(&child, depth - 1, ply + 1, alpha, beta);
            if self.clock.stopped() {
                self.moves[ply] = list;
                return 0;
            }
            if maximizing {
                if s > best {
                    best = s;
                    best_move = Some(t);
                    alpha = alpha.max(s);
                }
            } else if s < best {
                best = s;
                best_move = Some(t);
                beta = beta.min(s);
            }
            if alpha >= beta {
                self.ordering.cutoff(pos, ply, t, depth);
                break;
            }
        }
        self.moves[ply] = list;
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth.min(63) as u8, bound);
        best
    }

    /// Quiescence: the side to move may stand pat (take the static evaluation) or play a kill
    /// (one representative placement each), for `qdepth` more plies. Every player's kills count,
    /// the opponents' kills among themselves too.
    fn qsearch(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        qdepth: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.should_stop(self.nodes) {
            return 0;
        }
        let Some(mover) = pos.to_move() else {
            return eval::terminal(pos, self.root, ply);
        };
        if !pos.is_alive(self.root) {
            return -WIN + ply as i32;
        }
        let stand = eval::share(pos, self.root);
        let maximizing = mover == self.root;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        if qdepth == 0 {
            return stand;
        }
        let mut list = std::mem::take(&mut self.moves[ply]);
        self.generate(pos, ply, None, true, &mut list);
        let mut best = stand;
        for i in 0..list.len() {
            pick_next(&mut list, i);
            let t = list[i].0;
            let mut child = *pos;
            child.play_unchecked(&t);
            let s = self.qsearch(&child, ply + 1, alpha, beta, qdepth - 1);
            if self.clock.stopped() {
                self.moves[ply] = list;
                return 0;
            }
            if maximizing {
                if s > best {
                    best = s;
                    alpha = alpha.max(s);
                }
            } else if s < best {
                best = s;
                beta = beta.min(s);
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[ply] = list;
        best
    }

    /// Fills `out` with the turns to search at this node and their ordering scores: the legal
    /// turns with representative placements for the searching player ([`PER_GROUP`] per group;
    /// kills only, one placement each, in quiescence).
    pub(crate) fn generate(
        &mut self,
        pos: &Position,
        ply: usize,
        tt_move: Option<Turn>,
        kills_only: bool,
        out: &mut Vec<(Turn, i32)>,
    ) {
        let mut raw = std::mem::take(&mut self.raw[ply]);
        pos.legal_turns_into(&mut raw);
        out.clear();
        let ctx = PlaceCtx::new(pos, Some(self.root));
        let per_group = if kills_only { 1 } else { PER_GROUP };
        let ordering = &self.ordering;
        let wanted = |t: &Turn| !kills_only || victim(pos, t).is_some();
        reduce_if(pos, &ctx, &raw, per_group, wanted, |t| {
            out.push((t, ordering.score(pos, ply, &t, tt_move)));
        });
        self.raw[ply] = raw;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Player, Rules};

    /// Every kill is searched: in the tree and in the quiescence search, an opponent's kills of
    /// the other opponents' pieces as much as of the searching player's.
    #[test]
    fn every_kill_is_searched() {
        // Blue's Militant on c4 can kill red's Militant (c5), yellow's Chief (d5), yellow's
        // Militant (b4) and green's Militant (d3).
        let p = Position::from_dpn(
            "8Cb/9/9/9/2MrCy5/1MyMb6/3Mg5/9/Cr7Cg b rbyg r 0 - 0 2",
            Rules::default(),
        )
        .unwrap();
        let victims = |s: &mut Searcher, kills_only: bool| {
            let mut out = Vec::new();
            s.generate(&p, 0, None, kills_only, &mut out);
            let mut v: Vec<String> = out
                .iter()
                .filter(|(t, _)| victim(&p, t).is_some())
                .filter_map(|(t, _)| t.as_move())
                .filter(|m| m.from.to_string() == "c4")
                .map(|m| m.to.to_string())
                .collect();
            v.sort();
            v.dedup(); // the tree keeps several placements of each corpse
            v
        };
        let all = ["b4", "c5", "d3", "d5"];
        for root in [Player::Red, Player::Blue] {
            let mut s = Searcher::new(1 << 16);
            s.root = root;
            assert_eq!(victims(&mut s, true), all, "{root:?}'s quiescence");
            assert_eq!(victims(&mut s, false), all, "{root:?}'s tree");
        }
    }
}
