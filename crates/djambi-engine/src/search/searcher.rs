//! The searcher: one search's state and its reusable memory, shared by the Paranoid node code
//! (`paranoid.rs`), iterative deepening (`deepening.rs`) and the ranking of every root turn
//! (`rank.rs`), each of which adds its methods to [`Searcher`].
//!
//! Every buffer is allocated when the searcher is made and reused: one list of legal turns and
//! one list of scored turns per ply, so a search allocates nothing per node.

use std::time::Instant;

use djambi_core::{Player, Turn};

use crate::eval::WIN;
use crate::search::ordering::Ordering;
use crate::time::{Clock, Limits};
use crate::tt::Tt;

/// The deepest iteration iterative deepening starts.
pub const MAX_DEPTH: i32 = 32;

/// Plies of kills the quiescence search follows at most.
pub(crate) const QDEPTH: usize = 4;

/// Plies of buffers: the deepest iteration plus quiescence.
pub(crate) const MAX_PLY: usize = MAX_DEPTH as usize + QDEPTH + 4;

/// Turns a buffer holds before it would grow (the largest positions seen have about 2 000).
const BUFFER_TURNS: usize = 4096;

/// Larger than any score.
pub(crate) const INF: i32 = WIN + 10_000;

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
    /// Per ply, the position's legal turns.
    pub(crate) raw: Vec<Vec<Turn>>,
    /// Per ply, the turns searched with their ordering scores.
    pub(crate) moves: Vec<Vec<(Turn, i32)>>,
    pub(crate) ordering: Ordering,
    pub(crate) nodes: u64,
    /// The player the search is for: scores are its.
    pub(crate) root: Player,
    pub(crate) clock: Clock,
    /// The root's turns and their scores, kept between searches for their memory.
    pub(crate) root_moves: Vec<(Turn, i32)>,
    /// Searches started, mixed into the table's salt.
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
            root_moves: Vec::with_capacity(BUFFER_TURNS),
            searches: 0,
        }
    }

    /// Resets everything a search remembers, so each search depends only on its inputs.
    pub(crate) fn begin(&mut self, root: Player, limits: &Limits, start: Instant) {
        self.searches += 1;
        self.tt.new_search(crate::rng::mix(self.searches));
        self.ordering.clear();
        self.nodes = 0;
        self.root = root;
        self.clock = Clock::new(limits, start);
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
