//! Criterion benchmark of the search's speed: `hard` on a 50 000-node budget from the start, a
//! middle game (kills available) and a maze position, reported as nodes per second (criterion's
//! element throughput: one element per node). The budget is exact, so each iteration searches
//! exactly the nodes it is credited with (asserted first).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use djambi_core::{Position, Rules};
use djambi_engine::{Engine, EngineConfig, Level, Limits};

/// The budget of one search.
const NODES: u64 = 50_000;

/// Reached by 18 quiet random turns from the start: 356 legal turns, 316 of them kills.
const MIDDLE: &str = "CrXMr1Nb1MbRbCb/Rr5MbDbAb/MrMrDr4Mb1/Nr1Mr6/3My3Mb1/3Ng5/MgMg2Mg1NyArMy/AgDgMg1Rg1Dy1Ry/Cg5MyAyCy y rbyg b 0 - 1 19";
/// Red rules from the maze; Blue's Diplomat can take the chief off it: 1041 legal turns.
const MAZE: &str = "1ArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr4NbMb/9/4Cr4/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2";

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("hard_nodes");
    group.throughput(Throughput::Elements(NODES));
    group.sample_size(20);
    for (name, dpn) in [
        ("start", None),
        ("middle", Some(MIDDLE)),
        ("maze", Some(MAZE)),
    ] {
        let p = dpn.map_or_else(Position::new, |d| {
            Position::from_dpn(d, Rules::default()).expect("benchmark positions are valid")
        });
        let mut engine = Engine::new(EngineConfig::default());
        let limits = Limits::nodes(NODES);
        let r = engine
            .think(&p, Level::Hard, &limits)
            .expect("a game in progress");
        assert_eq!(r.nodes, NODES, "{name}: the budget is spent exactly");
        group.bench_function(name, |b| {
            b.iter(|| black_box(engine.think(black_box(&p), Level::Hard, &limits)))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
