//! Iterative deepening over the Paranoid search (`paranoid.rs`): the root's turns, one
//! iteration per depth, the hook between iterations (`hook.rs`), the value of a position for
//! any player, and the expected line read back from the table.

use std::time::Instant;

use djambi_core::{Player, Position, Turn};

use crate::eval::{self, WIN_THRESHOLD};
use crate::rng::Rng;
use crate::search::hook::{Iteration, IterationHook, Next};
use crate::search::placement::{PER_GROUP, PlaceCtx, reduce};
use crate::search::searcher::{INF, MAX_DEPTH, Outcome, Searcher};
use crate::time::Limits;
use crate::tt::{Bound, to_tt};
use crate::zobrist::hash;

impl Searcher {
    /// Iterative deepening from `pos` (a game in progress) for the player to move, within
    /// `limits` and at most `max_depth` plies, `hook` (if any) called after each completed
    /// iteration. The first pass (every root turn played and evaluated) always completes, so
    /// even a 1 ms search has a sensible answer.
    pub(crate) fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        max_depth: i32,
        start: Instant,
        rng: &mut Rng,
        mut hook: Option<&mut dyn IterationHook>,
    ) -> Option<Outcome> {
        let root = pos.to_move()?;
        self.begin(root, limits, start);
        let mut root_moves = std::mem::take(&mut self.root_moves);
        self.root_list(pos, rng, &mut root_moves);
        let mut best = Outcome {
            best: root_moves[0].0,
            score: root_moves[0].1,
            depth: 0,
        };
        if root_moves.len() > 1 {
            for depth in 1..=max_depth.min(MAX_DEPTH) {
                if depth > 1 && !self.clock.may_start_iteration(self.nodes) {
                    break;
                }
                let (iteration, complete) = self.root_iteration(pos, depth, &mut root_moves);
                if let Some((t, s)) = iteration {
                    best = Outcome {
                        best: t,
                        score: s,
                        depth: if complete { depth as u32 } else { best.depth },
                    };
                }
                if !complete || best.score.abs() >= WIN_THRESHOLD {
                    break;
                }
                // Stable: equal scores keep the previous (seeded) order.
                root_moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                if let Some(hook) = hook.as_deref_mut() {
                    let seen = Iteration {
                        depth: depth as u32,
                        best: (best.best, best.score),
                        root_turns: &root_moves,
                        nodes: self.nodes,
                        used: self.clock.used(self.nodes),
                        may_deepen: self.clock.may_start_iteration(self.nodes),
                    };
                    match hook.after_iteration(pos, &seen) {
                        Next::Deepen => {}
                        Next::Stop => break,
                        Next::Play(t) => {
                            if root_moves.iter().any(|m| m.0 == t) {
                                best.best = t;
                            }
                            break;
                        }
                    }
                }
            }
        }
        self.root_moves = root_moves;
        Some(best)
    }

    /// One iteration at the root. Returns the best turn found and whether every root turn was
    /// searched. A stopped iteration still returns its best turn when at least the first turn
    /// (the previous iteration's best) was searched to the full depth: any turn that beat it
    /// did so at the new depth.
    fn root_iteration(
        &mut self,
        pos: &Position,
        depth: i32,
        root_moves: &mut [(Turn, i32)],
    ) -> (Option<(Turn, i32)>, bool) {
        let mut alpha = -INF;
        let mut best: Option<(Turn, i32)> = None;
        let key = hash(pos, self.root);
        for entry in root_moves.iter_mut() {
            self.nodes += 1;
            let mut child = *pos;
            child.play_unchecked(&entry.0);
            let s = self.search(&child, depth - 1, 1, alpha, INF);
            if self.clock.stopped() {
                return (best, false);
            }
            entry.1 = s;
            if best.is_none() || s > alpha {
                alpha = s;
                best = Some((entry.0, s));
            }
        }
        if let Some((t, s)) = best {
            self.tt
                .store(key, Some(t), to_tt(s, 0), depth as u8, Bound::Exact);
        }
        (best, true)
    }

    /// The root's turns: the legal turns with representative placements, plus for each group
    /// of placements the one that evaluates best after one ply (the root can afford to look at
    /// every placement once). Ordered by that one-ply score, ties in seeded random order.
    fn root_list(&mut self, pos: &Position, rng: &mut Rng, out: &mut Vec<(Turn, i32)>) {
        let mut raw = std::mem::take(&mut self.raw[0]);
        pos.legal_turns_into(&mut raw);
        out.clear();
        let ctx = PlaceCtx::new(pos, None);
        reduce(pos, &ctx, &raw, PER_GROUP, |t| out.push((t, 0)));
        // The best-scoring placement of each group, if the representatives missed it.
        let mut i = 0;
        while i < raw.len() {
            let mut j = i + 1;
            let same = |a: &Turn, b: &Turn| match (a.as_move(), b.as_move()) {
                (Some(x), Some(y)) => {
                    x.place.is_some()
                        && y.place.is_some()
                        && (x.from, x.to, x.victim, x.exit) == (y.from, y.to, y.victim, y.exit)
                }
                _ => false,
            };
            while j < raw.len() && same(&raw[i], &raw[j]) {
                j += 1;
            }
            if j - i > PER_GROUP {
                let mut top: Option<(Turn, i32)> = None;
                for t in &raw[i..j] {
                    let s = self.one_ply(pos, t);
                    if top.is_none_or(|(_, b)| s > b) {
                        top = Some((*t, s));
                    }
                }
                if let Some((t, _)) = top
                    && !out.iter().any(|(u, _)| *u == t)
                {
                    out.push((t, 0));
                }
            }
            i = j;
        }
        self.raw[0] = raw;
        // Seeded shuffle, then a stable sort on the one-ply score.
        for k in (1..out.len()).rev() {
            let r = rng.below(k + 1);
            out.swap(k, r);
        }
        for entry in out.iter_mut() {
            entry.1 = self.one_ply(pos, &entry.0);
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
    }

    /// The root player's score of `t` played in `pos`, one node.
    pub(crate) fn one_ply(&mut self, pos: &Position, t: &Turn) -> i32 {
        self.nodes += 1;
        let mut child = *pos;
        child.play_unchecked(t);
        eval::terminal(&child, self.root, 1)
    }

    /// The value of `pos` for `player` (who need not be to move), searched within `limits`.
    pub(crate) fn value(&mut self, pos: &Position, player: Player, limits: &Limits) -> i32 {
        self.begin(player, limits, Instant::now());
        if pos.is_game_over() {
            return eval::terminal(pos, player, 0);
        }
        self.clock.disarm();
        let mut value = self.search(pos, 1, 0, -INF, INF);
        self.clock.arm();
        for depth in 2..=MAX_DEPTH {
            if !self.clock.may_start_iteration(self.nodes) {
                break;
            }
            let v = self.search(pos, depth, 0, -INF, INF);
            if self.clock.stopped() {
                break;
            }
            value = v;
        }
        value
    }

    /// The expected line from `pos`, read back from the table (each turn checked legal).
    pub(crate) fn pv(&self, pos: &Position, first: Turn, max: usize) -> Vec<Turn> {
        let mut line = vec![first];
        let mut p = *pos;
        p.play_unchecked(&first);
        while line.len() < max && !p.is_game_over() {
            let Some(t) = self.tt.probe(hash(&p, self.root)).and_then(|h| h.mv) else {
                break;
            };
            if !p.is_legal(&t) {
                break;
            }
            line.push(t);
            p.play_unchecked(&t);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::placement;

    fn think(s: &mut Searcher, p: &Position, nodes: u64, seed: u64) -> Outcome {
        s.think(
            p,
            &Limits::nodes(nodes),
            MAX_DEPTH,
            Instant::now(),
            &mut Rng::new(seed),
            None,
        )
        .unwrap()
    }

    /// An arena game against the outside referee's Max-N-2 players (seed 2000, game 86):
    /// yellow's `c6-b7@e1` lets green's Diplomat set yellow's Chief down on g4, in red's
    /// Assassin's line, and red kills it. The search sees it since the square in harm's way is
    /// kept among the opponents' placements (`placement.rs`).
    #[test]
    fn a_chief_set_down_in_harms_way_is_seen() {
        let p = placement::game_86();
        let trap = p.parse_turn("c6-b7@e1").unwrap();
        for seed in [1, 2] {
            let out = think(&mut Searcher::new(1 << 22), &p, 250_000, seed);
            assert_ne!(out.best, trap, "seed {seed}");
        }
    }

    /// A hook that records what it is shown and stops at the second iteration, or plays the
    /// last root turn there.
    struct Probe {
        seen: Vec<(u32, Turn, usize)>,
        play_last: bool,
    }

    impl IterationHook for Probe {
        fn after_iteration(&mut self, pos: &Position, it: &Iteration<'_>) -> Next {
            assert!(it.root_turns.iter().all(|(t, _)| pos.is_legal(t)));
            assert_eq!(it.root_turns[0].0, it.best.0, "best first");
            assert!(it.used > 0.0 && it.used <= 1.0 && it.nodes > 0);
            self.seen.push((it.depth, it.best.0, it.root_turns.len()));
            match (it.depth, self.play_last) {
                (2, false) => Next::Stop,
                (2, true) => Next::Play(it.root_turns[it.root_turns.len() - 1].0),
                _ => Next::Deepen,
            }
        }
    }

    /// The hook is called after each completed iteration, and what it answers is what the
    /// search does: stop at the depth it says, play the root turn it names; without a hook,
    /// the search goes on to its budget.
    #[test]
    fn the_hook_decides_after_each_iteration() {
        let p = Position::new();
        let run = |play_last: bool| {
            let mut s = Searcher::new(1 << 20);
            let mut probe = Probe {
                seen: Vec::new(),
                play_last,
            };
            let out = s
                .think(
                    &p,
                    &Limits::nodes(50_000),
                    MAX_DEPTH,
                    Instant::now(),
                    &mut Rng::new(3),
                    Some(&mut probe),
                )
                .unwrap();
            (out, probe.seen, s.nodes)
        };
        let (stopped, seen, nodes) = run(false);
        assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), [1, 2]);
        assert_eq!((stopped.depth, stopped.best), (2, seen[1].1));
        assert!(nodes < 50_000, "stopped early: {nodes}");
        let (played, seen, _) = run(true);
        assert_eq!(played.depth, 2);
        assert_ne!(played.best, seen[1].1, "the last root turn, not the best");
        assert!(p.is_legal(&played.best));
        let mut s = Searcher::new(1 << 20);
        let free = think(&mut s, &p, 50_000, 3);
        assert!(free.depth > 2 && s.nodes >= 50_000, "{free:?}");
    }
}
