//! Seeded random playouts checking the engine's invariants over thousands of games: every listed
//! turn plays; DPN and turn text round-trip; `is_legal` agrees with the list; no piece is ever
//! lost or duplicated; the effects account for every new corpse; a finished game has no legal
//! turn; nothing panics.
//!
//! `DJAMBI_PLAYOUTS=N` sets the number of games (default: 3000 in release builds, 100 in debug).

use std::collections::HashSet;
use std::num::NonZeroU32;

use djambi_core::{Army, Effect, Game, Move, Position, Rules, Square, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn games() -> usize {
    std::env::var("DJAMBI_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 100 } else { 3000 })
}

fn random_rules(rng: &mut ChaCha8Rng) -> Rules {
    Rules {
        own_kills: rng.gen_bool(0.25),
        diplomat_to_maze: rng.gen_bool(0.75),
        turn_limit: NonZeroU32::new(rng.gen_range(20..80)),
    }
}

/// A turn that is probably not legal: a legal one with one choice changed at random.
fn mutate(turn: &Turn, rng: &mut ChaCha8Rng) -> Turn {
    let sq = |rng: &mut ChaCha8Rng| Square::ALL[rng.gen_range(0..81)];
    let mut m = match turn {
        Turn::Pass => Move {
            from: sq(rng),
            to: sq(rng),
            victim: None,
            exit: None,
            place: None,
        },
        Turn::Move(m) => *m,
    };
    match rng.gen_range(0..6) {
        0 => m.to = sq(rng),
        1 => {
            m.victim = if rng.gen_bool(0.5) {
                Some(sq(rng))
            } else {
                None
            }
        }
        2 => {
            m.exit = if rng.gen_bool(0.5) {
                Some(sq(rng))
            } else {
                None
            }
        }
        3 => {
            m.place = if rng.gen_bool(0.5) {
                Some(sq(rng))
            } else {
                None
            }
        }
        4 => m.from = sq(rng),
        _ => return Turn::Pass,
    }
    Turn::Move(m)
}

fn occupied(pos: &Position) -> usize {
    pos.board().iter().filter(|(_, c)| !c.is_empty()).count()
}

fn check_position(pos: &Position, legal: &[Turn], full: bool, rng: &mut ChaCha8Rng) {
    // DPN round trip.
    let dpn = pos.to_dpn();
    let again = Position::from_dpn(&dpn, pos.rules()).unwrap_or_else(|e| panic!("{dpn}: {e}"));
    assert_eq!(&again, pos, "{dpn}");
    // Turn texts: canonical, distinct, round-tripping, and legal.
    let mut texts = HashSet::new();
    // Every 16th position checks every turn; the others a sample of at most ~24.
    let step = if full { 1 } else { (legal.len() / 24).max(1) };
    for (i, t) in legal.iter().enumerate().step_by(step) {
        let text = t.to_string();
        assert_eq!(text.parse::<Turn>().unwrap(), *t, "{dpn}: {text}");
        assert!(texts.insert(text.clone()), "{dpn}: duplicate turn {t}");
        if i % (8 * step) == 0 {
            assert_eq!(
                pos.parse_turn(&text.to_uppercase()),
                Ok(*t),
                "{dpn}: {text}"
            );
        }
        assert!(pos.is_legal(t), "{dpn}: listed turn {t} is not legal");
    }
    assert_eq!(pos.count_legal(), legal.len());
    // Near misses: `is_legal` agrees with the list, and a refused turn changes nothing.
    let set: HashSet<Turn> = legal.iter().copied().collect();
    for _ in 0..4 {
        let base = legal[rng.gen_range(0..legal.len())];
        let t = mutate(&base, rng);
        assert_eq!(pos.is_legal(&t), set.contains(&t), "{dpn}: {t}");
        let mut copy = *pos;
        match copy.play(&t) {
            Ok(()) => assert!(set.contains(&t)),
            Err(e) => {
                assert!(!e.message.is_empty());
                assert_eq!(&copy, pos, "{dpn}: refused {t} changed the position");
            }
        }
    }
    // Every listed turn plays (all of them, or a sample of large lists).
    for t in legal.iter().step_by(step.max(legal.len() / 8).max(1)) {
        let mut copy = *pos;
        let before = occupied(&copy);
        let corpses = copy.board().corpses();
        let effects = copy
            .play_with_effects(t)
            .unwrap_or_else(|e| panic!("{dpn}: {t}: {e}"));
        assert_eq!(
            occupied(&copy),
            before,
            "{dpn}: {t} lost or duplicated a piece"
        );
        let killed = effects
            .iter()
            .filter(|e| matches!(e, Effect::Killed { .. } | Effect::Encircled { .. }))
            .count();
        assert_eq!(
            copy.board().corpses(),
            corpses + killed,
            "{dpn}: {t}: {effects:?}"
        );
        Position::from_dpn(&copy.to_dpn(), copy.rules()).unwrap();
    }
}

#[test]
fn random_playouts_keep_every_invariant() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xD7A3B1);
    let mut finished = 0;
    let mut kills = 0;
    let mut total_turns = 0;
    for game_no in 0..games() {
        let rules = random_rules(&mut rng);
        let start = match rng.gen_range(0..5) {
            0..=3 => Position::start(rules),
            h => Position::start_hostage(Army::ALL[(h + game_no) % 4], rules),
        };
        let mut game = Game::new(start);
        let pieces = occupied(&start);
        let mut legal = Vec::new();
        for ply in 0..400 {
            let pos = *game.position();
            pos.legal_turns_into(&mut legal);
            if pos.is_game_over() {
                assert!(legal.is_empty(), "finished game with legal turns: {pos}");
                break;
            }
            assert!(!legal.is_empty(), "{pos}: no legal turn, not even a pass");
            check_position(&pos, &legal, ply % 16 == 0, &mut rng);
            if rng.gen_ratio(1, 300) {
                let alive: Vec<Army> = pos.alive().iter().collect();
                let p = alive[rng.gen_range(0..alive.len())];
                game.resign(p).unwrap();
                continue;
            }
            if rng.gen_ratio(1, 2000) {
                game.agree_draw().unwrap();
                continue;
            }
            let t = legal[rng.gen_range(0..legal.len())];
            let effects = game.play(&t).unwrap();
            kills += effects
                .iter()
                .filter(|e| matches!(e, Effect::Killed { .. }))
                .count();
            total_turns += 1;
            assert_eq!(occupied(game.position()), pieces);
        }
        if game.position().is_game_over() {
            finished += 1;
            let after = *game.position();
            assert!(after.legal_turns().is_empty());
            assert_eq!(after.count_legal(), 0);
        }
        // The record replays to the same game.
        let record = game.record();
        let json = serde_json::to_string(&record).unwrap();
        let back: djambi_core::GameRecord = serde_json::from_str(&json).unwrap();
        let replayed = Game::from_record(&back).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(replayed.position(), game.position());
        assert_eq!(replayed.ranking(), game.ranking());
    }
    assert!(finished > games() / 2, "only {finished} games finished");
    assert!(kills > games(), "only {kills} kills in {total_turns} turns");
}
