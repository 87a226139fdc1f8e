//! Limits and repeatability: the engine answers within its move time even where a position has
//! over a thousand legal turns; a stop flag stops it; the same seed and node budget give the same
//! turn (fresh engine or not); the transposition table stays within its configured size.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use djambi_core::Position;
use djambi_engine::{Engine, EngineConfig, Level, Limits};

fn engine(seed: u64) -> Engine {
    Engine::new(EngineConfig {
        tt_bytes: 4 << 20,
        seed,
    })
}

#[test]
fn answers_within_the_move_time_on_huge_positions() {
    let maze = common::pos(common::MAZE);
    assert!(maze.legal_turns().len() > 1000);
    for (dpn, ms) in [
        (common::MAZE, 1),
        (common::MAZE, 30),
        (common::MAZE, 200),
        (common::MIDDLE, 200),
    ] {
        let p = common::pos(dpn);
        let start = Instant::now();
        let r = engine(1)
            .think(
                &p,
                Level::Hard,
                &Limits::movetime(Duration::from_millis(ms)),
            )
            .unwrap();
        let spent = start.elapsed();
        assert!(p.is_legal(&r.best));
        // A small margin over the limit: the clock is read every 256 nodes, and the one-ply
        // pass over every root turn always completes (a few ms at most).
        assert!(
            spent < Duration::from_millis(ms + 25),
            "{ms} ms asked, {spent:?} spent on {dpn}"
        );
    }
}

#[test]
fn a_stop_flag_stops_the_search() {
    let stop = Arc::new(AtomicBool::new(true));
    let p = common::pos(common::MIDDLE);
    let start = Instant::now();
    let r = engine(1)
        .think(
            &p,
            Level::Hard,
            &Limits {
                movetime: Some(Duration::from_secs(60)),
                nodes: None,
                stop: Some(stop),
            },
        )
        .unwrap();
    assert!(start.elapsed() < Duration::from_millis(500));
    assert!(p.is_legal(&r.best));
}

#[test]
fn same_seed_and_budget_same_turn() {
    let positions = [
        Position::new(),
        common::pos(common::MIDDLE),
        common::pos(common::MAZE),
    ];
    let mut reused = engine(9);
    for p in &positions {
        for level in Level::ALL {
            let limits = Limits::nodes(3_000);
            let a = engine(9).think(p, level, &limits).unwrap();
            let b = engine(9).think(p, level, &limits).unwrap();
            let c = reused.think(p, level, &limits).unwrap();
            assert_eq!(
                (a.best, a.score, a.nodes),
                (b.best, b.score, b.nodes),
                "{level}"
            );
            assert_eq!(
                (a.best, a.score, a.nodes),
                (c.best, c.score, c.nodes),
                "{level}"
            );
            assert_eq!(a.pv, c.pv, "{level}");
        }
    }
    // Different seeds make the random level choose differently somewhere.
    let p = Position::new();
    let turns: std::collections::HashSet<_> = (0..20)
        .map(|s| {
            engine(s)
                .think(&p, Level::Random, &Limits::nodes(1))
                .unwrap()
                .best
        })
        .collect();
    assert!(turns.len() > 5);
}

#[test]
fn the_table_is_bounded_by_its_configured_size() {
    for bytes in [0, 1000, 1 << 20, (3 << 20) + 5] {
        let mut e = Engine::new(EngineConfig {
            tt_bytes: bytes,
            seed: 0,
        });
        assert!(e.tt_bytes() <= bytes.max(16), "{bytes}: {}", e.tt_bytes());
        assert!(e.tt_bytes() * 2 > bytes, "{bytes}: {}", e.tt_bytes());
        let p = common::pos(common::MIDDLE);
        let r = e.think(&p, Level::Hard, &Limits::nodes(20_000)).unwrap();
        assert!(p.is_legal(&r.best));
        assert!(e.tt_bytes() <= bytes.max(16));
    }
}

#[test]
fn deeper_with_more_nodes() {
    let p = Position::new();
    let small = engine(1)
        .think(&p, Level::Hard, &Limits::nodes(500))
        .unwrap();
    let big = engine(1)
        .think(&p, Level::Hard, &Limits::nodes(200_000))
        .unwrap();
    assert!(big.depth > small.depth, "{} vs {}", big.depth, small.depth);
    assert!(big.nodes <= 200_000 + 1 && big.nodes > 100_000);
}
