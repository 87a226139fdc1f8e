//! Helpers shared by the rule-clause test suites (`tests/rules_*.rs`): build positions from DPN,
//! list legal turns as sorted texts, play turn texts, name pieces, army sets and rankings.

#![allow(dead_code)]

use djambi_core::{Army, ArmySet, Effect, Game, IllegalTurn, Piece, Position, Role, Rules, Square};

/// A position from DPN under the standard rules.
pub fn pos(dpn: &str) -> Position {
    Position::from_dpn(dpn, Rules::default()).unwrap()
}

/// A position from DPN under a ruleset list such as `own_kills,turn_limit=3`.
pub fn pos_with(dpn: &str, rules: &str) -> Position {
    Position::from_dpn(dpn, rules.parse().unwrap()).unwrap()
}

/// Whitespace-separated turn texts (or squares), sorted: the expected side of [`legal`].
pub fn texts(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// A living piece of `army` in `role`, as effects name it.
pub fn piece(army: Army, role: Role) -> Piece {
    Piece { army, role }
}

/// A set of armies (or players).
pub fn set(armies: &[Army]) -> ArmySet {
    armies.iter().copied().collect()
}

/// A game's ranking (R9.7) as text: one group of player letters per rank, best first,
/// separated by spaces (`"r y bg"`).
pub fn ranking(game: &Game) -> String {
    game.ranking()
        .iter()
        .map(|rank| rank.iter().map(|p| p.char()).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A square from its name.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Every legal turn, as canonical text, sorted by byte value.
pub fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_turns().iter().map(|t| t.to_string()).collect();
    v.sort();
    v
}

/// The legal turns of the piece on `from`, as canonical text, sorted.
pub fn legal_from(p: &Position, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    legal(p)
        .into_iter()
        .filter(|t| t.starts_with(&prefix))
        .collect()
}

/// The destinations (`to`, without choices) of the plain moves of the piece on `from`, sorted.
pub fn plain_destinations(p: &Position, from: &str) -> Vec<String> {
    legal_from(p, from)
        .into_iter()
        .filter(|t| t.len() == 5)
        .map(|t| t[3..5].to_string())
        .collect()
}

/// Plays a turn text that must be legal; panics with the engine's reason otherwise.
pub fn play(p: &mut Position, text: &str) {
    let turn = p
        .parse_turn(text)
        .unwrap_or_else(|e| panic!("{text} should be legal in {p:?}: {e}"));
    p.play(&turn).unwrap();
}

/// Plays a turn text that must be legal and returns its effects.
pub fn play_fx(p: &mut Position, text: &str) -> Vec<Effect> {
    let turn = p
        .parse_turn(text)
        .unwrap_or_else(|e| panic!("{text} should be legal in {p:?}: {e}"));
    p.play_with_effects(&turn).unwrap()
}

/// The DPN after playing `text` in the position `dpn` (standard rules).
pub fn after(dpn: &str, text: &str) -> String {
    let mut p = pos(dpn);
    play(&mut p, text);
    p.to_dpn()
}

/// The reason why `text` is not legal; panics if it is. Checks that the position is unchanged.
pub fn illegal(p: &Position, text: &str) -> IllegalTurn {
    let before = *p;
    let err = match p.parse_turn(text) {
        Ok(t) => panic!("{text} should be illegal in {p:?}, it is legal ({t})"),
        Err(e) => e,
    };
    // Playing the context-free text must be refused too, and change nothing.
    if let Ok(t) = text.parse::<djambi_core::Turn>() {
        let mut q = *p;
        assert_eq!(q.play(&t).unwrap_err(), err);
        assert_eq!(q, before);
    }
    err
}

/// The message of [`illegal`].
pub fn why(p: &Position, text: &str) -> String {
    illegal(p, text).message
}

/// The player to move as a letter, `-` when the game is over.
pub fn to_move(p: &Position) -> char {
    p.to_move().map_or('-', |a| a.char())
}

/// Plays the turns in order, checking before each one that `expected` names the player to move
/// (one letter per turn).
pub fn script(p: &mut Position, expected: &str, turns: &[&str]) {
    assert_eq!(expected.len(), turns.len(), "one player letter per turn");
    for (i, (who, text)) in expected.chars().zip(turns).enumerate() {
        assert_eq!(
            to_move(p),
            who,
            "turn {} ({text}): wrong player to move in {p:?}",
            i + 1
        );
        play(p, text);
    }
}
