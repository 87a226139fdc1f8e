//! The `beginner` level: it sees what it can take, not what it risks.
//!
//! A player for someone's first games, weaker than `easy` in three documented ways, each of
//! them a mistake a new player makes:
//!
//! 1. It looks one ply deep only, and at that ply through [`eval::careless_share`]: its own
//!    chief's danger (enemy attackers, corpses round it) does not count, so it walks its chief
//!    into lines of fire and leaves it there. It does see what it takes (material moves to it,
//!    a killed chief's army with it) and the danger it puts the others' chiefs in.
//! 2. Its noise ([`BEGINNER_NOISE`]) is two and a half times `easy`'s, so among turns that
//!    gain less than an Assassin it chooses almost at random.
//! 3. Three turns in ten ([`BEGINNER_RANDOM_PERCENT`]) are uniformly random.
//!
//! The arena (docs/ARENA.md, "The ladder") tried noise 2 500 with 25 % random turns, 3 000
//! with 30 % and 3 500 with 35 %: `easy` against three `beginner`s scored 0.39, 0.39 – 0.43 and
//! 0.43 per game (1 000 games each), `beginner` against three `random`s 0.66, 0.63 – 0.65 and
//! 0.62 — differences within the spread between seeds. Its edge over `random` comes mostly from
//! never missing a chief, its gap to `easy` from its blindness; the middle pair was kept, noisy
//! enough to vary clearly more than `easy`, with most of its turns still chosen.
//!
//! One thing it never misses: a turn that puts an opponent out of the game (a chief killed or
//! encircled) is played whenever there is one, before the random roll — a bot that does not
//! take a chief offered to it teaches nothing, and losing a chief left in an Assassin's line is
//! the lesson of a first game.

use djambi_core::{Position, Turn};

use crate::eval;
use crate::rng::Rng;

/// How much noise `beginner` adds to each turn's careless one-ply share (in 1/100 000 of the
/// game), uniform in ±this: two and a half times `easy`'s
/// [`EASY_NOISE`](crate::search::greedy::EASY_NOISE). At the start a Militant taken is worth
/// about 200, an Assassin about 900 and the maze about 3 000, so it mostly goes for the maze,
/// sometimes takes a piece it sees (a kill comes in dozens of placements, each with its own
/// draw), and otherwise plays one of many turns that look alike to it.
pub const BEGINNER_NOISE: i32 = 3000;

/// How often (in percent) `beginner` plays a uniformly random turn instead, when it cannot
/// put an opponent out: 30, against `easy`'s
/// [`EASY_RANDOM_PERCENT`](crate::search::greedy::EASY_RANDOM_PERCENT) of 10. A new player
/// must see the bot blunder, and the lower level must vary more.
pub const BEGINNER_RANDOM_PERCENT: u32 = 30;

/// The `beginner` choice (see the module's text): a turn that eliminates an opponent if there
/// is one; else, three times in ten, a uniformly random turn; else the turn with the best careless
/// one-ply share plus noise. Returns the turn and its one-ply score as the real evaluation
/// ([`eval::terminal`]) sees it, or `None` when the game is over.
pub fn beginner_turn(pos: &Position, rng: &mut Rng, buf: &mut Vec<Turn>) -> Option<(Turn, i32)> {
    let me = pos.to_move()?;
    pos.legal_turns_into(buf);
    if buf.is_empty() {
        return None;
    }
    let opponents = pos.alive().without(me);
    // (turn, noisy careless score), the best overall and the best that puts someone out.
    let mut best: Option<(Turn, i32)> = None;
    let mut best_kill: Option<(Turn, i32)> = None;
    for t in buf.iter() {
        let mut child = *pos;
        child.play_unchecked(t);
        let seen = match child.outcome() {
            djambi_core::Outcome::Ongoing => eval::careless_share(&child, me),
            _ => eval::terminal(&child, me, 1),
        };
        let noisy = seen.saturating_add(rng.noise(BEGINNER_NOISE));
        if best.is_none_or(|(_, b)| noisy > b) {
            best = Some((*t, noisy));
        }
        let eliminates = opponents.iter().any(|p| !child.is_alive(p));
        if eliminates && best_kill.is_none_or(|(_, b)| noisy > b) {
            best_kill = Some((*t, noisy));
        }
    }
    let turn = match best_kill {
        Some((t, _)) => t,
        None if rng.percent(BEGINNER_RANDOM_PERCENT) => buf[rng.below(buf.len())],
        None => best?.0,
    };
    let mut child = *pos;
    child.play_unchecked(&turn);
    Some((turn, eval::terminal(&child, me, 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    /// The start, but red's Assassin stands on a6 in line with blue's chief on i6.
    const CHIEF_HANGS: &str = "Cr1Mr3MbRb1/RrDrMr3MbDbAb/MrMrNr3NbMbMb/Ar7Cb/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";

    #[test]
    fn always_answers_a_legal_turn() {
        let mut buf = Vec::new();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let mut p = Position::start(Rules {
                turn_limit: std::num::NonZeroU32::new(40),
                ..Rules::default()
            });
            while let Some((t, _)) = beginner_turn(&p, &mut rng, &mut buf) {
                assert!(p.is_legal(&t), "{t} in {}", p.to_dpn());
                p.play(&t).unwrap();
            }
            assert!(p.is_game_over());
        }
    }

    #[test]
    fn kills_a_chief_it_can_kill() {
        let p = pos(CHIEF_HANGS);
        let mut buf = Vec::new();
        let kills = (0..100)
            .filter(|&seed| {
                let (t, _) = beginner_turn(&p, &mut Rng::new(seed), &mut buf).unwrap();
                let mut child = p;
                child.play(&t).unwrap();
                !child.is_alive(djambi_core::Player::Blue)
            })
            .count();
        assert!(kills >= 90, "{kills} of 100");
    }

    #[test]
    fn differs_across_seeds_from_the_start() {
        let p = Position::new();
        let mut buf = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..30 {
            let (t, _) = beginner_turn(&p, &mut Rng::new(seed), &mut buf).unwrap();
            seen.insert(t);
        }
        assert!(seen.len() >= 10, "{} different turns", seen.len());
        // And one seed gives one turn.
        let a = beginner_turn(&p, &mut Rng::new(5), &mut buf).unwrap();
        assert_eq!(beginner_turn(&p, &mut Rng::new(5), &mut buf).unwrap(), a);
    }

    #[test]
    fn a_finished_game_has_no_turn() {
        let over = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
        assert_eq!(
            beginner_turn(&over, &mut Rng::new(1), &mut Vec::new()),
            None
        );
    }
}
