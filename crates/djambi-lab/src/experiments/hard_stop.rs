//! `hard-stop`: `hard` that does not start a fifth ply where none fits the limits (issue 24;
//! measured, not landed: `docs/lab/strength.md`, "The partial fifth ply").
//!
//! A fifth Paranoid ply costs about fifty times the fourth ([`FIFTH_PLY_COST`]), so on the
//! clock `hard` usually completes the fourth ply in a fraction of its move time and spends the
//! rest on a fifth it does not finish, playing that partial iteration's turn when one beats the
//! fourth ply's best at the new depth. `hard-stop` stops after a completed fourth ply when the
//! limits leave less than a fifth is expected to cost, and plays the fourth ply's best at once;
//! where a fifth fits (simple positions, endings) it deepens as `hard` does. Alone against three
//! `hard` at 250 ms it scored 0.233 (0.197 – 0.270) over 400 games, in about a third of `hard`'s
//! time: no stronger.

use djambi_core::Position;
use djambi_engine::search::{Iteration, IterationHook, Next};

/// Its name in the arena.
pub const NAME: &str = "hard-stop";

/// What it changes in `hard`.
pub const SUMMARY: &str = "hard stopping at a completed fourth ply when no fifth fits the limits";

/// A hook for one engine seat.
pub fn hook() -> Box<dyn IterationHook> {
    Box::new(HardStop)
}

/// The depth after which a fifth ply may not be started.
pub const FOURTH: u32 = 4;

/// How many times the nodes used so far a fifth ply is expected to cost at least: when the
/// limits leave less, it is not started.
pub const FIFTH_PLY_COST: f64 = 50.0;

/// The hook: stop after the fourth ply when no fifth fits.
pub struct HardStop;

impl IterationHook for HardStop {
    fn after_iteration(&mut self, _pos: &Position, it: &Iteration<'_>) -> Next {
        // The limits leave less than a fifth ply costs, but still room to search (without room
        // no iteration starts anyway).
        let no_fifth_fits = it.used * FIFTH_PLY_COST >= 1.0 && it.may_deepen;
        if it.depth == FOURTH && no_fifth_fits {
            Next::Stop
        } else {
            Next::Deepen
        }
    }
}

#[cfg(test)]
mod tests {
    use djambi_core::{Position, Rules};
    use djambi_engine::search::{Iteration, IterationHook, Next};
    use djambi_engine::{Engine, EngineConfig, Level, Limits, Report};

    use super::{FOURTH, HardStop};

    /// The outside referee's opening (`c7-d8 h7-g6 g3-f4 c3-f6`), red to move: red's `b8-c7`
    /// now loses its chief to two opponents within four plies.
    fn referee_opening() -> Position {
        let mut p = Position::new();
        for t in ["c7-d8", "h7-g6", "g3-f4", "c3-f6"] {
            p.play(&p.parse_turn(t).unwrap()).unwrap();
        }
        p
    }

    /// Stops after the fourth ply, whatever the limits: the search a cap of four plies gives.
    struct Four;

    impl IterationHook for Four {
        fn after_iteration(&mut self, _pos: &Position, it: &Iteration<'_>) -> Next {
            if it.depth == FOURTH {
                Next::Stop
            } else {
                Next::Deepen
            }
        }
    }

    fn think(p: &Position, hook: Option<Box<dyn IterationHook>>, nodes: u64) -> Report {
        let config = EngineConfig {
            tt_bytes: 1 << 22,
            seed: 1,
        };
        let mut engine = match hook {
            Some(hook) => Engine::with_hook(config, hook),
            None => Engine::new(config),
        };
        engine.think(p, Level::Hard, &Limits::nodes(nodes)).unwrap()
    }

    /// After the referee's opening, 400 000 nodes complete the fourth ply and leave less than a
    /// fifth costs: `hard-stop` stops there, exactly where a search capped at four plies stops
    /// (same nodes, same turn, not `b8-c7`), and the same budget gives the same turn; `hard`
    /// goes on into the fifth ply and spends the budget.
    #[test]
    fn the_fifth_ply_is_not_started_where_it_does_not_fit() {
        const NODES: u64 = 400_000;
        let p = referee_opening();
        let capped = think(&p, Some(Box::new(Four)), NODES);
        let stopped = think(&p, Some(Box::new(HardStop)), NODES);
        let again = think(&p, Some(Box::new(HardStop)), NODES);
        assert_eq!(capped.depth, FOURTH);
        assert_eq!(
            (stopped.depth, stopped.nodes, stopped.best),
            (capped.depth, capped.nodes, capped.best)
        );
        assert_eq!((again.nodes, again.best), (stopped.nodes, stopped.best));
        assert_ne!(stopped.best, p.parse_turn("b8-c7").unwrap());
        assert!(
            stopped.nodes * 50 >= NODES,
            "no fifth fits: {}",
            stopped.nodes
        );
        let hard = think(&p, None, NODES);
        assert!(hard.nodes >= NODES, "{}", hard.nodes);
    }

    /// Where a fifth ply fits the limits (an ending of a few pieces, whose fourth ply costs a
    /// small part of the budget), `hard-stop` goes deeper than the fourth ply as `hard` does.
    #[test]
    fn the_fifth_ply_is_searched_where_it_fits() {
        let p = Position::from_dpn(
            "Cb2Mb5/9/Mb8/9/9/9/8Mr/9/4Mr2Cr1 r rb-- - 0 - 0 3",
            Rules::default(),
        )
        .unwrap();
        let out = think(&p, Some(Box::new(HardStop)), 2_000_000);
        assert!(
            out.score.abs() < djambi_engine::eval::WIN_THRESHOLD,
            "not decided"
        );
        assert!(out.depth > FOURTH, "depth {}", out.depth);
    }
}
