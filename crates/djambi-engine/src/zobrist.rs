//! Zobrist hashing of positions (Zobrist 1970), computed in the engine: the core stays pure
//! rules. The key covers everything that changes which turns are legal or how the game goes on:
//! board, player to move, control, last regular player, bonus turns, passes, and — near the turn
//! limit only — the count of quiet turns (R12.4), so that a position one turn from a draw is not
//! confused with the same board far from it.

use djambi_core::{Army, Cell, Controller, Player, Position};

use crate::rng::mix;

/// The cell's code: 0 empty, 1 corpse, `2 + army * 6 + role` for a living piece.
#[inline]
pub(crate) fn code(cell: Cell) -> usize {
    match cell.piece() {
        Some(p) => 2 + p.army.index() * 6 + p.role as usize,
        None => usize::from(cell.is_corpse()),
    }
}

/// The number of cell codes.
pub(crate) const CODES: usize = 26;

/// How close to the turn limit the quiet count starts to matter in the key.
const QUIET_WINDOW: u32 = 63;

struct Keys {
    cells: [[u64; CODES]; 81],
    to_move: [u64; 5],
    control: [[u64; 6]; 4],
    last_regular: [u64; 5],
    bonus: [u64; 3],
    passed: [u64; 16],
    root: [u64; 4],
    quiet: [u64; QUIET_WINDOW as usize + 1],
}

const fn build() -> Keys {
    let mut k = Keys {
        cells: [[0; CODES]; 81],
        to_move: [0; 5],
        control: [[0; 6]; 4],
        last_regular: [0; 5],
        bonus: [0; 3],
        passed: [0; 16],
        root: [0; 4],
        quiet: [0; QUIET_WINDOW as usize + 1],
    };
    let mut s = 0x6a09_e667_f3bc_c908u64;
    let mut i = 0;
    while i < 81 {
        let mut c = 1; // code 0 (empty) hashes to nothing
        while c < CODES {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            k.cells[i][c] = mix(s);
            c += 1;
        }
        i += 1;
    }
    i = 0;
    while i < 5 {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.to_move[i] = mix(s);
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.last_regular[i] = mix(s);
        i += 1;
    }
    i = 0;
    while i < 4 {
        let mut c = 0;
        while c < 6 {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            k.control[i][c] = mix(s);
            c += 1;
        }
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.root[i] = mix(s);
        i += 1;
    }
    i = 0;
    while i < 3 {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.bonus[i] = mix(s);
        i += 1;
    }
    i = 1;
    while i < 16 {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.passed[i] = mix(s);
        i += 1;
    }
    i = 0;
    while i <= QUIET_WINDOW as usize {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        k.quiet[i] = mix(s);
        i += 1;
    }
    k
}

static KEYS: Keys = build();

fn controller_code(c: Controller) -> usize {
    match c {
        Controller::Player(p) => p.index(),
        Controller::Orphaned => 4,
        Controller::Hostage => 5,
    }
}

/// The position's key as seen by a search for `root` (the root player is part of the key:
/// the table stores scores from the root player's point of view).
pub(crate) fn hash(pos: &Position, root: Player) -> u64 {
    let k = &KEYS;
    let mut h = k.root[root.index()];
    for (sq, cell) in pos.board().iter() {
        h ^= k.cells[sq.index()][code(cell)];
    }
    h ^= k.to_move[pos.to_move().map_or(4, Army::index)];
    h ^= k.last_regular[pos.last_regular().map_or(4, Army::index)];
    for a in Army::ALL {
        h ^= k.control[a.index()][controller_code(pos.control(a))];
    }
    h ^= k.bonus[usize::from(pos.bonus().min(2))];
    let passed: usize = pos.passed().iter().map(|p| 1 << p.index()).sum();
    h ^= k.passed[passed];
    if let Some(limit) = pos.rules().turn_limit {
        let left = limit.get().saturating_sub(pos.quiet());
        if left <= QUIET_WINDOW {
            h ^= k.quiet[left as usize];
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn keys_differ_with_what_matters() {
        let start = Position::new();
        let mut after = start;
        after.play(&"b7-b5".parse().unwrap()).unwrap();
        assert_ne!(hash(&start, Army::Red), hash(&after, Army::Red));
        assert_ne!(hash(&start, Army::Red), hash(&start, Army::Blue));
        assert_eq!(hash(&start, Army::Red), hash(&Position::new(), Army::Red));
        let hostage = Position::start_hostage(Army::Green, Rules::default());
        assert_ne!(hash(&start, Army::Red), hash(&hostage, Army::Red));
    }
}
