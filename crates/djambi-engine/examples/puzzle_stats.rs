//! What the puzzle file holds, puzzle by puzzle: the re-verification's cost (nodes and time at
//! the stored depth, as `tests/puzzles.rs` runs it), and the signals the difficulty comes from.
//!
//! ```text
//! cargo run --release -p djambi-engine --example puzzle_stats -- data/puzzles.json
//! ```
//!
//! One line per puzzle (id, theme, difficulty, margin, nodes, milliseconds, then the signals:
//! the depth that finds the answer, `beginner` and `easy` finds out of `TRIES` seeds, whether
//! `medium` finds it, tempting wrong kills, different moves), then the totals per theme and
//! difficulty.

use std::time::Instant;

use djambi_engine::puzzle::{DEFAULT_NODES, PuzzleFile, Signals, TRIES, Theme, Verifier};

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/puzzles.json".to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: PuzzleFile = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let puzzles = file.check().unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut verifier = Verifier::new(DEFAULT_NODES);
    let mut themes = [0usize; 6];
    let mut difficulties = [0usize; 5];
    let (mut total_ms, mut max_nodes) = (0u128, 0u64);
    println!(
        "id   theme         diff margin   nodes     ms  found b/{TRIES} e/{TRIES} med tempt moves"
    );
    for (record, p) in file.puzzles.iter().zip(&puzzles) {
        let start = Instant::now();
        let v = verifier
            .verify(&p.position, p.depth, 0, false)
            .unwrap_or_else(|e| panic!("{}: {e:?}", record.id));
        let ms = start.elapsed().as_millis();
        total_ms += ms;
        max_nodes = max_nodes.max(v.nodes);
        let s = Signals::read(&p.position, &v);
        themes[p.theme.index()] += 1;
        difficulties[usize::from(p.difficulty) - 1] += 1;
        println!(
            "{} {:<13} {} {:>7} {:>7} {:>6} {:>5} {:>3} {:>3} {:>3} {:>5} {:>5}",
            record.id,
            p.theme.name(),
            p.difficulty,
            p.margin,
            v.nodes,
            ms,
            s.found_at,
            s.beginner,
            s.easy,
            if s.medium { "yes" } else { "no" },
            s.tempting,
            s.moves
        );
    }
    println!(
        "{} puzzles, re-verified in {total_ms} ms (largest {max_nodes} nodes)",
        puzzles.len()
    );
    for t in Theme::ALL {
        println!("{:<13} {}", t.name(), themes[t.index()]);
    }
    println!("difficulty 1-5: {difficulties:?}");
}
