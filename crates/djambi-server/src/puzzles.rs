//! The puzzles (`data/puzzles.json`, the generator's output, embedded in the binary): parsed
//! and checked once, on first use, then served as they are. Each puzzle is a position, the
//! player to move, and the one best turn with the engine's continuation; the checks make sure
//! every position reads, its player is the one to move, and its solution and line are legal
//! turns written canonically — so a bad file fails the server's start and its tests, not a
//! visitor's request.

use std::collections::HashMap;
use std::sync::LazyLock;

use djambi_core::{Player, Position, Rules, Turn};
use serde::{Deserialize, Serialize};

/// The puzzle file, as the repository holds it.
const FILE: &str = include_str!("../../../data/puzzles.json");

/// The format version this server reads.
const VERSION: u32 = 1;

/// The themes a puzzle may have (docs: PUZZLE format).
pub const THEMES: [&str; 6] = [
    "kill_chief",
    "escape_trap",
    "save_chief",
    "encircle",
    "take_maze",
    "win_material",
];

/// One puzzle as the file writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    position: String,
    player: Player,
    solution: String,
    #[serde(default)]
    line: Vec<String>,
    theme: String,
    difficulty: u8,
    depth: u32,
    margin: i32,
}

/// The file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleFile {
    version: u32,
    #[allow(dead_code)]
    command: String,
    puzzles: Vec<Entry>,
}

/// One checked puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// `p` and three digits, unique.
    pub id: String,
    /// The position, the solver to move.
    pub position: Position,
    /// The solver.
    pub player: Player,
    /// The one best turn.
    pub solution: Turn,
    /// The engine's continuation after the solution (canonical turn texts).
    pub line: Vec<String>,
    /// What the puzzle is about (one of [`THEMES`]).
    pub theme: String,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
    /// The engine's depth at which the solution was found unique.
    pub depth: u32,
    /// The score gap between the solution and the second-best turn.
    pub margin: i32,
}

/// A puzzle as listed: no position, no solution.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleSummary {
    /// Its id.
    pub id: String,
    /// Its theme.
    pub theme: String,
    /// 1 to 5.
    pub difficulty: u8,
    /// The solver.
    pub player: Player,
}

/// Every puzzle, in file order.
#[derive(Debug, Default)]
pub struct Puzzles {
    list: Vec<Puzzle>,
    index: HashMap<String, usize>,
}

impl Puzzles {
    /// Reads and checks a puzzle file; the error names the puzzle and what is wrong.
    pub fn parse(text: &str) -> Result<Puzzles, String> {
        let file: PuzzleFile =
            serde_json::from_str(text).map_err(|e| format!("puzzles.json: {e}"))?;
        if file.version != VERSION {
            return Err(format!(
                "puzzles.json: version {} (this server reads {VERSION})",
                file.version
            ));
        }
        let mut puzzles = Puzzles::default();
        for (i, entry) in file.puzzles.into_iter().enumerate() {
            let id = entry.id.clone();
            let puzzle = check(entry, i).map_err(|e| format!("puzzle {id}: {e}"))?;
            if puzzles.index.insert(puzzle.id.clone(), i).is_some() {
                return Err(format!("puzzle {id}: the id is used twice"));
            }
            puzzles.list.push(puzzle);
        }
        Ok(puzzles)
    }

    /// The puzzles in file order.
    pub fn all(&self) -> &[Puzzle] {
        &self.list
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.index.get(id).map(|&i| &self.list[i])
    }

    /// How many puzzles.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

impl Puzzle {
    /// The list entry of this puzzle.
    pub fn summary(&self) -> PuzzleSummary {
        PuzzleSummary {
            id: self.id.clone(),
            theme: self.theme.clone(),
            difficulty: self.difficulty,
            player: self.player,
        }
    }
}

/// Checks one entry (the `i`-th of the file, 0-based).
fn check(entry: Entry, i: usize) -> Result<Puzzle, String> {
    let expected_id = format!("p{:03}", i + 1);
    if entry.id != expected_id {
        return Err(format!("the id should be {expected_id} (file order)"));
    }
    let position = Position::from_dpn(&entry.position, Rules::default())
        .map_err(|e| format!("position: {e}"))?;
    if position.to_move() != Some(entry.player) {
        return Err(format!(
            "player: {} is not the player to move",
            entry.player
        ));
    }
    if !THEMES.contains(&entry.theme.as_str()) {
        return Err(format!("theme: unknown theme {:?}", entry.theme));
    }
    if !(1..=5).contains(&entry.difficulty) {
        return Err("difficulty: 1 to 5".into());
    }
    let solution = canonical(&position, &entry.solution).map_err(|e| format!("solution: {e}"))?;
    let mut after = position;
    after
        .play(&solution)
        .map_err(|e| format!("solution: {e}"))?;
    for (n, text) in entry.line.iter().enumerate() {
        let turn = canonical(&after, text).map_err(|e| format!("line {}: {e}", n + 1))?;
        after
            .play(&turn)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
    }
    Ok(Puzzle {
        id: entry.id,
        position,
        player: entry.player,
        solution,
        line: entry.line,
        theme: entry.theme,
        difficulty: entry.difficulty,
        depth: entry.depth,
        margin: entry.margin,
    })
}

/// The legal turn `text` writes in `pos`, which must be written canonically.
fn canonical(pos: &Position, text: &str) -> Result<Turn, String> {
    let turn = pos.parse_turn(text).map_err(|e| e.to_string())?;
    if turn.to_string() != text {
        return Err(format!("{text:?} is not canonical ({turn})"));
    }
    Ok(turn)
}

static PUZZLES: LazyLock<Puzzles> = LazyLock::new(|| match Puzzles::parse(FILE) {
    Ok(puzzles) => puzzles,
    // The file is part of the build; its test checks it, so this is a broken build.
    Err(e) => panic!("the embedded data/puzzles.json is not valid: {e}"),
});

/// The embedded puzzles (read and checked on first use: the server's router asks at start).
pub fn puzzles() -> &'static Puzzles {
    &PUZZLES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_puzzles_are_valid() {
        let puzzles = Puzzles::parse(FILE).unwrap();
        assert!(!puzzles.is_empty());
        for p in puzzles.all() {
            assert!(puzzles.get(&p.id).is_some());
        }
    }

    fn file(entry: &str) -> String {
        format!(r#"{{"version": 1, "command": "test", "puzzles": [{entry}]}}"#)
    }

    const GOOD: &str = r#"{"id": "p001", "position": "Cr8/9/9/9/9/9/9/1Mb7/Cb8 r rb-- - 0 - 0 1",
        "player": "r", "solution": "a9-a1@b9", "line": [], "theme": "kill_chief",
        "difficulty": 1, "depth": 2, "margin": 100}"#;

    #[test]
    fn a_bad_entry_is_named_with_its_fault() {
        assert!(
            Puzzles::parse(&file(GOOD)).is_ok(),
            "{:?}",
            Puzzles::parse(&file(GOOD))
        );
        for (from, to, fault) in [
            ("\"p001\"", "\"p002\"", "the id should be p001"),
            (
                "\"player\": \"r\"",
                "\"player\": \"b\"",
                "not the player to move",
            ),
            ("a9-a1@b9", "a9-b7", "solution:"),
            ("a9-a1@b9", "A9-A1@B9", "not canonical"),
            ("kill_chief", "mate", "unknown theme"),
            ("\"difficulty\": 1", "\"difficulty\": 6", "difficulty"),
            ("\"line\": []", "\"line\": [\"i9-i8\"]", "line 1:"),
            ("Cr8/", "Cr9/", "position:"),
        ] {
            let bad = file(&GOOD.replace(from, to));
            let err = Puzzles::parse(&bad).unwrap_err();
            assert!(err.contains(fault), "{from} → {to}: {err}");
        }
        let two = format!(
            r#"{{"version": 1, "command": "t", "puzzles": [{GOOD}, {}]}}"#,
            GOOD.replace("p001", "p002")
        );
        assert_eq!(Puzzles::parse(&two).unwrap().len(), 2);
        assert!(
            Puzzles::parse(r#"{"version": 2, "command": "", "puzzles": []}"#)
                .unwrap_err()
                .contains("version")
        );
    }
}
