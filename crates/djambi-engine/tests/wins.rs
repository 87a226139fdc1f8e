//! The engine takes a win that is there: when the last enemy chief can be killed now, it kills
//! it — by Assassin, Reporter, Chief or Militant, with two players left or with vassal armies
//! on the board — at every searching level, on a node budget and on a move time.

mod common;

use std::time::Duration;

use djambi_core::{Outcome, Position};
use djambi_engine::{Engine, EngineConfig, Level, Limits};

fn wins_now(p: &Position, level: Level, limits: &Limits) {
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: 1 << 20,
        seed: 11,
    });
    let r = engine.think(p, level, limits).unwrap();
    let mut q = *p;
    q.play(&r.best).unwrap();
    assert_eq!(
        q.outcome(),
        Outcome::Winner(p.to_move().unwrap()),
        "{level} played {} in {p} (score {}, depth {})",
        r.best,
        r.score,
        r.depth
    );
}

/// Positions where the player to move can end the game this turn, and decoys: other kills
/// (a richer piece, the Assassin) it must not prefer.
const WINS: [&str; 6] = [
    // Red's Assassin a1 (up the file) or Chief i1 (across the empty maze) kills blue's chief
    // on a9; a blue Assassin is a decoy.
    "Cb8/9/9/9/9/9/2Ab6/9/Ar7Cr r rb-- - 0 - 0 3",
    // Red's Reporter moves c1-c5 and kills beside it on b5; blue's Assassin hangs on i1.
    "9/9/9/9/1Cb7/9/9/Cr8/2Rr5Ab r rb-- - 0 - 0 3",
    // Red's chief kills blue's chief on the maze (R7.6) and buries it.
    "Cr8/9/9/9/4Cb4/9/9/9/9 r rb-- - 0 - 0 3",
    // Red's Militant b3 kills yellow's chief at b5 (two squares); red controls blue's army,
    // green's is orphaned.
    "MgNg7/9/MbDbAb6/9/1Cy7/9/1Mr7/9/Cr8 r rry- y 0 - 0 7",
    // The same with green's army a vassal of red.
    "MgNg7/9/MbDbAb6/9/1Cy7/9/1Mr7/9/Cr8 r rryr y 0 - 0 7",
    // Three players were four: red, controlling blue's army, kills green's chief with a Reporter
    // after moving next to it (d4-d2, victim c2).
    "9/9/9/Ab8/3Rr5/9/9/2Cg6/Cr7Mb r rr-g - 0 - 0 9",
];

fn positions() -> Vec<Position> {
    WINS.iter()
        .filter_map(|d| Position::from_dpn(d, Default::default()).ok())
        .filter(|p| {
            // Only positions where a winning turn exists (checked with the rules).
            let me = p.to_move();
            me.is_some()
                && p.legal_turns().iter().any(|t| {
                    let mut q = *p;
                    q.play_unchecked(t);
                    q.outcome() == Outcome::Winner(me.unwrap())
                })
        })
        .collect()
}

#[test]
fn every_test_position_has_a_win() {
    assert_eq!(positions().len(), WINS.len());
}

#[test]
fn hard_and_medium_take_the_win_on_a_node_budget() {
    for p in positions() {
        for level in [Level::Medium, Level::Hard] {
            wins_now(&p, level, &Limits::nodes(2_000));
        }
    }
}

#[test]
fn hard_takes_the_win_on_a_short_move_time() {
    for p in positions() {
        wins_now(
            &p,
            Level::Hard,
            &Limits::movetime(Duration::from_millis(20)),
        );
        wins_now(&p, Level::Hard, &Limits::movetime(Duration::from_millis(1)));
    }
}

#[test]
fn the_score_says_won() {
    let mut engine = Engine::default();
    for p in positions() {
        let r = engine.think(&p, Level::Hard, &Limits::nodes(1000)).unwrap();
        assert!(r.score >= djambi_engine::eval::WIN_THRESHOLD, "{}", r.score);
    }
}
