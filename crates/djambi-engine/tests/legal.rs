//! The engine plays only legal turns: thousands of positions from seeded random playouts —
//! the 4-player start, 3-player starts with each army as the hostage, every ruleset option,
//! positions with a ruler on the maze and kills with many placements — each asked at every
//! level on a small node budget. It never passes while another turn exists, and it answers
//! `GameOver` exactly when the game is over.

mod common;

use std::num::NonZeroU32;

use djambi_core::{Army, Position, Role, Rules, Turn};
use djambi_engine::{Engine, EngineConfig, GameOver, Level, Limits, Rng};

fn positions() -> usize {
    if cfg!(debug_assertions) { 150 } else { 2500 }
}

fn rules(rng: &mut Rng) -> Rules {
    Rules {
        own_kills: rng.percent(30),
        diplomat_to_maze: rng.percent(70),
        turn_limit: NonZeroU32::new(20 + rng.below(60) as u32),
    }
}

#[derive(Default, Debug)]
struct Coverage {
    asked: usize,
    three_player: usize,
    ruler: usize,
    many_turns: usize,
    own_kills: usize,
    no_diplomat_to_maze: usize,
    vassals: usize,
    only_pass: usize,
}

#[test]
fn only_legal_turns_over_random_positions() {
    let mut rng = Rng::new(2024);
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: 1 << 18,
        seed: 5,
    });
    let mut cov = Coverage::default();
    let mut game = 0;
    while cov.asked < positions() {
        game += 1;
        let r = rules(&mut rng);
        let mut p = match game % 5 {
            0 => Position::start(r),
            h => Position::start_hostage(Army::ALL[(h + game / 5) % 4], r),
        };
        // Walk a random game, asking the engine now and then.
        while !p.is_game_over() && cov.asked < positions() {
            let legal = p.legal_turns();
            if rng.percent(if legal.len() > 300 || p.ruler().is_some() {
                30
            } else {
                10
            }) {
                check(&mut engine, &p, &legal, &mut rng, &mut cov);
            }
            // Random turns, but a chief takes the maze when it can (more ruler positions).
            let to_maze = legal.iter().find(|t| {
                t.as_move().is_some_and(|m| {
                    m.to.is_maze() && p.board()[m.from].role() == Some(Role::Chief)
                })
            });
            let t = match to_maze {
                Some(t) if rng.percent(70) => *t,
                _ => legal[rng.below(legal.len())],
            };
            p.play(&t).unwrap();
        }
        // A finished game has nothing to choose.
        if p.is_game_over() {
            for level in Level::ALL {
                assert_eq!(
                    engine.think(&p, level, &Limits::nodes(100)).unwrap_err(),
                    GameOver
                );
            }
        }
    }
    println!("{cov:?}");
    // Every kind of position was asked about often (fractions of the total, so that the
    // shorter debug run checks the same).
    let n = positions();
    assert!(cov.three_player > n / 10, "{cov:?}");
    assert!(cov.ruler > n / 25, "{cov:?}");
    assert!(cov.many_turns > n / 25, "{cov:?}");
    assert!(cov.own_kills > n / 25, "{cov:?}");
    assert!(cov.no_diplomat_to_maze > n / 25, "{cov:?}");
    assert!(cov.vassals > n / 50, "{cov:?}");
}

fn check(engine: &mut Engine, p: &Position, legal: &[Turn], rng: &mut Rng, cov: &mut Coverage) {
    cov.asked += 1;
    cov.three_player += usize::from(p.hostage().is_some());
    cov.ruler += usize::from(p.ruler().is_some());
    cov.many_turns += usize::from(legal.len() > 300);
    cov.own_kills += usize::from(p.rules().own_kills);
    cov.no_diplomat_to_maze += usize::from(!p.rules().diplomat_to_maze);
    let mover = p.to_move().unwrap();
    cov.vassals += usize::from(p.armies_of(mover).len() > 1);
    cov.only_pass += usize::from(legal == [Turn::Pass]);
    let nodes = 50 + rng.below(400) as u64;
    for level in Level::ALL {
        let r = engine.think(p, level, &Limits::nodes(nodes)).unwrap();
        assert!(legal.contains(&r.best), "{level} played {} in {p}", r.best);
        assert!(
            !r.best.is_pass() || legal == [Turn::Pass],
            "{level} passed in {p}"
        );
        assert_eq!(r.pv.first(), Some(&r.best));
        // The best line is a line of legal turns.
        let mut q = *p;
        for t in &r.pv {
            assert!(q.is_legal(t), "pv {:?} in {p}", r.pv);
            q.play_unchecked(t);
        }
    }
}

#[test]
fn the_big_positions_get_legal_answers() {
    let mut engine = Engine::new(EngineConfig::default());
    for dpn in [common::MIDDLE, common::MAZE] {
        let p = common::pos(dpn);
        let legal = p.legal_turns();
        for level in Level::ALL {
            let r = engine.think(&p, level, &Limits::nodes(3000)).unwrap();
            assert!(legal.contains(&r.best), "{level}: {}", r.best);
        }
    }
}

#[test]
fn pass_only_when_it_is_the_only_turn() {
    // Red's chief and militants are boxed in by corpses and each other: pass alone.
    let boxed = common::pos("CrMrX6/MrMrX6/XXX6/9/9/9/9/9/8Cb r rb-- - 0 - 0 5");
    let mut engine = Engine::default();
    for level in Level::ALL {
        let r = engine.think(&boxed, level, &Limits::nodes(100)).unwrap();
        assert_eq!(r.best, Turn::Pass);
    }
}
