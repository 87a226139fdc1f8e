//! The puzzles (`data/puzzles.json`, the generator's output, embedded in the binary): read with
//! the generator's own file format and checks (`djambi_engine::puzzle`), once, on first use,
//! then served as they are. Each puzzle is a position, the player to move, and the one best turn
//! with the engine's continuation; the checks make sure every position reads and is written
//! canonically, its player is the one to move, and its solution and line are legal turns written
//! canonically — so a bad file fails the server's start and its tests, not a visitor's request.

use std::collections::HashMap;
use std::sync::LazyLock;

use djambi_core::{Player, Position, Turn};
use djambi_engine::puzzle::{PuzzleFile, Theme};
use serde::Serialize;

/// The puzzle file, as the repository holds it.
const FILE: &str = include_str!("../../../data/puzzles.json");

/// One checked puzzle, with its id.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// `p` and three digits, unique, in file order.
    pub id: String,
    /// The position, the solver to move.
    pub position: Position,
    /// The solver.
    pub player: Player,
    /// The one best turn.
    pub solution: Turn,
    /// The engine's continuation after the solution (canonical turn texts).
    pub line: Vec<String>,
    /// What the puzzle is about.
    pub theme: Theme,
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
    pub theme: Theme,
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
        let checked = file
            .check()
            .map_err(|e| format!("puzzles.json: puzzle {e}"))?;
        let mut puzzles = Puzzles::default();
        for (i, (record, puzzle)) in file.puzzles.into_iter().zip(checked).enumerate() {
            puzzles.index.insert(record.id.clone(), i);
            puzzles.list.push(Puzzle {
                id: record.id,
                player: record.player,
                position: puzzle.position,
                solution: puzzle.solution,
                line: record.line,
                theme: puzzle.theme,
                difficulty: puzzle.difficulty,
                depth: puzzle.depth,
                margin: puzzle.margin,
            });
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
            theme: self.theme,
            difficulty: self.difficulty,
            player: self.player,
        }
    }
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
        assert!(puzzles.len() >= 100);
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
            ("\"p001\"", "\"p002\"", "expected \"p001\""),
            ("\"player\": \"r\"", "\"player\": \"b\"", "is not to move"),
            ("a9-a1@b9", "a9-b7", "solution:"),
            ("a9-a1@b9", "A9-A1@B9", "not canonical"),
            ("kill_chief", "mate", "unknown variant"),
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
