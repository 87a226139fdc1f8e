//! The transposition table: a fixed-size, always-replace hash table of search results, two
//! 64-bit words per entry, allocated once (zeroed pages, so a large table costs nothing until it
//! is used) and never grown: its memory is bounded by the configured size.

use djambi_core::{Square, Turn};

use crate::eval::WIN_THRESHOLD;

/// What a stored score means (alpha-beta bounds).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least the score (a cut-off).
    Lower,
    /// The value is at most the score (every move failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub mv: Option<Turn>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

/// The bytes of one entry.
pub const ENTRY_BYTES: usize = 16;

/// Scores are stored in 21 signed bits.
const SCORE_BIAS: i64 = 1 << 20;

/// A bounded table of search results, keyed by a 64-bit Zobrist key.
pub(crate) struct Tt {
    table: Vec<[u64; 2]>,
    mask: usize,
    /// XORed into every key: a new value makes every older entry unreachable at once, so each
    /// search starts from an empty table (deterministic) without clearing memory.
    salt: u64,
}

impl Tt {
    /// A table of at most `bytes` bytes (the largest power of two of entries that fits; at
    /// least one entry).
    pub(crate) fn new(bytes: usize) -> Tt {
        let entries = (bytes / ENTRY_BYTES).max(1);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        Tt {
            table: vec![[0u64; 2]; entries],
            mask: entries - 1,
            salt: 0,
        }
    }

    /// The memory the table holds.
    pub(crate) fn bytes(&self) -> usize {
        self.table.len() * ENTRY_BYTES
    }

    /// Forgets every entry (in O(1): see `salt`).
    pub(crate) fn new_search(&mut self, salt: u64) {
        self.salt = salt;
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let key = key ^ self.salt;
        let [k, data] = self.table[key as usize & self.mask];
        if k != key || key == 0 {
            return None;
        }
        let mv = decode_turn(data & ((1 << 35) - 1));
        let depth = ((data >> 35) & 63) as u8;
        let bound = match (data >> 41) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let score = ((data >> 43) as i64 - SCORE_BIAS) as i32;
        Some(Hit {
            mv,
            score,
            depth,
            bound,
        })
    }

    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Turn>,
        score: i32,
        depth: u8,
        bound: Bound,
    ) {
        let key = key ^ self.salt;
        let score = (score as i64).clamp(-SCORE_BIAS + 1, SCORE_BIAS - 1) + SCORE_BIAS;
        let bound = match bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let data = encode_turn(mv)
            | (u64::from(depth.min(63)) << 35)
            | (bound << 41)
            | ((score as u64) << 43);
        self.table[key as usize & self.mask] = [key, data];
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

const NONE: u64 = 127;
const PASS: u64 = 126;

fn sq(o: Option<Square>) -> u64 {
    o.map_or(NONE, |s| s.index() as u64)
}

fn unsq(v: u64) -> Option<Square> {
    Square::from_index(v as usize)
}

/// A turn in 35 bits: five 7-bit fields (from, to, victim, exit, place), 127 for "none".
fn encode_turn(t: Option<Turn>) -> u64 {
    match t {
        None => NONE,
        Some(Turn::Pass) => PASS,
        Some(Turn::Move(m)) => {
            m.from.index() as u64
                | (m.to.index() as u64) << 7
                | sq(m.victim) << 14
                | sq(m.exit) << 21
                | sq(m.place) << 28
        }
    }
}

fn decode_turn(v: u64) -> Option<Turn> {
    let field = |i: u32| (v >> (7 * i)) & 127;
    match field(0) {
        NONE => None,
        PASS => Some(Turn::Pass),
        from => Some(Turn::Move(djambi_core::Move {
            from: unsq(from)?,
            to: unsq(field(1))?,
            victim: unsq(field(2)),
            exit: unsq(field(3)),
            place: unsq(field(4)),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_size_is_bounded() {
        let mut tt = Tt::new(1000);
        assert!(tt.bytes() <= 1000);
        assert_eq!(tt.bytes(), 512);
        assert_eq!(Tt::new(0).bytes(), ENTRY_BYTES);
        for (text, score, bound) in [
            ("h2-e5>d6@a5", -1_000_000, Bound::Lower),
            ("a8-a5xb5", 12345, Bound::Exact),
            ("pass", 0, Bound::Upper),
        ] {
            let t: Turn = text.parse().unwrap();
            tt.store(99, Some(t), score, 7, bound);
            let hit = tt.probe(99).unwrap();
            assert_eq!(hit.mv, Some(t));
            assert_eq!((hit.score, hit.depth, hit.bound), (score, 7, bound));
        }
        tt.store(5, None, 3, 1, Bound::Exact);
        assert_eq!(tt.probe(5).unwrap().mv, None);
        assert!(tt.probe(6).is_none());
        tt.new_search(42);
        assert!(tt.probe(5).is_none());
    }
}
