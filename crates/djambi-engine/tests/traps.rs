//! Opening traps that need two opponents (issue 24): one opponent's Diplomat sets a third army's
//! Militant down next to our Chief, and that army, next to move, kills it. The search must see
//! the placement beside its own Chief (it is one of about fifty for the same displacement) and
//! not walk into the trap, at the levels that search.

use djambi_core::{Position, Turn};
use djambi_engine::{Engine, EngineConfig, Level, Limits};

/// The line an outside referee found, with our bot as red: `c7-d8 h7-g6 g3-f4 c3-f6`, then red's
/// `b8-c7` leaves b8 free, blue's Diplomat puts yellow's h3 Militant there (`h8-h3@b8`), and it
/// kills red's Chief (`b8-a9@a4`).
const BEFORE: [&str; 4] = ["c7-d8", "h7-g6", "g3-f4", "c3-f6"];
const TRAP: [&str; 3] = ["b8-c7", "h8-h3@b8", "b8-a9@a4"];

fn after(turns: &[&str]) -> Position {
    let mut p = Position::new();
    for t in turns {
        let turn: Turn = p.parse_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        p.play(&turn).unwrap();
    }
    p
}

fn think(p: &Position, level: Level, nodes: u64, seed: u64) -> Turn {
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: 1 << 22,
        seed,
    });
    let limits = Limits {
        movetime: None,
        nodes: Some(nodes),
        stop: None,
    };
    engine.think(p, level, &limits).unwrap().best
}

#[test]
fn the_line_is_a_real_trap() {
    // Played out, red's Chief is dead and red is out.
    let p = after(&[&BEFORE[..], &TRAP[..]].concat());
    assert!(!p.is_alive(djambi_core::Army::Red));
}

#[test]
fn hard_does_not_leave_its_chief_to_two_opponents() {
    let p = after(&BEFORE);
    let trap = p.parse_turn(TRAP[0]).unwrap();
    for seed in [1, 2, 3, 4] {
        for nodes in [60_000, 200_000] {
            let best = think(&p, Level::Hard, nodes, seed);
            assert_ne!(
                best, trap,
                "hard (seed {seed}, {nodes} nodes) walks into the trap"
            );
        }
    }
}
