//! RULES.md §12 (end of the game, draws, ruleset options): one or more tests per clause, each
//! named after its clause id; every option is tested with and without it.

mod rules_support;

use djambi_core::{
    Army, ArmySet, Effect, Game, GameRecord, IllegalKind, Outcome, Position, Rules, StateError,
};
use rules_support::*;

fn set(armies: &[Army]) -> ArmySet {
    armies.iter().copied().collect()
}

/// Three players whose chiefs are all hemmed in by orphaned green Militants: nobody can move.
const NOBODY_MOVES: &str = "7MgCb/7MgMg/9/9/9/9/9/MgMg5MgMg/CrMg5MgCy r rby- - 0 - 0 1";
/// Three players: red Militant a5 (it can kill the blue Militant a7), blue Militant i7, yellow
/// Necromobile e3 (it can move the corpse c3).
const QUIET: &str = "8Cb/9/Mb7Mb/9/Mr8/9/2X1Ny4/9/Cr3Cy4 r rby- - 0 - 0 1";
/// Red's own pieces within reach of its own pieces; yellow is red's vassal.
const OWN: &str = "8Cb/9/9/9/2Nr6/2Mr2Mr3/2Cr1Dr4/3My3Mr1/4Ar1Rr2 r rbr- - 0 - 0 1";
/// Four players; red's Diplomat c3 can take the blue chief c5.
const DIPLOMAT: &str = "7Mb1/9/6Mg1Cg/9/2Cb6/9/2Dr6/9/Cr5My1Cy r rbyg - 0 - 0 1";

// ---------------------------------------------------------------------------------------------
// R12.1 – R12.3
// ---------------------------------------------------------------------------------------------

#[test]
fn r12_1_the_last_player_alive_wins_and_the_game_is_over() {
    let mut p = pos("8Cb/7Ar1/9/9/9/9/9/9/Cr8 r rb-- - 0 - 0 1");
    let fx = play_fx(&mut p, "h8-i9");
    assert_eq!(
        fx.last(),
        Some(&Effect::GameOver {
            outcome: Outcome::Winner(Army::Red)
        })
    );
    assert_eq!(p.to_dpn(), "8Ar/7X1/9/9/9/9/9/9/Cr8 - rr-- r 0 - 0 2");
    assert_eq!(p.outcome(), Outcome::Winner(Army::Red));
    assert_eq!(p.outcome().to_string(), "winner r");
    assert!(p.legal_turns().is_empty());
    for text in ["a1-a2", "pass"] {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::GameOver);
        assert_eq!(e.message, "the game is over");
    }
    assert_eq!(p.resign(Army::Red), Err(StateError::GameOver));
    assert_eq!(p.agree_draw(), Err(StateError::GameOver));
}

#[test]
fn r12_2_the_living_players_may_agree_a_draw() {
    // Red in power, on its bonus turn.
    let mut p = pos("8Cb/9/9/8Mb/Mr3Cr4/9/9/9/Cg1Mg3My1Cy r rbyg b 1 - 1 10");
    p.agree_draw().unwrap();
    // Only the player to move and the bonus change.
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/8Mb/Mr3Cr4/9/9/9/Cg1Mg3My1Cy - rbyg b 0 - 1 10"
    );
    assert_eq!(
        p.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow, Army::Green]))
    );
    assert_eq!(p.outcome().to_string(), "draw rbyg");
    assert!(p.legal_turns().is_empty());
    // In a game record.
    let mut g = Game::new(Position::new());
    g.play_text("b7-b5").unwrap();
    g.agree_draw().unwrap();
    let json = serde_json::to_value(g.record()).unwrap();
    assert_eq!(
        json["events"],
        serde_json::json!([{"turn": 1, "player": "r", "move": "b7-b5"}, {"draw": "agreed"}])
    );
    assert_eq!(
        json["result"],
        serde_json::json!({"draw": ["r", "b", "y", "g"]})
    );
}

#[test]
fn r12_3_the_game_is_drawn_when_every_living_player_has_passed() {
    let mut p = pos(NOBODY_MOVES);
    play(&mut p, "pass");
    assert_eq!(
        p.to_dpn(),
        "7MgCb/7MgMg/9/9/9/9/9/MgMg5MgMg/CrMg5MgCy b rby- r 0 r 1 2"
    );
    play(&mut p, "pass");
    assert_eq!(p.passed().to_string(), "rb");
    let fx = play_fx(&mut p, "pass");
    assert_eq!(
        fx,
        [
            Effect::Passed {
                player: Army::Yellow
            },
            Effect::GameOver {
                outcome: Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow]))
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "7MgCb/7MgMg/9/9/9/9/9/MgMg5MgMg/CrMg5MgCy - rby- y 0 rby 3 4"
    );
    assert_eq!(p.outcome().to_string(), "draw rby");
}

#[test]
fn r12_3_the_draw_comes_even_if_the_ruler_still_had_a_bonus_turn() {
    // Two players; red rules, hemmed in on the maze; blue is hemmed in too.
    let mut p = pos("7MgCb/7MgMg/9/3MgMgMg3/3MgCrMg3/3MgMgMg3/9/9/9 b rb-- b 0 - 0 9");
    play(&mut p, "pass");
    assert_eq!((to_move(&p), p.bonus()), ('r', 2));
    play(&mut p, "pass");
    assert_eq!(
        p.to_dpn(),
        "7MgCb/7MgMg/9/3MgMgMg3/3MgCrMg3/3MgMgMg3/9/9/9 - rb-- b 0 rb 2 11"
    );
    assert_eq!(p.outcome(), Outcome::Draw(set(&[Army::Red, Army::Blue])));
}

#[test]
fn r12_3_a_turn_that_is_not_a_pass_starts_the_count_again() {
    // Yellow can move (its Militant i3): red and blue pass, yellow moves, and so on.
    let mut p = pos("7MgCb/7MgMg/9/9/9/9/8My/MgMg5Mg1/CrMg5MgCy r rby- - 0 - 0 1");
    script(&mut p, "rby", &["pass", "pass", "i3-i4"]);
    assert_eq!(p.passed(), ArmySet::EMPTY);
    script(&mut p, "rby", &["pass", "pass", "i4-i5"]);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert_eq!(
        p.to_dpn(),
        "7MgCb/7MgMg/9/9/8My/9/9/MgMg5Mg1/CrMg5MgCy r rby- y 0 - 6 7"
    );
}

// ---------------------------------------------------------------------------------------------
// R12.4 turn_limit
// ---------------------------------------------------------------------------------------------

#[test]
fn r12_4_turn_limit_draws_after_n_quiet_turns() {
    let mut p = pos_with(QUIET, "turn_limit=3");
    // A plain move, a plain move, a Necromobile turn: three quiet turns.
    script(&mut p, "rby", &["a5-a6", "i7-i6", "e3-c3@e3"]);
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/Mb8/Mr7Mb/9/9/2Ny1X4/9/Cr3Cy4 - rby- y 0 - 3 4"
    );
    assert_eq!(
        p.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow]))
    );
}

#[test]
fn r12_4_without_turn_limit_quiet_turns_never_end_the_game() {
    let mut p = pos(QUIET);
    script(&mut p, "rby", &["a5-a6", "i7-i6", "e3-c3@e3"]);
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/Mb8/Mr7Mb/9/9/2Ny1X4/9/Cr3Cy4 r rby- y 0 - 3 4"
    );
    let mut p = pos("8Cb/9/Mb7Mb/9/Mr8/9/2X1Ny4/9/Cr3Cy4 r rby- - 0 - 999999 5000");
    play(&mut p, "a5-a6");
    assert_eq!(p.quiet(), 1_000_000);
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

#[test]
fn r12_4_turn_limit_a_kill_resets_the_count() {
    let mut p = pos_with(QUIET, "turn_limit=4");
    script(
        &mut p,
        "rbyrby",
        &["a5-a6", "i7-i6", "e3-c3@e3", "a6-a7@a6", "i6-i5", "c3-c4"],
    );
    assert_eq!(p.quiet(), 2);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    script(&mut p, "rb", &["a7-a8", "i5-i4"]);
    assert_eq!(p.quiet(), 4);
    assert_eq!(
        p.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow]))
    );
}

#[test]
fn r12_4_turn_limit_passes_count_as_quiet_turns() {
    let mut p = pos_with(NOBODY_MOVES, "turn_limit=2");
    script(&mut p, "rb", &["pass", "pass"]);
    // Not every player passed (R12.3), but two quiet turns were played.
    assert_eq!(p.passed().to_string(), "rb");
    assert_eq!(
        p.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow]))
    );
}

#[test]
fn r12_4_turn_limit_an_elimination_without_a_kill_resets_the_count() {
    // Red must pass; the pass leaves blue's chief encircled: an elimination, quiet 0.
    let mut p = pos_with(
        "7XCb/7XX/9/9/9/9/9/MgMg7/CrMg2Cy4 r rby- - 0 - 5 9",
        "turn_limit=1",
    );
    play(&mut p, "pass");
    assert_eq!(p.quiet(), 0);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert_eq!(
        p.to_dpn(),
        "7XX/7XX/9/9/9/9/9/MgMg7/CrMg2Cy4 y r-y- r 0 r 0 10"
    );
}

#[test]
fn r12_4_turn_limit_a_kill_of_a_hostage_piece_resets_the_count() {
    let dpn = "Cg7Cb/9/9/9/DrDg6Cy/2Mg6/2Cr1Ng4/7Rg1/4Ar1Rr2 r rbyh - 0 - 5 6";
    let mut p = pos_with(dpn, "turn_limit=6");
    play(&mut p, "c3-c4@c3");
    assert_eq!((p.quiet(), p.outcome()), (0, Outcome::Ongoing));
    // A Diplomat's displacement is quiet: the sixth quiet turn ends the game.
    let mut p = pos_with(dpn, "turn_limit=6");
    play(&mut p, "a5-b5@a4");
    assert_eq!(p.quiet(), 6);
    assert_eq!(
        p.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Yellow]))
    );
}

#[test]
fn r12_4_turn_limit_a_resignation_neither_resets_nor_adds_to_the_count() {
    let mut p = pos_with(
        "8Cb/9/Mb7Mb/9/Mr8/9/2X1Ny4/9/Cr3Cy4 r rby- - 0 - 2 9",
        "turn_limit=3",
    );
    p.resign(Army::Blue).unwrap();
    assert_eq!((p.quiet(), p.turn()), (2, 9));
    assert_eq!(p.outcome(), Outcome::Ongoing);
    play(&mut p, "a5-a6");
    assert_eq!(
        p.to_dpn(),
        "8X/9/Mb7Mb/Mr8/9/9/2X1Ny4/9/Cr3Cy4 - r-y- r 0 - 3 10"
    );
    assert_eq!(p.outcome(), Outcome::Draw(set(&[Army::Red, Army::Yellow])));
}

#[test]
fn r12_4_turn_limit_draws_as_soon_as_the_count_reaches_n() {
    // The count is already above the limit: the next quiet turn ends the game.
    let mut p = pos_with(
        "8Cb/9/Mb7Mb/9/Mr8/9/2X1Ny4/9/Cr3Cy4 r rby- - 0 - 7 20",
        "turn_limit=3",
    );
    play(&mut p, "a5-a6");
    assert_eq!(p.to_move(), None);
    assert_eq!(p.quiet(), 8);
    // The ruler's bonus turn counts like any other.
    let mut p = pos_with(
        "8Cb/9/9/8Mb/Mr3Cr4/9/9/9/Cg1Mg3My1Cy r rbyg b 1 - 1 10",
        "turn_limit=2",
    );
    play(&mut p, "a5-a6");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/Mr7Mb/4Cr4/9/9/9/Cg1Mg3My1Cy - rbyg b 0 - 2 11"
    );
}

// ---------------------------------------------------------------------------------------------
// R12.5 own_kills, diplomat_to_maze=false
// ---------------------------------------------------------------------------------------------

#[test]
fn r12_5_own_kills_off_a_player_never_acts_on_its_own_pieces() {
    let p = pos(OWN);
    for (text, target) in [
        ("c3-c4@c3", "c4"),
        ("c3-d2@c3", "d2"),
        ("c4-c5@a1", "c5"),
        ("e1-e3", "e3"),
        ("g1-g2xh2", "h2"),
        ("e3-f4@a9", "f4"),
    ] {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Target, "{text}");
        assert_eq!(e.message, format!("{target}: not an enemy piece (R2.7)"));
    }
}

#[test]
fn r12_5_own_kills_on_a_player_may_kill_and_displace_its_own_pieces() {
    let p = pos_with(OWN, "own_kills");
    for text in [
        "c3-c4@c3", "c3-d2@c3", "c4-c5@a1", "e1-e3", "g1-g2xh2", "e3-f4@a9",
    ] {
        assert!(p.is_legal(&p.parse_turn(text).unwrap()), "{text}");
    }
    assert!(legal(&p).len() > legal(&pos(OWN)).len());
    let mut q = p;
    let fx = play_fx(&mut q, "g1-g2xh2");
    assert!(matches!(fx[1], Effect::Killed { .. }));
    assert_eq!(
        q.to_dpn(),
        "8Cb/9/9/9/2Nr6/2Mr2Mr3/2Cr1Dr4/3My2RrX1/4Ar4 b rbr- r 0 - 0 2"
    );
}

#[test]
fn r12_5_own_kills_never_touches_the_players_own_chief() {
    let p = pos_with(OWN, "own_kills");
    assert_eq!(why(&p, "c4-c3@a1"), "c3: not an enemy piece (R2.7)");
    assert_eq!(why(&p, "e3-c3@a1"), "c3: not an enemy piece (R2.7)");
    assert_eq!(why(&p, "d2-c3@a1"), "c3: not an enemy piece (R2.7)");
}

#[test]
fn r12_5_diplomat_to_maze_on_by_default() {
    let mut p = pos(DIPLOMAT);
    play(&mut p, "c3-c5@e5");
    assert_eq!(p.ruler(), Some(Army::Blue));
}

#[test]
fn r12_5_diplomat_to_maze_false_forbids_a_chief_on_the_maze() {
    let standard = pos(DIPLOMAT);
    let italian = pos_with(DIPLOMAT, "diplomat_to_maze=false");
    let italian_turns = legal(&italian);
    let only_standard: Vec<String> = legal(&standard)
        .into_iter()
        .filter(|t| !italian_turns.contains(t))
        .collect();
    assert_eq!(only_standard, ["c3-c5@e5"]);
    assert_eq!(italian_turns.len() + 1, legal(&standard).len());
    assert_eq!(
        why(&italian, "c3-c5@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
}

// ---------------------------------------------------------------------------------------------
// R12.6 the ruleset belongs to the game and its record
// ---------------------------------------------------------------------------------------------

#[test]
fn r12_6_the_ruleset_is_part_of_the_game_record() {
    let rules: Rules = "own_kills,turn_limit=40".parse().unwrap();
    let mut g = Game::new(Position::from_dpn(OWN, rules).unwrap());
    assert_eq!(g.rules(), rules);
    g.play_text("g1-g2xh2").unwrap();
    let record = g.record();
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        json["rules"],
        serde_json::json!({"own_kills": true, "diplomat_to_maze": true, "turn_limit": 40})
    );
    // Replayed under its own rules, the record gives the same game.
    let again = Game::from_record(&record).unwrap();
    assert_eq!(again.position(), g.position());
    assert_eq!(again.position().rules(), rules);
    // Under the standard rules, the same events are not a game.
    let mut standard: GameRecord = record.clone();
    standard.rules = Rules::default();
    let e = Game::from_record(&standard).unwrap_err();
    assert_eq!(e.event, Some(1));
    assert_eq!(
        e.to_string(),
        "event 1: g1-g2xh2: h2: not an enemy piece (R2.7)"
    );
}
