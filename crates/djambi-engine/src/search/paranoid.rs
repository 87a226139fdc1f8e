//! The Paranoid search (Sturtevant & Korf 2000): the root player maximises its score and every
//! other player is assumed to minimise it, which turns the four-player game into a two-sided one
//! where alpha-beta pruning applies. The real turn order of the rules is followed (bonus turns of
//! the ruler included, R8.3–R8.5), so a node is a max node exactly when the root player is to
//! move. Scores are from the root player's point of view (see [`crate::eval`]).
//!
//! Leaves go through a quiescence search over kills, so the evaluation is not taken in the
//! middle of an exchange (a chief about to be taken looks as lost as it is).

use djambi_core::{Controller, Move, Player, Position, Role, Turn};

use crate::eval::{self, WIN, WIN_THRESHOLD};
use crate::search::ordering::{is_quiet, pick_next};
use crate::search::placement::{PlaceCtx, reduce_if, victim};
use crate::search::{Reductions, Searcher, Style};
use crate::tt::Bound;
use crate::zobrist::hash;

/// Larger than any score.
pub(crate) const INF: i32 = WIN + 10_000;

/// Plies of kills the quiescence search follows at most.
pub(crate) const QDEPTH: usize = 4;

/// Placements kept per group inside the tree.
pub(crate) const PER_GROUP: usize = 3;

/// Late-move reductions: from this depth on, a quiet turn ordered at [`LMR_FROM`] or later is
/// first searched one ply shallower, and again at full depth only if it would change the
/// window.
const LMR_DEPTH: i32 = 3;

/// The first turn (in order) that may be reduced.
const LMR_FROM: usize = 3;

impl Searcher {
    /// The Paranoid value of `pos` searched `depth` plies deep, `ply` plies below the root, in
    /// the window `(alpha, beta)` (fail-soft). Returns 0 when stopped (the caller checks).
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.node(pos, depth, ply, alpha, beta, false)
    }

    /// [`Searcher::search`]'s node. In [`Style::BestReply`], `branched` says whether an
    /// opponent has already branched since the root player's last turn (BRS+).
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        branched: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.should_stop(self.nodes) {
            return 0;
        }
        let Some(mover) = pos.to_move() else {
            return eval::terminal_with(pos, self.root, ply, &self.weights);
        };
        if !pos.is_alive(self.root) {
            return -WIN + ply as i32;
        }
        if depth <= 0 || ply + self.width.qdepth + 2 >= self.max_ply {
            return self.qsearch(pos, ply, alpha, beta, self.width.qdepth);
        }
        let maximizing = mover == self.root;
        if self.style == Style::BestReply && !maximizing && branched {
            return self.forced(pos, depth, ply, alpha, beta);
        }
        let key = hash(pos, self.root);
        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && self.tt_cutoffs
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
        if self.style == Style::BestReply && !maximizing {
            // BRS+: this opponent may leave the branching to a later one and play its first
            // ordered turn (its first `opponent_keep`, `hard-opps`), costing no depth.
            best = self.first_turns(pos, &mut list, depth, ply, alpha, beta, false);
            if self.clock.stopped() {
                self.moves[ply] = list;
                return 0;
            }
            beta = beta.min(best);
        }
        for i in 0..list.len() {
            if alpha >= beta {
                break;
            }
            pick_next(&mut list, i);
            let t = list[i].0;
            let mut child = *pos;
            child.play_unchecked(&t);
            let mut s;
            if self.reduces(pos, depth, i, list[i]) {
                s = self.node(&child, depth - 2, ply + 1, alpha, beta, !maximizing);
                let changes = if maximizing { s > alpha } else { s < beta };
                if changes && !self.clock.stopped() {
                    s = self.node(&child, depth - 1, ply + 1, alpha, beta, !maximizing);
                }
            } else {
                s = self.node(&child, depth - 1, ply + 1, alpha, beta, !maximizing);
            }
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

    /// Whether the `i`-th turn in order at a node of `depth` of `pos` is searched one ply
    /// shallower first (Paranoid only): a late quiet turn that sets down no piece. Kills, maze
    /// moves, the table's turn, killers and every placement (a Diplomat's drop next to a Chief
    /// is the opening trap) keep their full depth; in [`Reductions::Guarded`], so do the turns
    /// that bear on the searching player's chief ([`bears_on_chief`]).
    pub(crate) fn reduces(
        &self,
        pos: &Position,
        depth: i32,
        i: usize,
        (t, score): (Turn, i32),
    ) -> bool {
        if self.reductions == Reductions::Off
            || !self.reducing
            || self.style != Style::Paranoid
            || depth < LMR_DEPTH
            || i < LMR_FROM
            || !is_quiet(score)
        {
            return false;
        }
        let Some(m) = t.as_move().filter(|m| m.place.is_none()) else {
            return false;
        };
        self.reductions != Reductions::Guarded || !bears_on_chief(pos, self.root, m)
    }

    /// BRS+'s non-branching opponent: plays its first ordered turn (the least of its first
    /// `opponent_keep` for the searching player, `hard-opps`), at no cost in depth.
    fn forced(&mut self, pos: &Position, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let mut list = std::mem::take(&mut self.moves[ply]);
        self.generate(pos, ply, None, false, &mut list);
        if list.is_empty() {
            self.moves[ply] = list;
            return self.qsearch(pos, ply, alpha, beta, self.width.qdepth);
        }
        let best = self.first_turns(pos, &mut list, depth, ply, alpha, beta, true);
        self.moves[ply] = list;
        if self.clock.stopped() { 0 } else { best }
    }

    /// The least value, for the searching player, of the first `opponent_keep` ordered turns of
    /// `list` (an opponent's, at `pos`), each searched at the same `depth` with `branched` for
    /// the turns below; [`INF`] for an empty list. Stops at a cutoff or when the clock stops
    /// the search (the caller checks).
    #[allow(clippy::too_many_arguments)]
    fn first_turns(
        &mut self,
        pos: &Position,
        list: &mut [(Turn, i32)],
        depth: i32,
        ply: usize,
        alpha: i32,
        mut beta: i32,
        branched: bool,
    ) -> i32 {
        let mut best = INF;
        for k in 0..self.opponent_keep.min(list.len()) {
            pick_next(list, k);
            let mut child = *pos;
            child.play_unchecked(&list[k].0);
            let s = self.node(&child, depth, ply + 1, alpha, beta, branched);
            if self.clock.stopped() {
                break;
            }
            best = best.min(s);
            beta = beta.min(s);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Quiescence: the side to move may stand pat (take the static evaluation) or play a kill
    /// (one representative placement each), for `qdepth` more plies.
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
            return eval::terminal_with(pos, self.root, ply, &self.weights);
        };
        if !pos.is_alive(self.root) {
            return -WIN + ply as i32;
        }
        let stand = eval::share_with(pos, self.root, &self.weights);
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
    /// turns with representative placements (kills only, one placement each, in quiescence).
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
        // `hard-old`: placements chosen for nobody in particular, as before issue 24.
        let ctx = PlaceCtx::new(pos, (!self.old_placements).then_some(self.root));
        let per_group = if kills_only {
            self.width.kill_placements
        } else {
            self.width.placements
        };
        let ordering = &self.ordering;
        // `hard-q`: an opponent's kills only of the searching player's pieces and chiefs.
        let root = self.root;
        let only_root = kills_only && self.paranoid_kills && pos.to_move() != Some(root);
        let wanted = |t: &Turn| {
            !kills_only
                || victim(pos, t).is_some_and(|v| {
                    !only_root
                        || v.role == Role::Chief
                        || pos.control(v.army) == Controller::Player(root)
                })
        };
        reduce_if(pos, &ctx, &raw, per_group, wanted, |t| {
            out.push((t, ordering.score(pos, ply, &t, tt_move)));
        });
        self.raw[ply] = raw;
    }
}

/// A score as stored in the table: forced wins and losses relative to the node, not the root.
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// Whether the move `m` of the player to move in `pos` bears on `root`'s chief, so that
/// [`Reductions::Guarded`] keeps its full depth: the chief itself moving, or another player's
/// piece ending within two squares of it (a Militant's reach, a Diplomat's or Necromobile's
/// work) or, for a piece of unlimited range (Assassin, Reporter, Chief), on one of its lines.
/// A reduced opponent's ply is one ply short of seeing the attack such a turn prepares.
pub(crate) fn bears_on_chief(pos: &Position, root: Player, m: &Move) -> bool {
    let Some(chief) = pos.board().chief(root) else {
        return false;
    };
    if m.from == chief {
        return true;
    }
    if pos.to_move() == Some(root) {
        return false;
    }
    let (df, dr) = (
        m.to.file().abs_diff(chief.file()),
        m.to.rank().abs_diff(chief.rank()),
    );
    if df.max(dr) <= 2 {
        return true;
    }
    let long = matches!(
        pos.board()[m.from].role(),
        Some(Role::Assassin | Role::Reporter | Role::Chief)
    );
    long && m.to.line_to(chief).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    /// The arena's `hard-q` (issue 24): in its quiescence search an opponent of the searching
    /// player (red) kills only red's pieces and chiefs; red kills anything, and so does an
    /// opponent anywhere in the tree and in `hard`'s quiescence search.
    #[test]
    fn paranoid_kills_leave_out_the_kills_among_opponents() {
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
        let mut s = Searcher::new(1 << 16);
        s.root = Player::Red;
        let all = ["b4", "c5", "d3", "d5"];
        assert_eq!(victims(&mut s, true), all);
        s.paranoid_kills = true;
        assert_eq!(victims(&mut s, true), ["c5", "d5"]);
        assert_eq!(victims(&mut s, false), all, "the tree keeps every kill");
        s.root = Player::Blue;
        assert_eq!(
            victims(&mut s, true),
            all,
            "the searching player kills anything"
        );
    }
}
