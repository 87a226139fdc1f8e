//! The Max-N-2 material baseline (Luckhardt & Irani 1986's max^n, two plies): the reference the
//! arena measures the levels against, and what the best public Djambi programs play.
//!
//! Exactly:
//! 1. The material vector of a position gives each player the sum of [`MAXN_VALUE`] over the
//!    living pieces of every army it controls (its own and its vassals); a player who is out has
//!    0. Orphaned and hostage armies count for nobody.
//! 2. The player to move P tries each of its legal turns (every placement included).
//! 3. After each, the next player to move Q (whoever the rules say: a ruler's bonus turn, or P
//!    itself) tries each of its legal turns and keeps the one maximising Q's own component;
//!    among Q's equally good replies it assumes the one worst for P (a cautious tie-break). If
//!    the game is over after P's turn, that position's vector counts.
//! 4. P plays the turn whose resulting P component is largest; ties are broken uniformly at
//!    random with the seeded generator.
//!
//! It is faithful: no pruning, no sampling of placements, every reply of every turn played and
//! counted (about 120 000 positions in a middle game with kills, a million in maze positions).

use djambi_core::{Army, Controller, Position, Turn};

use djambi_engine::Rng;

/// The baseline's piece values, indexed by `Role as usize`: Chief 10 (the largest), Assassin 4,
/// Reporter 4, Diplomat 3, Necromobile 2, Militant 1.
pub const MAXN_VALUE: [i32; 6] = [10, 4, 4, 3, 2, 1];

/// The material vector of `pos` (indexed by player).
pub fn material(pos: &Position) -> [i32; 4] {
    let mut per_army = [0i32; 4];
    for (_, piece) in pos.board().pieces() {
        per_army[piece.army.index()] += MAXN_VALUE[piece.role as usize];
    }
    let mut v = [0i32; 4];
    for a in Army::ALL {
        if let Controller::Player(p) = pos.control(a) {
            v[p.index()] += per_army[a.index()];
        }
    }
    v
}

/// Reusable buffers for [`maxn2`] and the referee's player.
#[derive(Default)]
pub struct MaxnScratch {
    first: Vec<Turn>,
    second: Vec<Turn>,
    ties: Vec<Turn>,
}

/// How the next player chooses among its equally good replies, in [`two_ply`].
#[derive(Clone, Copy)]
pub(crate) enum ReplyTie {
    /// The reply worst for the first player (a cautious assumption).
    Cautious,
    /// One of them uniformly at random (reservoir sampling with the player's generator).
    Random,
}

/// Max^n over two plies with the value vector `value`: the player to move tries each of its
/// legal turns; after each, the next player to move picks the reply of highest value for itself
/// (ties as `tie` says); the turn of highest value for the first player after that reply (or
/// after its own turn when the game is then over) is played, ties broken uniformly at random.
pub(crate) fn two_ply(
    pos: &Position,
    rng: &mut Rng,
    scratch: &mut MaxnScratch,
    value: impl Fn(&Position) -> [i32; 4],
    tie: ReplyTie,
) -> Option<Turn> {
    let me = pos.to_move()?.index();
    pos.legal_turns_into(&mut scratch.first);
    let mut best = i32::MIN;
    scratch.ties.clear();
    for t in &scratch.first {
        let mut child = *pos;
        child.play_unchecked(t);
        let mine = match child.to_move() {
            None => value(&child)[me],
            Some(q) => {
                let q = q.index();
                child.legal_turns_into(&mut scratch.second);
                let (mut top, mut mine, mut count) = (i32::MIN, 0, 0usize);
                for r in &scratch.second {
                    let mut grand = child;
                    grand.play_unchecked(r);
                    let v = value(&grand);
                    if v[q] > top {
                        (top, mine, count) = (v[q], v[me], 1);
                    } else if v[q] == top {
                        count += 1;
                        let replace = match tie {
                            ReplyTie::Cautious => v[me] < mine,
                            // The k-th tie replaces the kept one with probability 1/k.
                            ReplyTie::Random => rng.below(count) == 0,
                        };
                        if replace {
                            mine = v[me];
                        }
                    }
                }
                mine
            }
        };
        if mine > best {
            best = mine;
            scratch.ties.clear();
        }
        if mine == best {
            scratch.ties.push(*t);
        }
    }
    Some(scratch.ties[rng.below(scratch.ties.len())])
}

/// The Max-N-2 choice for the player to move, or `None` when the game is over.
pub fn maxn2(pos: &Position, rng: &mut Rng, scratch: &mut MaxnScratch) -> Option<Turn> {
    two_ply(pos, rng, scratch, material, ReplyTie::Cautious)
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn start_vector_and_a_legal_choice() {
        let p = Position::new();
        assert_eq!(material(&p), [27; 4]);
        let mut s = MaxnScratch::default();
        let t = maxn2(&p, &mut Rng::new(1), &mut s).unwrap();
        assert!(p.is_legal(&t));
    }

    #[test]
    fn takes_the_last_chief() {
        // Red's Assassin on a1 (up the file) or its chief on i1 (across the empty maze) kills
        // blue's chief on a9 and wins.
        let p = Position::from_dpn("Cb8/9/9/9/9/9/9/9/Ar7Cr r rb-- - 0 - 0 3", Rules::default())
            .unwrap();
        for seed in 0..5 {
            let t = maxn2(&p, &mut Rng::new(seed), &mut MaxnScratch::default()).unwrap();
            let mut q = p;
            q.play(&t).unwrap();
            assert_eq!(q.outcome(), djambi_core::Outcome::Winner(Army::Red), "{t}");
        }
    }
}
