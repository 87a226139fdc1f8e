//! The board: what each of the 81 squares holds.

use std::ops::{Index, IndexMut};

use crate::piece::{Army, Cell, Piece, Role};
use crate::square::Square;

/// The 81 squares of the board and what each holds (a mailbox, indexed by [`Square`]).
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
            let b = c.bits();
            if b < 2 {
                continue;
            }
            let (army, role) = ((b - 2) / 6, (b - 2) % 6);
            if role == Role::Chief as u8 {
                census.chiefs[army as usize] = Square::from_index(i);
            } else if role == Role::Necromobile as u8 {
                census.necromobiles[army as usize] += 1;
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
        let mut mask = 0u128;
        for (i, c) in self.cells.iter().enumerate() {
            if c.is_empty() {
                mask |= 1 << i;
            }
        }
        mask
    }
}

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

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::notation::board_field(self))
    }
}
