//! The puzzle generator and its verifier (`djambi_engine::puzzle`): on built positions the
//! verifier accepts a unique best answer (with its theme) and rejects two equally good answers,
//! a single legal turn and a finished game; the generator is deterministic for a seed; and every
//! puzzle of `data/puzzles.json` is a puzzle of the rules whose answer is still the unique best
//! at its stored depth, by at least half its stored margin.

mod common;

use std::collections::HashSet;

use common::pos;
use djambi_engine::eval::WIN_THRESHOLD;
use djambi_engine::puzzle::{
    DEFAULT_NODES, MAX_THEME_SHARE, MIN_MARGIN, Puzzle, PuzzleFile, Rejection, Settings, Theme,
    Verifier, classify, generate,
};

/// Red's Assassin on a1 kills blue's chief on a9 up the open file: the last enemy chief, so
/// the game is won. Red's chief on e1 has no line to a9.
const ONE_KILL: &str = "Cb8/9/9/9/9/9/9/9/Ar3Cr4 r rb-- - 0 - 0 3";

/// As [`ONE_KILL`], with red's chief on i1: it reaches a9 too, across the empty maze, so the
/// Assassin's kill and each of the chief's (one per corpse square) win alike.
const TWO_KILLS: &str = "Cb8/9/9/9/9/9/9/9/Ar7Cr r rb-- - 0 - 0 3";

/// Red's chief on a1, corpses on a3, b2 and b1: a1-a2 is its only legal turn.
const ONE_TURN: &str = "8Cb/9/9/9/9/9/X8/1X7/CrX7 r rb-- - 0 - 0 3";

#[test]
fn a_unique_answer_is_accepted_with_its_theme() {
    let p = pos(ONE_KILL);
    let mut verifier = Verifier::new(DEFAULT_NODES);
    let v = verifier.verify(&p, 2, MIN_MARGIN, true).expect("a puzzle");
    assert_eq!(v.solution.to_string(), "a1-a9");
    assert_eq!(v.depth, 2);
    assert_eq!(v.found_at, 1);
    assert!(v.score >= WIN_THRESHOLD, "{v:?}");
    assert!(v.margin >= MIN_MARGIN, "{v:?}");
    assert!(v.line.is_empty(), "the game is over after it: {v:?}");
    assert_eq!(classify(&p, &v.solution), Some(Theme::KillChief));
    // The same verdict again, and without the deeper check.
    assert_eq!(verifier.verify(&p, 2, MIN_MARGIN, true), Ok(v.clone()));
    let shallow = verifier.verify(&p, 2, MIN_MARGIN, false).unwrap();
    assert_eq!((shallow.solution, shallow.margin), (v.solution, v.margin));
}

#[test]
fn two_equally_good_answers_are_rejected() {
    let p = pos(TWO_KILLS);
    let mut verifier = Verifier::new(DEFAULT_NODES);
    for depth in 1..=3 {
        assert_eq!(
            verifier.verify(&p, depth, MIN_MARGIN, true),
            Err(Rejection::Close { margin: 0 }),
            "depth {depth}"
        );
    }
    // Even a margin of 1 asks for a strict best.
    assert_eq!(
        verifier.verify(&p, 2, 1, false),
        Err(Rejection::Close { margin: 0 })
    );
}

#[test]
fn one_legal_turn_or_a_finished_game_is_no_puzzle() {
    let mut verifier = Verifier::new(DEFAULT_NODES);
    let one = pos(ONE_TURN);
    assert_eq!(one.legal_turns().len(), 1);
    assert_eq!(
        verifier.verify(&one, 2, MIN_MARGIN, true),
        Err(Rejection::NoChoice)
    );
    let over = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
    assert_eq!(
        verifier.verify(&over, 2, MIN_MARGIN, true),
        Err(Rejection::GameOver)
    );
}

#[test]
fn a_budget_too_small_is_too_costly() {
    let mut verifier = Verifier::new(50);
    assert_eq!(
        verifier.verify(&pos(common::MIDDLE), 2, MIN_MARGIN, true),
        Err(Rejection::TooCostly)
    );
}

/// Re-verifies `p` as the file's test does: the answer is the best at the stored depth, by at
/// least half the stored margin, and its theme is what the answer does.
fn reverify(verifier: &mut Verifier, id: &str, p: &Puzzle) {
    let v = verifier
        .verify(&p.position, p.depth, 1, false)
        .unwrap_or_else(|e| panic!("{id}: {e:?}"));
    assert_eq!(v.solution, p.solution, "{id}: another answer");
    assert!(
        v.margin * 2 >= p.margin,
        "{id}: margin {} (stored {})",
        v.margin,
        p.margin
    );
    assert_eq!(classify(&p.position, &p.solution), Some(p.theme), "{id}");
}

#[test]
fn the_generator_is_deterministic_for_a_seed() {
    let settings = Settings {
        depth: 2,
        nodes: 100_000,
        max_games: 6,
        ..Settings::new(3, 11)
    };
    let mut reports = Vec::new();
    let first = generate(&settings, |p| reports.push(p.clone()));
    assert!(!first.is_empty(), "{reports:?}");
    let last = reports.last().unwrap();
    assert_eq!(last.kept(), first.len());
    assert!(last.verified <= last.positions);
    let again = generate(&settings, |_| {});
    assert_eq!(first, again);
    let mut verifier = Verifier::new(settings.nodes);
    for (i, p) in first.iter().enumerate() {
        assert!(p.margin >= MIN_MARGIN && p.depth == 2, "{p:?}");
        assert!((1..=5).contains(&p.difficulty), "{p:?}");
        reverify(&mut verifier, &format!("puzzle {i}"), p);
    }
    // Sorted by difficulty; written and read back as the file, the same puzzles.
    assert!(first.windows(2).all(|w| w[0].difficulty <= w[1].difficulty));
    let file = PuzzleFile::new("test", &first);
    let json = serde_json::to_string(&file).unwrap();
    let back: PuzzleFile = serde_json::from_str(&json).unwrap();
    assert_eq!(back.check().unwrap(), first);
}

/// The repository's puzzle file.
fn puzzle_file() -> PuzzleFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/puzzles.json");
    let text = std::fs::read_to_string(path).expect("data/puzzles.json");
    serde_json::from_str(&text).expect("data/puzzles.json is the puzzle file")
}

#[test]
fn every_puzzle_of_the_file_is_unique_at_its_depth() {
    let file = puzzle_file();
    assert!(
        file.command.starts_with("djambi puzzles "),
        "{}",
        file.command
    );
    let puzzles = file.check().unwrap_or_else(|e| panic!("{e}"));
    assert!(puzzles.len() >= 100, "{} puzzles", puzzles.len());
    // Every theme, none above its share; no position twice.
    for t in Theme::ALL {
        let n = puzzles.iter().filter(|p| p.theme == t).count();
        assert!(n >= 1, "no {t} puzzle");
        assert!(
            n as f64 <= puzzles.len() as f64 * MAX_THEME_SHARE,
            "{n} {t} puzzles"
        );
    }
    let positions: HashSet<String> = puzzles.iter().map(|p| p.position.to_dpn()).collect();
    assert_eq!(positions.len(), puzzles.len());
    // Re-verified on two threads (CI's machines have two cores).
    let ids: Vec<&str> = file.puzzles.iter().map(|r| r.id.as_str()).collect();
    let half = puzzles.len().div_ceil(2);
    std::thread::scope(|s| {
        for (chunk, names) in puzzles.chunks(half).zip(ids.chunks(half)) {
            s.spawn(move || {
                let mut verifier = Verifier::new(DEFAULT_NODES);
                for (p, id) in chunk.iter().zip(names) {
                    assert_eq!(Some(p.player()), p.position.to_move());
                    assert!(p.position.is_legal(&p.solution), "{id}");
                    reverify(&mut verifier, id, p);
                }
            });
        }
    });
}
