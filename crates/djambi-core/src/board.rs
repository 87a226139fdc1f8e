//! The board: what each of the 81 squares holds.

use std::ops::{Index, IndexMut};

use crate::piece::{Army, Cell, Piece, Role};
use crate::square::Square;

/// The 81 squares of the board and what each holds (a mailbox, indexed by [`Square`]).
// `Debug` prints the DPN board field; it is implemented in notation.rs, which owns every text
// format, so that this module does not depend on it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; 81],
}

impl Board {
    /// A board with every square empty.
    pub const fn empty() -> Board {
        Board {
            cells: [Cell::EMPTY; 81],
        }
    }

    /// The start position of R2.2.
    pub fn start() -> Board {
        let mut board = Board::empty();
        let layout: [(Army, [&str; 9]); 4] = [
            (
                Army::Red,
                ["a9", "b9", "a8", "b8", "c7", "a7", "b7", "c8", "c9"],
            ),
            (
                Army::Blue,
                ["i9", "i8", "h9", "h8", "g7", "i7", "h7", "g8", "g9"],
            ),
            (
                Army::Yellow,
                ["i1", "h1", "i2", "h2", "g3", "i3", "h3", "g2", "g1"],
            ),
            (
                Army::Green,
                ["a1", "a2", "b1", "b2", "c3", "a3", "b3", "c2", "c1"],
            ),
        ];
        let roles = [
            Role::Chief,
            Role::Assassin,
            Role::Reporter,
            Role::Diplomat,
            Role::Necromobile,
            Role::Militant,
            Role::Militant,
            Role::Militant,
            Role::Militant,
        ];
        for (army, squares) in layout {
            for (sq, role) in squares.iter().zip(roles) {
                let sq: Square = sq.parse().expect("start squares are valid");
                board[sq] = Cell::living(Piece { army, role });
            }
        }
        board
    }

    /// The square where the living chief of `army` stands, if it is alive.
    pub fn chief(&self, army: Army) -> Option<Square> {
        let chief = Cell::living(Piece {
            army,
            role: Role::Chief,
        });
        self.cells
            .iter()
            .position(|c| *c == chief)
            .and_then(Square::from_index)
    }

    /// Where each army's living chief stands and how many living Necromobiles it has, in one
    /// pass over the board.
    pub(crate) fn census(&self) -> Census {
        let mut census = Census {
            chiefs: [None; 4],
            necromobiles: [0; 4],
        };
        for (i, c) in self.cells.iter().enumerate() {
            match CENSUS_KIND[c.bits() as usize] {
                0 => {}
                k @ 1..=4 => census.chiefs[k as usize - 1] = Square::from_index(i),
                k => census.necromobiles[k as usize - 5] += 1,
            }
        }
        census
    }

    /// Every square with what it holds, `a1` first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Cell)> + '_ {
        Square::ALL.into_iter().zip(self.cells.iter().copied())
    }

    /// Every living piece with its square, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.iter().filter_map(|(sq, c)| c.piece().map(|p| (sq, p)))
    }

    /// The number of corpses on the board.
    pub fn corpses(&self) -> usize {
        self.cells.iter().filter(|c| c.is_corpse()).count()
    }

    /// A bit mask (bit = square index) of the empty squares.
    pub(crate) fn empty_mask(&self) -> u128 {
        // Eight squares at a time: mark each zero byte with its high bit (exactly, with no
        // borrow between bytes), then gather the eight marks into eight contiguous bits.
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let mut mask = 0u128;
        for (chunk_index, chunk) in self.cells.chunks(8).enumerate() {
            let mut bytes = [0xffu8; 8];
            for (b, c) in bytes.iter_mut().zip(chunk) {
                *b = c.bits();
            }
            let x = u64::from_le_bytes(bytes);
            let zero_marks = !(((x & LOW7) + LOW7) | x | LOW7);
            let gathered = ((zero_marks >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u128;
            mask |= gathered << (chunk_index * 8);
        }
        mask
    }
}

/// Per cell value: 0 for nothing of interest, 1–4 for the chief of army 0–3, 5–8 for a
/// Necromobile of army 0–3.
const CENSUS_KIND: [u8; Cell::VALUES] = {
    let mut kinds = [0u8; Cell::VALUES];
    let mut army = 0;
    while army < 4 {
        kinds[2 + army * 6 + Role::Chief as usize] = 1 + army as u8;
        kinds[2 + army * 6 + Role::Necromobile as usize] = 5 + army as u8;
        army += 1;
    }
    kinds
};

/// The chiefs and Necromobiles of each army, from one scan of the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Census {
    /// The square of each army's living chief.
    pub chiefs: [Option<Square>; 4],
    /// The number of each army's living Necromobiles.
    pub necromobiles: [u8; 4],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Index<Square> for Board {
    type Output = Cell;

    fn index(&self, sq: Square) -> &Cell {
        &self.cells[sq.index()]
    }
}

impl IndexMut<Square> for Board {
    fn index_mut(&mut self, sq: Square) -> &mut Cell {
        &mut self.cells[sq.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_mask_matches_the_squares() {
        let mut board = Board::start();
        board[Square::MAZE] = Cell::CORPSE;
        let mask = board.empty_mask();
        for (sq, cell) in board.iter() {
            assert_eq!(mask >> sq.index() & 1 == 1, cell.is_empty(), "{sq}");
        }
        assert_eq!(mask >> 81, 0);
        assert_eq!(Board::empty().empty_mask(), (1u128 << 81) - 1);
    }
}
