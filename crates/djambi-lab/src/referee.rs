//! The referee's Max-N-2 player: the opponent an outside referee measures `hard` against (issue
//! 24), after mabdelaal86/djambi's AI. Harder than [`crate::maxn`]'s baseline in three ways: its
//! piece values are far apart (a chief is worth 300 militants' 5), a player's own elimination and
//! another's win weigh in, and each player maximises its *lead* over the others rather than its
//! own material, so it also likes to take the others' pieces.
//!
//! Exactly:
//! 1. Each player's value `v` is the sum of [`REFEREE_VALUE`] over the living pieces of every army
//!    it controls (its own and its vassals), minus [`ELIMINATED`] once it is out, plus [`WON`]
//!    when it has won. Orphaned and hostage armies count for nobody.
//! 2. A player's utility is `4 · v_self − Σ v` (the four players' values summed).
//! 3. The player to move P tries each of its legal turns (every placement included); after each,
//!    the next player to move Q (a ruler's bonus turn, or P itself) picks its reply of highest
//!    utility for Q, ties broken uniformly at random; P's value of its turn is P's utility after
//!    that reply (or after its own turn when the game is then over).
//! 4. P plays a turn of highest value, ties broken uniformly at random (seeded per game).

use djambi_core::{Army, Controller, Outcome, Position, Turn};

use djambi_engine::Rng;

use crate::maxn::{MaxnScratch, ReplyTie, two_ply};

/// The referee's piece values, indexed by `Role as usize`: Chief 300, Assassin 15, Reporter 18,
/// Diplomat 10, Necromobile 10, Militant 5.
pub const REFEREE_VALUE: [i32; 6] = [300, 15, 18, 10, 10, 5];

/// What a player loses by being out.
pub const ELIMINATED: i32 = 500;

/// What the winner gains.
pub const WON: i32 = 1000;

/// Each player's utility in `pos`: `4 · v_self − Σ v`.
pub fn utility(pos: &Position) -> [i32; 4] {
    let mut per_army = [0i32; 4];
    for (_, piece) in pos.board().pieces() {
        per_army[piece.army.index()] += REFEREE_VALUE[piece.role as usize];
    }
    let mut v = [0i32; 4];
    for a in Army::ALL {
        if let Controller::Player(p) = pos.control(a) {
            v[p.index()] += per_army[a.index()];
        }
    }
    let alive = pos.alive();
    for p in Army::ALL {
        if !alive.contains(p) {
            v[p.index()] -= ELIMINATED;
        }
    }
    if let Outcome::Winner(w) = pos.outcome() {
        v[w.index()] += WON;
    }
    let sum: i32 = v.iter().sum();
    v.map(|x| 4 * x - sum)
}

/// The referee's Max-N-2 choice for the player to move, or `None` when the game is over.
pub fn referee2(pos: &Position, rng: &mut Rng, scratch: &mut MaxnScratch) -> Option<Turn> {
    two_ply(pos, rng, scratch, utility, ReplyTie::Random)
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn start_utilities_are_even() {
        assert_eq!(utility(&Position::new()), [0; 4]);
        let t = referee2(
            &Position::new(),
            &mut Rng::new(1),
            &mut MaxnScratch::default(),
        );
        assert!(Position::new().is_legal(&t.unwrap()));
    }

    #[test]
    fn takes_the_last_chief() {
        let p = Position::from_dpn("Cb8/9/9/9/9/9/9/9/Ar7Cr r rb-- - 0 - 0 3", Rules::default())
            .unwrap();
        let u = utility(&p);
        // Two living players, red with a chief and an assassin, blue with a chief; two out.
        let v = [315, 300, -500, -500];
        let sum: i32 = v.iter().sum();
        assert_eq!(u, v.map(|x| 4 * x - sum));
        for seed in 0..5 {
            let t = referee2(&p, &mut Rng::new(seed), &mut MaxnScratch::default()).unwrap();
            let mut q = p;
            q.play(&t).unwrap();
            assert_eq!(q.outcome(), Outcome::Winner(Army::Red), "{t}");
        }
    }
}
