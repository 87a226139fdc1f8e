//! Criterion benchmarks of the rules engine: legal-turn generation on an opening, a middle-game
//! (kills available) and a maze position; playing a turn; perft(4) from the start. Each asserts
//! its node count first, so the benchmarks double as checks.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use djambi_core::{Position, Rules, Turn, perft};

/// Reached by 18 quiet random turns from the start: 356 legal turns, 316 of them kills.
const MIDDLE: &str = "CrXMr1Nb1MbRbCb/Rr5MbDbAb/MrMrDr4Mb1/Nr1Mr6/3My3Mb1/3Ng5/MgMg2Mg1NyArMy/AgDgMg1Rg1Dy1Ry/Cg5MyAyCy y rbyg b 0 - 1 19";
/// Red rules from the maze; Blue's Diplomat can take the chief off it: 1041 legal turns.
const MAZE: &str = "1ArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr4NbMb/9/4Cr4/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2";

fn pos(dpn: &str) -> Position {
    Position::from_dpn(dpn, Rules::default()).expect("benchmark positions are valid")
}

fn legal_turns(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_turns");
    for (name, p, expected) in [
        ("opening", Position::new(), 30),
        ("middle", pos(MIDDLE), 356),
        ("maze", pos(MAZE), 1041),
    ] {
        let mut buf = Vec::with_capacity(2048);
        p.legal_turns_into(&mut buf);
        assert_eq!(buf.len(), expected, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&p).legal_turns_into(&mut buf);
                buf.len()
            })
        });
    }
    group.finish();
}

fn play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play");
    let middle = pos(MIDDLE);
    let kill: Turn = middle
        .parse_turn("g3-h2")
        .or_else(|_| {
            let t = middle
                .legal_turns()
                .into_iter()
                .find(|t| t.to_string().contains('@'))
                .expect("a kill");
            Ok::<Turn, ()>(t)
        })
        .expect("a turn");
    let start = Position::new();
    let quiet = start.parse_turn("b7-b5").expect("legal");
    group.bench_function("checked_quiet", |b| {
        b.iter(|| {
            let mut p = start;
            p.play(black_box(&quiet)).expect("legal");
            p
        })
    });
    group.bench_function("checked_kill", |b| {
        b.iter(|| {
            let mut p = middle;
            p.play(black_box(&kill)).expect("legal");
            p
        })
    });
    group.bench_function("unchecked_kill", |b| {
        b.iter(|| {
            let mut p = middle;
            p.play_unchecked(black_box(&kill));
            p
        })
    });
    group.finish();
}

fn perft4(c: &mut Criterion) {
    let start = Position::new();
    assert_eq!(perft(&start, 4), 2_523_908);
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("start_depth_4", |b| b.iter(|| perft(black_box(&start), 4)));
    group.finish();
}

criterion_group!(benches, legal_turns, play, perft4);
criterion_main!(benches);
