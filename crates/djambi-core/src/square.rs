//! Squares of the 9×9 board (R1.1) and the maze (R1.2).

use std::fmt;
use std::str::FromStr;

/// One of the 81 squares, `a1` (bottom-left) to `i9` (top-right).
///
/// The index is `rank * 9 + file`, both counted from 0, so `a1` is 0, `i1` is 8 and `i9` is 80.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The maze, `e5` (R1.2).
    pub const MAZE: Square = Square(40);

    /// Every square, in index order (`a1`, `b1`, …, `i9`).
    pub const ALL: [Square; 81] = {
        let mut all = [Square(0); 81];
        let mut i = 0;
        while i < 81 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (`rank * 9 + file`), if it is on the board.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = `a`) and `rank` (0 = rank `1`), if both are below 9.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 9 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The index of this square, `rank * 9 + file`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 8 (`i`).
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// The rank, 0 (rank `1`) to 8 (rank `9`).
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Whether this is the maze `e5`.
    pub const fn is_maze(self) -> bool {
        self.0 == 40
    }

    /// The up to 8 neighbours (R1.3), in no particular order.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        NEIGHBOURS[self.index()].iter()
    }

    /// The up to 4 orthogonal neighbours (R1.3).
    pub fn orthogonal_neighbours(self) -> impl Iterator<Item = Square> {
        ORTHOGONAL[self.index()].iter()
    }

    /// The squares from this one (excluded) to the edge of the board in direction `dir`.
    pub fn ray(self, dir: Direction) -> &'static [Square] {
        RAYS[self.index()][dir as usize].as_slice()
    }

    /// The direction and distance from `self` to `to` when they lie on one straight line
    /// (orthogonal or diagonal, R3.2), else `None`.
    pub fn line_to(self, to: Square) -> Option<(Direction, usize)> {
        let df = to.file() as i8 - self.file() as i8;
        let dr = to.rank() as i8 - self.rank() as i8;
        if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let dir = Direction::ALL
            .into_iter()
            .find(|d| d.delta() == (df.signum(), dr.signum()))?;
        Some((dir, df.abs().max(dr.abs()) as usize))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text is not a square name (`a1` … `i9`, either case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square (a1 to i9)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1` … `i9`; the file letter may be upper-case (NOTATION §3).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f, r] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'i').contains(&f) && (b'1'..=b'9').contains(r) {
                    Ok(Square((r - b'1') * 9 + (f - b'a')))
                } else {
                    Err(ParseSquareError)
                }
            }
            _ => Err(ParseSquareError),
        }
    }
}

impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One of the 8 directions a piece may move in (R3.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    /// Towards rank 9.
    North,
    /// Towards rank 9 and file `i`.
    NorthEast,
    /// Towards file `i`.
    East,
    /// Towards rank 1 and file `i`.
    SouthEast,
    /// Towards rank 1.
    South,
    /// Towards rank 1 and file `a`.
    SouthWest,
    /// Towards file `a`.
    West,
    /// Towards rank 9 and file `a`.
    NorthWest,
}

impl Direction {
    /// All 8 directions.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The (file, rank) step of this direction.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// Whether the direction is orthogonal (shares a side) rather than diagonal.
    pub const fn is_orthogonal(self) -> bool {
        matches!(
            self,
            Direction::North | Direction::East | Direction::South | Direction::West
        )
    }
}

/// A short list of squares held inline (rays have at most 8 squares).
#[derive(Clone, Copy)]
pub(crate) struct SquareList {
    len: u8,
    squares: [Square; 8],
}

impl SquareList {
    const EMPTY: SquareList = SquareList {
        len: 0,
        squares: [Square(0); 8],
    };

    const fn push(mut self, sq: Square) -> SquareList {
        self.squares[self.len as usize] = sq;
        self.len += 1;
        self
    }

    pub(crate) fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.as_slice().iter().copied()
    }
}

const fn step(sq: Square, dir: Direction) -> Option<Square> {
    let (df, dr) = dir.delta();
    let f = sq.file() as i8 + df;
    let r = sq.rank() as i8 + dr;
    if f < 0 || r < 0 || f > 8 || r > 8 {
        None
    } else {
        Square::from_coords(f as u8, r as u8)
    }
}

/// `RAYS[sq][dir]`: the squares from `sq` to the edge in `dir`, nearest first.
static RAYS: [[SquareList; 8]; 81] = {
    let mut rays = [[SquareList::EMPTY; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let dir = Direction::ALL[d];
            let mut list = SquareList::EMPTY;
            let mut cur = Square(i as u8);
            while let Some(next) = step(cur, dir) {
                list = list.push(next);
                cur = next;
            }
            rays[i][d] = list;
            d += 1;
        }
        i += 1;
    }
    rays
};

static NEIGHBOURS: [SquareList; 81] = {
    let mut all = [SquareList::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            if let Some(n) = step(Square(i as u8), Direction::ALL[d]) {
                all[i] = all[i].push(n);
            }
            d += 1;
        }
        i += 1;
    }
    all
};

static ORTHOGONAL: [SquareList; 81] = {
    let mut all = [SquareList::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            if Direction::ALL[d].is_orthogonal()
                && let Some(n) = step(Square(i as u8), Direction::ALL[d])
            {
                all[i] = all[i].push(n);
            }
            d += 1;
        }
        i += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn r1_1_files_and_ranks() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("i1").index(), 8);
        assert_eq!(sq("a9").index(), 72);
        assert_eq!(sq("i9").to_string(), "i9");
        assert_eq!(sq("E5"), Square::MAZE);
        for s in ["", "a", "j1", "a0", "a10", "é1", " a1"] {
            assert!(s.parse::<Square>().is_err(), "{s}");
        }
        for s in Square::ALL {
            assert_eq!(sq(&s.to_string()), s);
        }
    }

    #[test]
    fn r1_2_the_maze_is_e5() {
        assert!(sq("e5").is_maze());
        assert_eq!(Square::ALL.iter().filter(|s| s.is_maze()).count(), 1);
    }

    #[test]
    fn r1_3_neighbours() {
        assert_eq!(sq("a1").neighbours().count(), 3);
        assert_eq!(sq("a5").neighbours().count(), 5);
        assert_eq!(sq("e5").neighbours().count(), 8);
        assert_eq!(sq("a1").orthogonal_neighbours().count(), 2);
        let mut n: Vec<String> = sq("e5")
            .orthogonal_neighbours()
            .map(|s| s.to_string())
            .collect();
        n.sort();
        assert_eq!(n, ["d5", "e4", "e6", "f5"]);
    }

    #[test]
    fn rays_and_lines() {
        assert_eq!(sq("a1").ray(Direction::NorthEast).len(), 8);
        assert_eq!(sq("a1").ray(Direction::South).len(), 0);
        assert_eq!(sq("c3").line_to(sq("e5")), Some((Direction::NorthEast, 2)));
        assert_eq!(sq("c3").line_to(sq("e6")), None);
        assert_eq!(sq("c3").line_to(sq("c3")), None);
    }
}
