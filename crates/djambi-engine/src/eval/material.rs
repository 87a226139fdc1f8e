//! Material: what each army has left, in the engine's unit (a Militant is 100).

use djambi_core::{Board, Role, Square};

/// The value of a living piece of each role, indexed by `Role as usize` (Chief, Assassin,
/// Reporter, Diplomat, Necromobile, Militant), in hundredths of a Militant.
///
/// - Chief 0 here: a living chief is worth its player's whole game, counted as
///   [`ALIVE`](super::weights::ALIVE) plus the army it keeps — so killing it moves the whole army's
///   value to the killer (R9.1), which is what makes chiefs the target.
/// - Assassin 450: unlimited range, the only piece besides the Chief that kills on the maze, and
///   its victim's corpse lands where it started (no placement needed).
/// - Reporter 350: unlimited range and kills from beside its target, also the chief in power.
/// - Diplomat 250: never kills, but moves enemy chiefs into danger or off the maze.
/// - Necromobile 250: never kills; it alone saves its chief from encirclement (R9.3) and can
///   build walls of corpses round enemy chiefs.
/// - Militant 100: a short-range killer, four of them.
pub const ROLE_VALUE: [i32; 6] = [0, 450, 350, 250, 250, 100];

/// One pass over the board: living pieces per army and role, and the chiefs. (The material
/// itself is weighted later, under the search's [`Weights`](super::Weights).)
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scan {
    /// Where each army's living chief stands.
    pub chief: [Option<Square>; 4],
    /// Living pieces per army and role (`Role as usize`), chiefs included.
    pub pieces: [[u8; 6]; 4],
}

impl Scan {
    /// Whether `army` (index) has a living Necromobile.
    pub fn has_necromobile(&self, army: usize) -> bool {
        self.pieces[army][Role::Necromobile as usize] > 0
    }
}

/// Scans a board given as [`codes`](super::geometry::codes).
pub(crate) fn scan_codes(cells: &[u8; 81]) -> Scan {
    let mut s = Scan::default();
    for (i, &c) in cells.iter().enumerate() {
        let c = c as usize;
        if c < 2 {
            continue;
        }
        let (army, role) = ((c - 2) / 6, (c - 2) % 6);
        s.pieces[army][role] += 1;
        if role == Role::Chief as usize {
            s.chief[army] = Square::from_index(i);
        }
    }
    s
}

/// Scans a board.
pub(crate) fn scan(board: &Board) -> Scan {
    scan_codes(&super::geometry::codes(board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_material() {
        let s = scan(&Board::start());
        let material = |a: usize| -> i32 {
            (0..6)
                .map(|r| ROLE_VALUE[r] * i32::from(s.pieces[a][r]))
                .sum()
        };
        assert_eq!([0, 1, 2, 3].map(material), [1700; 4]);
        assert_eq!([0, 1, 2, 3].map(|a| s.has_necromobile(a)), [true; 4]);
        assert_eq!(s.pieces, [[1, 1, 1, 1, 1, 4]; 4]);
        assert_eq!(s.chief[0].map(|c| c.to_string()), Some("a9".into()));
    }
}
