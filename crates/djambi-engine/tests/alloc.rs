//! No allocation storm: after a first search has warmed the buffers up, a search allocates a
//! handful of times per call (its report), not per node.

mod common;

use djambi_engine::{Engine, EngineConfig, Level, Limits};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// One test only: the allocation counter is process-wide.
#[test]
fn a_search_allocates_nothing_per_node() {
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: 1 << 20,
        seed: 3,
    });
    let positions = [
        djambi_core::Position::new(),
        common::pos(common::MIDDLE),
        common::pos(common::MAZE),
    ];
    for p in &positions {
        engine
            .think(p, Level::Hard, &Limits::nodes(20_000))
            .unwrap();
    }
    for p in &positions {
        let region = Region::new(GLOBAL);
        let r = engine
            .think(p, Level::Hard, &Limits::nodes(50_000))
            .unwrap();
        let stats = region.change();
        println!("{p}: {} nodes, {stats:?}", r.nodes);
        assert!(r.nodes >= 40_000, "{}", r.nodes);
        assert!(
            stats.allocations + stats.reallocations <= 8,
            "{} allocations for {} nodes",
            stats.allocations + stats.reallocations,
            r.nodes
        );
    }
}
