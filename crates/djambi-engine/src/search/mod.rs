//! The search: iterative deepening over the Paranoid alpha-beta search (`paranoid.rs`), with a
//! transposition table, move ordering (`ordering.rs`) and representative placements
//! (`placement.rs`); plus the Max-N-2 material baseline (`maxn.rs`) and the one-ply players of
//! the low levels (`greedy.rs`: `random` and `easy`; `beginner.rs`); and the ranking of every
//! root turn that verifies puzzles (`rank.rs`).
//!
//! Every buffer is allocated when the searcher is made and reused: one list of legal turns and
//! one list of scored turns per ply, so a search allocates nothing per node.

pub mod beginner;
pub(crate) mod beyond;
mod fifth;
pub mod greedy;
pub mod maxn;
pub mod mcts;
mod mcts_beyond;
pub(crate) mod ordering;
pub(crate) mod paranoid;
pub(crate) mod placement;
pub(crate) mod rank;
pub mod referee;
mod verify;
mod wide;

use std::time::Instant;

use djambi_core::{Player, Position, Turn};

use crate::eval::{self, WIN_THRESHOLD};
use crate::rng::Rng;
use crate::time::{Clock, Limits};
use crate::tt::Tt;
use crate::zobrist::hash;
use ordering::Ordering;
use paranoid::{INF, PER_GROUP};
use placement::{PlaceCtx, reduce};
use wide::Width;

/// The deepest iteration iterative deepening starts.
pub const MAX_DEPTH: i32 = 32;

/// Plies of buffers: the deepest iteration plus quiescence.
const MAX_PLY: usize = MAX_DEPTH as usize + paranoid::QDEPTH + 4;

/// Turns a buffer holds before it would grow (the largest positions seen have about 2 000).
const BUFFER_TURNS: usize = 4096;

/// The search's kind: `hard`'s, or the arena's Best-Reply Search+ opponent (issue 24).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// `hard`: Paranoid.
    Paranoid,
    /// Best-Reply Search+ (Schadd & Winands 2011; Esser et al. 2013): between two turns of
    /// the root player one opponent searches all its turns and the others play their first
    /// ordered turn. The arena's `brs`.
    BestReply,
}

/// Late-move reductions (issue 24): off in `hard`; the arena's `hard-lmr` and `hard-lmrg`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reductions {
    /// Every turn searched to full depth (`hard`).
    Off,
    /// A late quiet turn that sets down no piece is searched one ply shallower first
    /// (`hard-lmr`).
    Late,
    /// As [`Reductions::Late`], except for the turns that bear on the searching player's chief:
    /// the chief's own moves, and an opponent's piece coming near it (within two squares) or,
    /// for a long-range piece, onto one of its lines (`hard-lmrg`).
    Guarded,
    /// Every turn searched to full depth up to [`VERIFIED_FROM`] plies, as [`Reductions::Late`]
    /// beyond; a deeper iteration's new best turn counts only if a full-width search of
    /// [`VERIFIED_FROM`] plies finds it no worse than [`VERIFY_MARGIN`] below the full-width
    /// best (`hard-lmrv`).
    Verified,
}

/// The deepest iteration [`Reductions::Verified`] searches full-width.
pub const VERIFIED_FROM: i32 = 4;

/// How much worse (in share units, 100 000 the whole game) than the full-width best a reduced
/// iteration's turn may look to the full-width search and still be played.
pub const VERIFY_MARGIN: i32 = 1500;

/// What a search found.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub best: Turn,
    pub score: i32,
    pub depth: u32,
}

/// One search's state and its reusable memory.
pub(crate) struct Searcher {
    pub(crate) tt: Tt,
    pub(crate) raw: Vec<Vec<Turn>>,
    pub(crate) moves: Vec<Vec<(Turn, i32)>>,
    pub(crate) ordering: Ordering,
    pub(crate) nodes: u64,
    pub(crate) root: Player,
    pub(crate) clock: Clock,
    pub(crate) max_ply: usize,
    /// How the opponents are modelled.
    pub(crate) style: Style,
    /// Whether late quiet turns are searched shallower first (late-move reductions): off in
    /// `hard`, on in the arena's `hard-lmr`, `hard-lmrg` and `hard-lmrv` (issue 24,
    /// docs/STRENGTH.md).
    pub(crate) reductions: Reductions,
    /// Whether the current iteration reduces ([`Reductions::Verified`] beyond
    /// [`VERIFIED_FROM`]; always for the other forms).
    pub(crate) reducing: bool,
    /// Whether table entries may cut a node off (not while verifying a reduced iteration's turn:
    /// its entries were searched with reductions).
    pub(crate) tt_cutoffs: bool,
    /// Whether an opponent's kills in the quiescence search are only those that take a piece
    /// the searching player controls, or a chief (the arena's `hard-q`, issue 24; measured, not
    /// landed): a kill among the opponents lowers the searching player's share only by chance,
    /// so a minimising opponent hardly ever prefers it to standing pat, and those kills were
    /// nine tenths of depth 5's nodes (docs/STRENGTH.md).
    pub(crate) paranoid_kills: bool,
    /// Whether an opponent's placements are chosen as the released engine chose them, before
    /// issue 24 (the arena's `hard-old`): without the square beside the searching player's
    /// chief and without the square where its displaced chief is most exposed.
    pub(crate) old_placements: bool,
    /// Whether a completed full-width fourth ply is followed by Best-Reply iterations whose
    /// turns must pass [`Searcher::verify`] (the arena's `hard-brs`, issue 24; `beyond.rs`).
    pub(crate) brs_beyond: bool,
    /// How many of its first ordered turns a non-branching opponent tries in Best-Reply Search+
    /// (1, BRS+ itself; more in the arena's `hard-opps`, after Baier & Kaisers' Opponent-Pruning
    /// Paranoid Search, 2020).
    pub(crate) opponent_keep: usize,
    /// Whether a completed fourth ply is followed, when the limits leave no room for a fifth, by
    /// the same four plies searched wider ([`Width::WIDE`]): the arena's `hard-wide` (issue 24;
    /// `wide.rs`).
    pub(crate) wide_beyond: bool,
    /// Whether a completed fourth ply is followed, when the limits leave no room for a fifth, by
    /// Monte-Carlo Tree Search among the turns it left in the running, whose choice must pass
    /// the Paranoid check: the arena's `hard-mcts` (issue 24; `mcts_beyond.rs`).
    pub(crate) mcts_beyond: bool,
    /// Whether iterative deepening stops after a completed fourth ply when a fifth would not fit
    /// the limits, rather than starting a fifth it would not finish as `hard` does: the arena's
    /// `hard-stop` (issue 24; `fifth.rs`; measured, not landed).
    pub(crate) stop_at_fourth: bool,
    /// The evaluation's weights: the crate's, or the arena's `hard-fit` (issue 24).
    pub(crate) weights: eval::Weights,
    /// How far below the full-width best [`Searcher::verify`] lets a turn be:
    /// [`VERIFY_MARGIN`], or twice that while `hard-mcts` checks MCTS's turns
    /// (`mcts_beyond.rs`).
    pub(crate) verify_margin: i32,
    /// `hard-mcts`'s tree, its memory reused from one search to the next.
    mcts: mcts::Mcts,
    /// How wide the tree and the quiescence search look at each node.
    pub(crate) width: Width,
    /// The full-width best turn and score a [`Reductions::Verified`] turn is checked against.
    safe: Option<(Turn, i32)>,
    root_moves: Vec<(Turn, i32)>,
    searches: u64,
}

impl Searcher {
    pub(crate) fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: Tt::new(tt_bytes),
            raw: (0..MAX_PLY)
                .map(|_| Vec::with_capacity(BUFFER_TURNS))
                .collect(),
            moves: (0..MAX_PLY)
                .map(|_| Vec::with_capacity(BUFFER_TURNS))
                .collect(),
            ordering: Ordering::new(MAX_PLY),
            nodes: 0,
            root: Player::Red,
            clock: Clock::new(&Limits::default(), Instant::now()),
            max_ply: MAX_PLY,
            style: Style::Paranoid,
            reductions: Reductions::Off,
            reducing: true,
            tt_cutoffs: true,
            paranoid_kills: false,
            old_placements: false,
            brs_beyond: false,
            wide_beyond: false,
            mcts_beyond: false,
            stop_at_fourth: false,
            weights: eval::Weights::DEFAULT,
            verify_margin: VERIFY_MARGIN,
            mcts: mcts::Mcts::default(),
            opponent_keep: 1,
            width: Width::NARROW,
            safe: None,
            root_moves: Vec::with_capacity(BUFFER_TURNS),
            searches: 0,
        }
    }

    /// Resets everything a search remembers, so each search depends only on its inputs.
    fn begin(&mut self, root: Player, limits: &Limits, start: Instant) {
        self.searches += 1;
        self.tt.new_search(crate::rng::mix(self.searches));
        self.ordering.clear();
        self.nodes = 0;
        self.root = root;
        self.clock = Clock::new(limits, start);
        self.reducing = self.reductions != Reductions::Verified;
        self.tt_cutoffs = true;
        self.safe = None;
    }

    /// Iterative deepening from `pos` (a game in progress) for the player to move, within
    /// `limits` and at most `max_depth` plies. The first pass (every root turn played and
    /// evaluated) always completes, so even a 1 ms search has a sensible answer.
    pub(crate) fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        max_depth: i32,
        start: Instant,
        rng: &mut Rng,
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
                if self.reductions == Reductions::Verified {
                    self.reducing = depth > VERIFIED_FROM;
                }
                let (iteration, complete) = self.root_iteration(pos, depth, &mut root_moves);
                if self.reductions == Reductions::Verified && depth == VERIFIED_FROM && complete {
                    self.safe = iteration;
                }
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
                if self.mcts_beyond && self.fourth_without_fifth(depth) {
                    best = self.choose_by_mcts(pos, best, &root_moves);
                    break;
                }
                if self.widens(depth) {
                    best = self.search_wider(pos, best, &mut root_moves);
                    break;
                }
                if self.brs_beyond && depth == VERIFIED_FROM {
                    best = self.best_reply_beyond(pos, best, &mut root_moves);
                    break;
                }
                if self.stops_after(depth) {
                    break;
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
            if best.is_some() && s > alpha && !self.verify(pos, entry.0) {
                if self.clock.stopped() {
                    return (best, false);
                }
                entry.1 = alpha - 1; // rejected: not first in the next iteration's order
                continue;
            }
            if best.is_none() || s > alpha {
                alpha = s;
                best = Some((entry.0, s));
            }
        }
        if let Some((t, s)) = best {
            self.tt.store(
                key,
                Some(t),
                paranoid::to_tt(s, 0),
                depth as u8,
                crate::tt::Bound::Exact,
            );
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

    fn one_ply(&mut self, pos: &Position, t: &Turn) -> i32 {
        self.nodes += 1;
        let mut child = *pos;
        child.play_unchecked(t);
        eval::terminal_with(&child, self.root, 1, &self.weights)
    }

    /// The value of `pos` for `player` (who need not be to move), searched within `limits`.
    pub(crate) fn value(&mut self, pos: &Position, player: Player, limits: &Limits) -> i32 {
        self.begin(player, limits, Instant::now());
        if pos.is_game_over() {
            return eval::terminal_with(pos, player, 0, &self.weights);
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

    /// Nodes searched by the last search.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The table's memory.
    pub(crate) fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Time since the last search started.
    pub(crate) fn elapsed(&self) -> std::time::Duration {
        self.clock.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    /// Best-Reply Search+ answers legally, completes at least depth 2 from the start and sees a
    /// win in one.
    #[test]
    fn best_reply_search_plays_and_wins() {
        let mut s = Searcher::new(1 << 20);
        s.style = Style::BestReply;
        let mut think = |p: &Position, nodes: u64, seed: u64| {
            s.think(
                p,
                &Limits::nodes(nodes),
                MAX_DEPTH,
                Instant::now(),
                &mut Rng::new(seed),
            )
            .unwrap()
        };
        let p = Position::new();
        let out = think(&p, 30_000, 2);
        assert!(p.is_legal(&out.best) && out.depth >= 2, "{out:?}");
        let win = Position::from_dpn("Cb8/9/9/9/9/9/9/9/Ar7Cr r rb-- - 0 - 0 3", Rules::default())
            .unwrap();
        let out = think(&win, 5_000, 3);
        let mut after = win;
        after.play(&out.best).unwrap();
        assert_eq!(after.outcome(), djambi_core::Outcome::Winner(Player::Red));
    }

    /// Late-move reductions (the arena's `hard-lmr`; off in `hard`) reach deeper on the same
    /// budget, and never shorten a turn that sets a piece down or kills (the opening trap is a
    /// placement), the table's turn or a killer.
    #[test]
    fn late_move_reductions_deepen_and_spare_tactics() {
        let depth = |reductions: Reductions| {
            let mut s = Searcher::new(1 << 22);
            s.reductions = reductions;
            let limits = Limits::nodes(200_000);
            let p = Position::new();
            s.think(&p, &limits, MAX_DEPTH, Instant::now(), &mut Rng::new(5))
                .unwrap()
                .depth
        };
        let without = depth(Reductions::Off);
        for with in [Reductions::Late, Reductions::Guarded, Reductions::Verified] {
            assert!(depth(with) > without, "{with:?}: without {without}");
        }

        // Red's Diplomat next to a blue Militant: its turns onto it set the Militant down.
        let p = Position::from_dpn(
            "Cb8/9/9/9/9/9/9/Mb8/Dr7Cr r rb-- - 0 - 0 3",
            Rules::default(),
        )
        .unwrap();
        let mut s = Searcher::new(1 << 16);
        s.reductions = Reductions::Late;
        let turns = p.legal_turns();
        assert!(
            turns
                .iter()
                .any(|t| t.as_move().is_some_and(|m| m.place.is_some()))
        );
        for t in &turns {
            let placing = t.as_move().is_none_or(|m| m.place.is_some());
            assert_eq!(s.reduces(&p, 4, 5, (*t, 0)), !placing, "{t:?}");
            assert!(
                !s.reduces(&p, 4, 5, (*t, ordering::HISTORY_MAX + 1)),
                "not quiet"
            );
            assert!(!s.reduces(&p, 2, 5, (*t, 0)), "too shallow");
            assert!(!s.reduces(&p, 4, 2, (*t, 0)), "too early in order");
        }
    }

    /// `hard-lmrg`'s guard: the searching player's chief moving, and an opponent's piece
    /// coming within two squares of it or, with unlimited range, onto its lines, keep their full
    /// depth; the same turns far from it are reduced.
    #[test]
    fn guarded_reductions_spare_the_turns_that_bear_on_the_chief() {
        // Red's chief on b2; blue's Assassin on i9, Militant on d6; blue to move, red searching.
        let p = Position::from_dpn(
            "Cb7Ab/9/9/3Mb5/9/9/9/1Cr7/8Mr b rb-- r 0 - 0 3",
            Rules::default(),
        )
        .unwrap();
        let mut s = Searcher::new(1 << 16);
        s.root = Player::Red;
        s.reductions = Reductions::Guarded;
        let sq = |n: &str| n.parse::<djambi_core::Square>().unwrap();
        let reduced = |s: &Searcher, from: &str, to: &str| {
            let t = p
                .legal_turns()
                .into_iter()
                .find(|t| {
                    t.as_move()
                        .is_some_and(|m| m.from == sq(from) && m.to == sq(to))
                })
                .unwrap_or_else(|| panic!("{from}-{to} is legal"));
            s.reduces(&p, 4, 5, (t, 0))
        };
        assert!(!reduced(&s, "d6", "b4"), "a Militant within two squares");
        assert!(reduced(&s, "d6", "d8"), "a Militant far away");
        assert!(
            !reduced(&s, "i9", "h8"),
            "an Assassin onto the chief's diagonal"
        );
        assert!(reduced(&s, "i9", "i7"), "an Assassin off its lines");
        s.reductions = Reductions::Late;
        assert!(reduced(&s, "d6", "b4"), "hard-lmr reduces it");
    }

    /// An arena game against `referee` (seed 2000, game 86): yellow's `c6-b7@e1` lets green's
    /// Diplomat set yellow's Chief down on g4, in red's Assassin's line, and red kills it. With
    /// reductions the search reaches depth 5 and walked into it on every seed until the square
    /// in harm's way was kept among the opponents' placements (`search/placement.rs`).
    #[test]
    fn a_chief_set_down_in_harms_way_is_seen() {
        let p = placement::game_86();
        let trap = p.parse_turn("c6-b7@e1").unwrap();
        for (reductions, paranoid_kills) in [
            (Reductions::Off, false),
            (Reductions::Off, true),
            (Reductions::Late, false),
            (Reductions::Guarded, false),
            (Reductions::Verified, false),
        ] {
            for seed in [1, 2] {
                let mut s = Searcher::new(1 << 22);
                s.reductions = reductions;
                s.paranoid_kills = paranoid_kills;
                let limits = Limits::nodes(250_000);
                let out = s
                    .think(&p, &limits, MAX_DEPTH, Instant::now(), &mut Rng::new(seed))
                    .unwrap();
                assert_ne!(
                    out.best, trap,
                    "{reductions:?} {paranoid_kills}, seed {seed}"
                );
            }
        }
    }
}
