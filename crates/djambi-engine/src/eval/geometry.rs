//! The board's geometry as engine-local tables (neighbours, orthogonal neighbours, rays), built
//! at compile time, and a position's board as 81 cell codes: the evaluation reads squares
//! millions of times a second, and local tables let the compiler inline every access.

use djambi_core::Board;

use crate::zobrist::code;

/// The board as cell codes (0 empty, 1 corpse, `2 + army * 6 + role`), by square index.
pub(crate) fn codes(board: &Board) -> [u8; 81] {
    let mut c = [0u8; 81];
    for (sq, cell) in board.iter() {
        c[sq.index()] = code(cell) as u8;
    }
    c
}

/// Up to eight squares, inline.
#[derive(Clone, Copy)]
pub(crate) struct List {
    len: u8,
    sq: [u8; 8],
}

impl List {
    const EMPTY: List = List { len: 0, sq: [0; 8] };

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.sq[..self.len as usize]
    }
}

const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn step(i: usize, d: (i8, i8)) -> Option<usize> {
    let f = (i % 9) as i8 + d.0;
    let r = (i / 9) as i8 + d.1;
    if f < 0 || r < 0 || f > 8 || r > 8 {
        None
    } else {
        Some(r as usize * 9 + f as usize)
    }
}

/// `RAYS[sq][dir]`: the squares from `sq` to the edge, nearest first.
pub(crate) static RAYS: [[List; 8]; 81] = {
    let mut t = [[List::EMPTY; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let mut cur = i;
            while let Some(n) = step(cur, DIRS[d]) {
                let l = &mut t[i][d];
                l.sq[l.len as usize] = n as u8;
                l.len += 1;
                cur = n;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The up to 8 neighbours of each square (R1.3).
pub(crate) static NEIGHBOURS: [List; 81] = {
    let mut t = [List::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            if let Some(n) = step(i, DIRS[d]) {
                t[i].sq[t[i].len as usize] = n as u8;
                t[i].len += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The up to 4 orthogonal neighbours of each square (R1.3).
pub(crate) static ORTHOGONAL: [List; 81] = {
    let mut t = [List::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            if d % 2 == 0
                && let Some(n) = step(i, DIRS[d])
            {
                t[i].sq[t[i].len as usize] = n as u8;
                t[i].len += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The maze's index.
pub(crate) const MAZE: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Direction, Square};

    #[test]
    fn tables_match_the_core() {
        for sq in Square::ALL {
            let i = sq.index();
            let mut n: Vec<u8> = sq.neighbours().map(|s| s.index() as u8).collect();
            let mut m = NEIGHBOURS[i].as_slice().to_vec();
            n.sort();
            m.sort();
            assert_eq!(n, m);
            let mut o: Vec<u8> = sq
                .orthogonal_neighbours()
                .map(|s| s.index() as u8)
                .collect();
            let mut p = ORTHOGONAL[i].as_slice().to_vec();
            o.sort();
            p.sort();
            assert_eq!(o, p);
            for (d, dir) in Direction::ALL.into_iter().enumerate() {
                let r: Vec<u8> = sq.ray(dir).iter().map(|s| s.index() as u8).collect();
                assert_eq!(r, RAYS[i][d].as_slice());
            }
        }
    }
}
