//! Checks perft counts against reference values kept in `tests/data/perft.txt`.

use djambi_core::{Position, Rules, perft};

/// The deepest depth run in debug builds; release builds run every line.
const DEBUG_MAX_DEPTH: u32 = 3;

#[test]
fn perft_reference_values() {
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, rules, dpn, counts] = fields[..] else {
            panic!("bad line: {line}")
        };
        let rules: Rules = rules.parse().unwrap();
        let pos = Position::from_dpn(dpn, rules).unwrap();
        for item in counts.split_whitespace() {
            let (depth, count) = item.split_once('=').unwrap();
            let depth: u32 = depth.parse().unwrap();
            let count: u64 = count.parse().unwrap();
            if cfg!(debug_assertions) && depth > DEBUG_MAX_DEPTH {
                continue;
            }
            assert_eq!(perft(&pos, depth), count, "{name} perft({depth})");
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} perft values checked");
}
