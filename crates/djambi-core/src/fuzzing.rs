//! The invariants the fuzz targets check, shared by `fuzz/` (cargo-fuzz, nightly) and the corpus
//! replay in `tests/fuzz_corpus.rs` (stable), so both run exactly the same checks.
//!
//! Each function takes untrusted bytes, feeds them to a parser a stranger can reach (DPN, turn
//! text, game records) and, when the input is accepted, exercises what follows from it. It
//! returns normally when every invariant holds and panics (with the invariant in the message)
//! when one does not. Not part of the crate's stable API: hidden from its documentation.

use std::num::NonZeroU32;
use std::sync::LazyLock;

use crate::game::Game;
use crate::illegal::IllegalKind;
use crate::notation::{START_DPN, parse_setup};
use crate::piece::Army;
use crate::position::Position;
use crate::record::GameRecord;
use crate::rules::Rules;
use crate::square::Square;
use crate::turn::{Move, Turn, TurnText};

/// The rulesets every position is checked under: the standard rules, each option that changes
/// the legal turns (R12.5, R5.1), and a turn limit of 1 so that every quiet turn ends the game
/// (R12.4).
pub fn rulesets() -> [Rules; 4] {
    let standard = Rules::default();
    [
        standard,
        Rules {
            own_kills: true,
            ..standard
        },
        Rules {
            diplomat_to_maze: false,
            ..standard
        },
        Rules {
            own_kills: true,
            diplomat_to_maze: false,
            turn_limit: NonZeroU32::new(1),
        },
    ]
}

/// The `dpn` target: a position in DPN (NOTATION §2). When it parses, under every ruleset of
/// [`rulesets`] it is the canonical text of its position, it round-trips, and its legal turns
/// are consistent; under one of them (picked by the input's length, so the corpus covers all
/// four) every position one event away (a sample of the legal turns, each resignation, an
/// agreed draw) writes a DPN that parses back to itself, and turns near the legal ones are
/// judged and explained consistently.
pub fn dpn(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(setup) = parse_setup(text) else {
        return;
    };
    let positions = rulesets().map(|rules| Position::from_setup(setup, rules));
    let accepted = positions.iter().filter(|p| p.is_ok()).count();
    assert!(
        accepted == 0 || accepted == positions.len(),
        "{text:?}: a DPN is valid under every ruleset or under none"
    );
    let deep = data.len() % positions.len();
    for (i, pos) in positions.into_iter().enumerate() {
        let Ok(pos) = pos else { continue };
        assert_eq!(pos.to_dpn(), text, "an accepted DPN is canonical");
        check_position(&pos, i == deep);
    }
}

/// The `turn_text` target: turn text (NOTATION §3), context-free and then against each of
/// [`fixed_positions`]. Accepted text is canonical up to letter case; a turn the position
/// accepts is one of its legal turns and plays; a refused one is not legal, leaves the position
/// as it was, and says why.
pub fn turn_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = text.parse::<TurnText>();
    if let Ok(t) = &parsed {
        assert_eq!(
            t.to_string(),
            text.to_ascii_lowercase(),
            "turn text is canonical up to letter case"
        );
        assert_eq!(t.to_string().parse::<TurnText>().as_ref(), Ok(t));
    }
    for pos in FIXED.iter() {
        let mut after = *pos;
        match pos.parse_turn(text) {
            Ok(turn) => {
                assert_eq!(parsed.as_ref().map(|t| t.0).ok(), Some(turn));
                assert!(
                    pos.legal_turns().contains(&turn),
                    "{text}: accepted, not legal"
                );
                after.play(&turn).expect("a resolved turn plays");
                check_round_trip(&after);
                let mut game = Game::new(*pos);
                let (played, _) = game.play_text(text).expect("play_text agrees");
                assert_eq!((played, *game.position()), (turn, after));
            }
            Err(e) => {
                assert!(!e.message.is_empty(), "{text}: a refusal says why");
                match &parsed {
                    Ok(t) => {
                        assert!(!pos.is_legal(&t.0), "{text}: legal, yet refused");
                        assert_ne!(e.kind, IllegalKind::Malformed);
                        assert!(after.play(&t.0).is_err());
                    }
                    Err(_) => assert_eq!(e.kind, IllegalKind::Malformed),
                }
                assert_eq!(after, *pos, "a refused turn changes nothing");
            }
        }
    }
}

/// The positions `turn_text` resolves text against: the 4-player and 3-player starts, turns
/// that act in the maze (an Assassin, a Diplomat and a Necromobile next to a ruling chief, so
/// exits and placements), a chief's kill that needs a placement, a Reporter's kill, and the
/// start under `own_kills`.
pub fn fixed_positions() -> &'static [Position] {
    &FIXED
}

static FIXED: LazyLock<Vec<Position>> = LazyLock::new(|| {
    let standard = Rules::default();
    let own_kills = Rules {
        own_kills: true,
        ..standard
    };
    [
        (START_DPN, standard),
        (&*START_DPN.replace("rbyg", "rbyh"), standard),
        (
            "9/4Ar4/9/9/4Cb1Mb2/9/4X4/9/Cr7Cy r rby- y 0 - 0 9",
            standard,
        ),
        (
            "9/4Dr4/9/9/4Cb1Mb2/9/4X4/9/Cr7Cy r rby- y 0 - 0 9",
            standard,
        ),
        (
            "9/4Nr4/9/9/4X1Mb1Cb/9/4X4/9/Cr7Cy r rby- y 0 - 0 9",
            standard,
        ),
        ("8Cb/9/9/9/9/2Mb6/2Cr6/9/9 r rb-- - 0 - 0 1", standard),
        (
            "8Cb/9/9/9/2MbMb4Cr/1My1Mr5/9/9/2Rr5Cy r rby- - 0 - 0 1",
            standard,
        ),
        (START_DPN, own_kills),
    ]
    .into_iter()
    .map(|(dpn, rules)| Position::from_dpn(dpn, rules).expect("a fixed position is valid"))
    .collect()
});

/// The `record` target: a game record as JSON (NOTATION §4). When it parses, it serialises
/// back to itself and its ruleset is written as a list (NOTATION §5) that reads back; when it
/// also replays, the record the game writes keeps its start, ruleset,
/// events, result and ranking, replays to the same game, and writes itself again (a fixed
/// point), and every position of the game round-trips through DPN.
pub fn record(data: &[u8]) {
    let Ok(record) = serde_json::from_slice::<GameRecord>(data) else {
        return;
    };
    assert_json_round_trip(&record);
    let list = record.rules.to_string();
    assert_eq!(
        list.parse(),
        Ok(record.rules),
        "{list}: a ruleset reads back as a list"
    );
    let game = match Game::from_record(&record) {
        Ok(game) => game,
        Err(e) => {
            assert!(!e.message.is_empty(), "a rejection says why");
            if let Some(i) = e.event {
                assert!((1..=record.events.len()).contains(&i), "event {i} exists");
            }
            return;
        }
    };
    let written = game.record();
    assert_eq!(
        written.start, record.start,
        "an accepted start is canonical"
    );
    assert_eq!(written.rules, record.rules);
    assert_eq!(written.events.len(), record.events.len());
    if record.result.is_some() {
        assert_eq!(written.result, record.result);
    }
    if !record.ranking.is_empty() {
        assert_eq!(written.ranking, record.ranking);
    }
    assert_json_round_trip(&written);
    let again = Game::from_record(&written).expect("a record the core writes replays");
    assert_eq!(again.record(), written, "a written record is a fixed point");
    assert_eq!(again.position(), game.position());
    let positions = game.positions();
    assert_eq!(positions.len(), record.events.len() + 1);
    assert_eq!(positions.last(), Some(game.position()));
    for pos in &positions {
        check_round_trip(pos);
    }
}

fn assert_json_round_trip(record: &GameRecord) {
    let json = serde_json::to_string(record).expect("a record serialises");
    let back: GameRecord = serde_json::from_str(&json).expect("a serialised record parses");
    assert_eq!(&back, record, "a record survives JSON");
}

/// The position writes a DPN that parses back (under its ruleset) to the same position.
fn check_round_trip(pos: &Position) {
    let text = pos.to_dpn();
    match Position::from_dpn(&text, pos.rules()) {
        Ok(back) => assert_eq!(back, *pos, "{text}: DPN round trip"),
        Err(e) => panic!("{text}: a position writes DPN it cannot read: {e}"),
    }
    assert_eq!(Position::from_setup(pos.to_setup(), pos.rules()), Ok(*pos));
}

/// The legal turns played (and their near misses tried) per position: positions under
/// `own_kills` have thousands of legal turns (every placement of every kill), and a sample
/// spread over them keeps the target fast.
const SAMPLE: usize = 32;

/// Everything that follows from one valid position; `deep` adds the events that lead away from
/// it.
fn check_position(pos: &Position, deep: bool) {
    check_round_trip(pos);
    let legal = pos.legal_turns();
    assert_eq!(pos.count_legal(), legal.len());
    assert_eq!(pos.has_move(), legal.iter().any(|t| !t.is_pass()));
    assert_eq!(
        legal.is_empty(),
        pos.is_game_over(),
        "only a finished game has no turn"
    );
    if legal.contains(&Turn::Pass) {
        assert_eq!(
            legal.len(),
            1,
            "pass only when nothing else is legal (R8.6)"
        );
    }
    let mut sorted = legal.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), legal.len(), "each legal turn is listed once");
    let _ = pos.outcome();
    let _ = pos.coming_turns(6);
    if let Some(first) = legal.first() {
        // Under every ruleset, one turn on, the position is still written as valid DPN.
        let mut after = *pos;
        after.play(first).expect("a legal turn plays");
        check_round_trip(&after);
    }
    if !deep {
        return;
    }
    let step = legal.len().div_ceil(SAMPLE).max(1);
    let sample: Vec<&Turn> = legal
        .iter()
        .skip(legal.len() % step)
        .step_by(step)
        .collect();
    let mut texts: Vec<String> = sample.iter().map(|t| t.to_string()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(
        texts.len(),
        sample.len(),
        "different turns have different texts"
    );
    for turn in sample {
        assert_eq!(pos.parse_turn(&turn.to_string()).as_ref(), Ok(turn));
        let mut after = *pos;
        let effects = after.play_with_effects(turn).expect("a legal turn plays");
        assert!(!effects.is_empty(), "{turn}: a turn has effects");
        check_round_trip(&after);
        let Some(m) = turn.as_move() else { continue };
        for other in near_misses(m) {
            let is_legal = sorted.binary_search(&other).is_ok();
            let mut copy = *pos;
            match copy.play(&other) {
                Ok(()) => assert!(is_legal, "{other}: played, not legal"),
                Err(e) => {
                    assert!(!is_legal, "{other}: legal, refused: {e}");
                    assert!(!e.message.is_empty());
                    assert_eq!(copy, *pos, "a refused turn changes nothing");
                }
            }
        }
    }
    let mut copy = *pos;
    assert_eq!(copy.play(&Turn::Pass).is_ok(), legal.contains(&Turn::Pass));
    for player in Army::ALL {
        let mut after = *pos;
        let can = !pos.is_game_over() && pos.is_alive(player);
        assert_eq!(after.resign(player).is_ok(), can, "resign {player}");
        check_round_trip(&after);
    }
    let mut after = *pos;
    assert_eq!(after.agree_draw().is_ok(), !pos.is_game_over());
    check_round_trip(&after);
}

/// Turns a letter or two away from a legal move: each choice dropped or misplaced, the move
/// reversed, sent to the maze or given an exit. The generator must judge each like
/// `legal_turns` does, and explain a refusal without panicking.
fn near_misses(m: &Move) -> Vec<Turn> {
    let mut out = vec![
        Move { place: None, ..*m },
        Move { exit: None, ..*m },
        Move { victim: None, ..*m },
        Move {
            place: Some(m.from),
            ..*m
        },
        Move {
            exit: Some(m.from),
            ..*m
        },
        Move {
            victim: Some(m.to),
            ..*m
        },
        Move {
            from: m.to,
            to: m.from,
            ..*m
        },
        Move {
            to: Square::MAZE,
            ..*m
        },
    ];
    out.retain(|o| o != m);
    out.into_iter().map(Turn::Move).collect()
}
