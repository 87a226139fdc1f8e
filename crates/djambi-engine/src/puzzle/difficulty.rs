//! A puzzle's difficulty, 1 (easy) to 5 (hard), from what makes an answer hard to see. Points:
//!
//! - **depth**: the shallowest search that finds the answer ([`Verified::found_at`]): an answer
//!   a one-ply look finds is seen at a glance, one that needs the opponents' replies is not:
//!   one point per ply beyond the first, at most 2;
//! - **the weakest level that finds it** (in at least half of [`TRIES`] seeds for the noisy
//!   one-ply levels): `beginner` (one ply, blind to its own chief's danger) 0, `easy` (one
//!   greedy ply) 1, `medium` (a few plies on a small budget) 2, none of them 3;
//! - **a tempting wrong capture**: another kill that looks at least as good after one ply (the
//!   static evaluation) but is not, 1;
//! - **choice**: 60 or more different moves (placements not counted), 1.
//!
//! From 0 to 7 points: 0 is difficulty 1, 1–2 is 2, 3 is 3, 4–5 is 4, 6–7 is 5. An answer that
//! every level, `beginner` included, plays at once in every seed is difficulty 1 whatever the
//! rest says: there is nothing to find.

use djambi_core::{Position, Turn};

use crate::engine::{Engine, EngineConfig, MEDIUM_NODES};
use crate::eval;
use crate::level::Level;
use crate::puzzle::verify::Verified;
use crate::time::Limits;

/// The seeds each one-ply level is tried with.
pub const TRIES: u32 = 4;

/// Different moves (placements not counted) from which a position counts as a wide choice.
const WIDE: usize = 60;

/// What the difficulty is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signals {
    /// [`Verified::found_at`].
    pub found_at: u32,
    /// The player's different moves (turns differing only in a placement count once).
    pub moves: usize,
    /// Other kills (placements not counted) that score at least as well as the answer after
    /// one ply.
    pub tempting: usize,
    /// In how many of [`TRIES`] seeds `beginner` plays the answer.
    pub beginner: u32,
    /// In how many of [`TRIES`] seeds `easy` plays the answer.
    pub easy: u32,
    /// Whether `medium` plays it.
    pub medium: bool,
}

impl Signals {
    /// Reads the signals of the verified answer in `pos`.
    pub fn read(pos: &Position, verified: &Verified) -> Signals {
        let answer = verified.solution;
        let mut engine = Engine::new(EngineConfig {
            tt_bytes: 1 << 20,
            seed: 0,
        });
        let mut finds = |level: Level, seed: u64| {
            engine.set_seed(seed);
            engine
                .think(pos, level, &Limits::nodes(MEDIUM_NODES))
                .is_ok_and(|r| r.best == answer)
        };
        let count = |finds: &mut dyn FnMut(Level, u64) -> bool, level| {
            (0..TRIES).filter(|&s| finds(level, u64::from(s))).count() as u32
        };
        let beginner = count(&mut finds, Level::Beginner);
        let easy = count(&mut finds, Level::Easy);
        let medium = finds(Level::Medium, 0);
        let (moves, tempting) = choice(pos, &answer);
        Signals {
            found_at: verified.found_at,
            moves,
            tempting,
            beginner,
            easy,
            medium,
        }
    }

    /// The difficulty, 1 to 5, as the module describes it.
    pub fn difficulty(&self) -> u8 {
        if self.beginner == TRIES && self.easy == TRIES && self.medium {
            return 1;
        }
        let weakest = if self.beginner * 2 >= TRIES {
            0
        } else if self.easy * 2 >= TRIES {
            1
        } else if self.medium {
            2
        } else {
            3
        };
        let points = self.found_at.saturating_sub(1).min(2)
            + weakest
            + u32::from(self.tempting >= 1)
            + u32::from(self.moves >= WIDE);
        [1, 2, 2, 3, 4, 4, 5, 5][points.min(7) as usize]
    }
}

/// The number of different moves in `pos`, and of other kills that look at least as good as
/// `answer` after one ply.
fn choice(pos: &Position, answer: &Turn) -> (usize, usize) {
    let Some(me) = pos.to_move() else {
        return (0, 0);
    };
    let living = |p: &Position| p.board().pieces().count();
    let before = living(pos);
    let one_ply = |t: &Turn| {
        let mut child = *pos;
        child.play_unchecked(t);
        (eval::terminal(&child, me, 1), living(&child) < before)
    };
    let (goal, _) = one_ply(answer);
    let key = |t: &Turn| t.as_move().map(|m| (m.from, m.to, m.victim, m.exit));
    let mut moves = 0;
    let mut tempting = 0;
    let mut last = None;
    let mut counted = false;
    for t in pos.legal_turns() {
        let k = key(&t);
        if k != last || k.is_none() {
            moves += 1;
            last = k;
            counted = false;
        }
        if counted || k == key(answer) {
            continue;
        }
        let (score, kills) = one_ply(&t);
        if kills && score >= goal {
            tempting += 1;
            counted = true;
        }
    }
    (moves, tempting)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: Signals = Signals {
        found_at: 1,
        moves: 20,
        tempting: 0,
        beginner: TRIES,
        easy: TRIES,
        medium: true,
    };

    #[test]
    fn points_make_the_difficulty() {
        assert_eq!(EASY.difficulty(), 1);
        // Every level finds it: 1, even with a wide choice.
        assert_eq!(Signals { moves: 90, ..EASY }.difficulty(), 1);
        let missed = Signals {
            beginner: 1,
            ..EASY
        };
        assert_eq!(missed.difficulty(), 2);
        assert_eq!(
            Signals {
                found_at: 2,
                ..missed
            }
            .difficulty(),
            2
        );
        assert_eq!(
            Signals {
                found_at: 3,
                ..missed
            }
            .difficulty(),
            3
        );
        let deep = Signals {
            found_at: 4,
            beginner: 0,
            easy: 1,
            medium: false,
            ..EASY
        };
        assert_eq!(deep.difficulty(), 4);
        assert_eq!(
            Signals {
                medium: true,
                ..deep
            }
            .difficulty(),
            4
        );
        assert_eq!(
            Signals {
                tempting: 1,
                ..deep
            }
            .difficulty(),
            5
        );
        assert_eq!(
            Signals {
                tempting: 2,
                moves: 80,
                ..deep
            }
            .difficulty(),
            5
        );
    }
}
