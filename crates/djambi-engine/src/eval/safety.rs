//! Chief safety: who can kill a chief next move, and how close it is to encirclement (R9.3).

use djambi_core::{Army, Controller, Player, Position, Role};

use crate::eval::geometry::{MAZE, NEIGHBOURS, ORTHOGONAL, RAYS};

/// The number of pieces of `attackers` (armies moved by some player other than the chief's, as
/// a bit mask by army index) that could kill the chief on square index `chief` in one move. An
/// approximation of the rules, for the evaluation only: it ignores `own_kills` and counts a
/// piece once per way it attacks. `cells` is the board as [`codes`](super::geometry::codes).
pub(crate) fn attackers(cells: &[u8; 81], chief: usize, attackers: u8) -> i32 {
    let on_maze = chief == MAZE;
    let is_attacker = |c: u8| c >= 2 && attackers & (1 << ((c - 2) / 6)) != 0;
    let mut n = 0;
    for ray in &RAYS[chief] {
        for (dist, &sq) in ray.as_slice().iter().enumerate() {
            let c = cells[sq as usize];
            if c == 0 {
                continue;
            }
            if is_attacker(c) {
                match role_of(c) {
                    Role::Chief | Role::Assassin => n += 1,
                    Role::Militant if dist < 2 && !on_maze => n += 1,
                    _ => {}
                }
            }
            break;
        }
    }
    // Reporters: a square orthogonally next to the chief that a Reporter can reach (R4.4, R4.6).
    for &next in ORTHOGONAL[chief].as_slice() {
        let next = next as usize;
        if next == MAZE || cells[next] != 0 {
            continue;
        }
        'dirs: for ray in &RAYS[next] {
            for &sq in ray.as_slice() {
                let c = cells[sq as usize];
                if c == 0 {
                    continue;
                }
                if is_attacker(c) && role_of(c) == Role::Reporter {
                    n += 1;
                    break 'dirs;
                }
                break;
            }
        }
    }
    n
}

/// Corpses next to the square `chief`, its empty neighbours, and its number of neighbours.
pub(crate) fn surroundings(cells: &[u8; 81], chief: usize) -> (i32, i32, i32) {
    let (mut corpses, mut empty, mut all) = (0, 0, 0);
    for &n in NEIGHBOURS[chief].as_slice() {
        all += 1;
        match cells[n as usize] {
            0 => empty += 1,
            1 => corpses += 1,
            _ => {}
        }
    }
    (corpses, empty, all)
}

fn role_of(code: u8) -> Role {
    Role::ALL[(code as usize - 2) % 6]
}

/// The armies other than `own` that some player moves (so not orphaned, not the hostage), as a
/// bit mask by army index.
pub(crate) fn moving_enemies(control: &[Option<Army>; 4], own: Army) -> u8 {
    let mut mask = 0;
    for a in Army::ALL {
        if control[a.index()].is_some_and(|p| p != own) {
            mask |= 1 << a.index();
        }
    }
    mask
}

/// Who moves each army, by army index: its controlling player, or `None` for an orphaned army
/// or the hostage.
pub(crate) fn controllers(pos: &Position) -> [Option<Player>; 4] {
    Army::ALL.map(|a| match pos.control(a) {
        Controller::Player(p) => Some(p),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::geometry::codes;
    use djambi_core::{Rules, Square};

    #[test]
    fn counts_line_militant_and_reporter_attacks() {
        // Red chief on e1; blue: Assassin e9, Militant c3, Reporter a2, Chief h1.
        let p = Position::from_dpn(
            "4Ab4/9/9/9/9/9/2Mb6/Rb8/4Cr2Cb1 r rb-- - 0 - 0 1",
            Rules::default(),
        )
        .unwrap();
        let chief = "e1".parse::<Square>().unwrap().index();
        let cells = codes(p.board());
        // Assassin on the file, Militant two squares away, Chief on the rank (g1→f1 clear),
        // Reporter on a2 reaches e2 (beside e1) along rank 2.
        assert_eq!(attackers(&cells, chief, 1 << Army::Blue.index()), 4);
        assert_eq!(attackers(&cells, chief, 0), 0);
        assert_eq!(surroundings(&cells, chief), (0, 5, 5));
    }
}
