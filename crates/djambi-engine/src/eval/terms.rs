//! A player's strength term by term: the counts the evaluation's weights multiply, so that the
//! strength can be computed under other weights ([`Weights`]) and the weights fitted on games
//! (the lab's `eval_fit` example, `crates/djambi-lab/examples/eval_fit.rs`).

use djambi_core::{Army, Position, Role};

use super::weights::{MIN_STRENGTH, Weights};
use super::{geometry, material, safety};

/// What one living player's strength is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Living pieces per role (`Role as usize`) of every army the player controls (its own
    /// and its vassals).
    pub pieces: [i32; 6],
    /// The player holds the maze.
    pub ruler: bool,
    /// Enemy pieces that can kill the player's chief in one move.
    pub attackers: i32,
    /// Corpses next to the chief, off the maze (0 on the maze).
    pub corpses: i32,
    /// Empty squares next to the chief, off the maze (0 on the maze).
    pub room: i32,
    /// The player has a living Necromobile (in any army it controls).
    pub has_necro: bool,
    /// The chief, off the maze and without a Necromobile, lacks one corpse to be encircled.
    pub one_from_encircled: bool,
}

impl Terms {
    /// The strength under `w`, never below [`MIN_STRENGTH`].
    pub fn strength(&self, w: &Weights) -> i32 {
        let (corpse, encircled) = if self.has_necro {
            (w.corpse_neighbour, 0)
        } else {
            (w.corpse_neighbour_no_necro, w.one_corpse_from_encircled)
        };
        let v = self.careless(w)
            - w.chief_attacker * self.attackers
            - corpse * self.corpses
            - if self.one_from_encircled {
                encircled
            } else {
                0
            }
            + w.chief_room * self.room;
        v.max(MIN_STRENGTH)
    }

    /// The strength under `w` without the chief-danger terms (attackers, corpses, room): a
    /// careless player's view of its own ([`super::careless_share`]).
    pub fn careless_strength(&self, w: &Weights) -> i32 {
        self.careless(w).max(MIN_STRENGTH)
    }

    fn careless(&self, w: &Weights) -> i32 {
        let material: i32 = (1..6).map(|r| w.role[r] * self.pieces[r]).sum();
        w.alive + material + if self.ruler { w.ruler } else { 0 }
    }
}

/// Each living player's terms, indexed by army (`None` for a player who is not alive).
pub fn terms(pos: &Position) -> [Option<Terms>; 4] {
    let cells = geometry::codes(pos.board());
    let scan = material::scan_codes(&cells);
    let control = safety::controllers(pos);
    let ruler = pos.ruler();
    let mut all = [None; 4];
    for p in Army::ALL {
        let Some(chief) = scan.chief[p.index()] else {
            continue;
        };
        if control[p.index()] != Some(p) {
            continue; // the hostage (or an inconsistent army): not a player
        }
        let mut t = Terms {
            ruler: ruler == Some(p),
            ..Terms::default()
        };
        for a in Army::ALL {
            if control[a.index()] == Some(p) {
                for (n, &k) in t.pieces.iter_mut().zip(&scan.pieces[a.index()]) {
                    *n += i32::from(k);
                }
            }
        }
        t.has_necro = t.pieces[Role::Necromobile as usize] > 0;
        let enemies = safety::moving_enemies(&control, p);
        let at = chief.index();
        t.attackers = safety::attackers(&cells, at, enemies);
        if !chief.is_maze() {
            let (corpses, empty, neighbours) = safety::surroundings(&cells, at);
            t.corpses = corpses;
            t.room = empty;
            t.one_from_encircled = !t.has_necro && corpses == neighbours - 1;
        }
        all[p.index()] = Some(t);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::strengths;
    use djambi_core::Rules;

    #[test]
    fn the_start_is_every_army_whole_and_safe() {
        let all = terms(&Position::new());
        for t in all {
            let t = t.expect("everyone alive");
            assert_eq!(t.pieces, [1, 1, 1, 1, 1, 4]);
            assert_eq!((t.ruler, t.attackers, t.corpses), (false, 0, 0));
            assert!(t.has_necro && !t.one_from_encircled);
            // ALIVE + 450 + 350 + 250 + 250 + 4 x 100, and the chief's neighbours all its own.
            assert_eq!(t.strength(&Weights::DEFAULT), 1500 + 1700 + 5 * t.room);
        }
    }

    #[test]
    fn a_vassal_counts_for_its_master_and_danger_is_left_out_when_careless() {
        // Red's chief e1 with blue's Assassin on the file: one attacker. Green rules from the
        // maze and holds yellow's army (its chief dead): yellow's Militant on a3 is green's.
        let p = Position::from_dpn(
            "Cb3Ab4/9/9/9/4Cg4/9/My8/9/4Cr4 r rbgg g 0 - 0 1",
            Rules::default(),
        )
        .expect("a valid position");
        let all = terms(&p);
        assert!(all[Army::Yellow.index()].is_none());
        let red = all[Army::Red.index()].expect("red alive");
        assert_eq!(red.attackers, 1);
        assert!(red.careless_strength(&Weights::DEFAULT) > red.strength(&Weights::DEFAULT));
        let green = all[Army::Green.index()].expect("green alive");
        assert!(green.ruler);
        assert_eq!((green.pieces[5], green.corpses, green.room), (1, 0, 0));
        assert_eq!(
            strengths(&p)[Army::Green.index()],
            green.strength(&Weights::DEFAULT)
        );
    }

    #[test]
    fn weights_change_the_strength_term_by_term() {
        let t = Terms {
            pieces: [1, 1, 0, 0, 1, 2],
            ruler: true,
            attackers: 2,
            corpses: 3,
            room: 1,
            has_necro: false,
            one_from_encircled: true,
        };
        let w = Weights {
            role: [0, 10, 20, 30, 40, 50],
            alive: 1000,
            ruler: 7,
            chief_attacker: 11,
            corpse_neighbour: 1,
            corpse_neighbour_no_necro: 13,
            one_corpse_from_encircled: 17,
            chief_room: 19,
        };
        let careless = 1000 + 10 + 40 + 2 * 50 + 7;
        assert_eq!(t.careless_strength(&w), careless);
        assert_eq!(t.strength(&w), careless - 2 * 11 - 3 * 13 - 17 + 19);
        let with_necro = Terms {
            has_necro: true,
            ..t
        };
        assert_eq!(with_necro.strength(&w), careless - 2 * 11 - 3 + 19);
        let lonely = Terms {
            pieces: [1, 0, 0, 0, 0, 0],
            attackers: 100,
            ..t
        };
        assert_eq!(lonely.strength(&w), MIN_STRENGTH);
    }
}
