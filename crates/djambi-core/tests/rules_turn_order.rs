//! RULES.md §8 (turn order): scripted sequences checking the player to move before every turn,
//! with and without a ruler, with 4, 3 and 2 living players, the Decision of R8.5, passes, and
//! resignations during another player's turn.

mod rules_support;

use djambi_core::{Army, Effect, IllegalKind, Position};
use rules_support::*;

/// Four players, red in power; each player has a Militant to shuffle: red a5, blue i7,
/// yellow g1, green c1. Blue is to play its regular turn (green played the last one).
const RED_RULES_4P: &str = "8Cb/9/8Mb/9/Mr3Cr4/9/9/9/Cg1Mg3My1Cy b rbyg g 0 - 0 9";
/// The same without a ruler: the red chief stands on d4.
const NO_RULER_4P: &str = "8Cb/9/8Mb/9/Mr8/3Cr5/9/9/Cg1Mg3My1Cy r rbyg - 0 - 0 1";
/// Two players, red in power, blue to play.
const RED_RULES_2P: &str = "8Cb/9/8Mb/9/Mr3Cr4/9/9/9/9 b rb-- b 0 - 0 9";
/// Three players (red, blue, yellow), red in power, yellow to play.
const RED_RULES_3P: &str = "8Cb/9/8Mb/9/Mr3Cr4/9/9/9/6My1Cy y rby- b 0 - 0 9";

fn resign(p: &mut Position, army: Army) -> Vec<Effect> {
    p.resign(army).unwrap()
}

#[test]
fn r8_1_base_order_skips_players_no_longer_alive() {
    // Yellow is dead: red, blue, green, red, …
    let mut p = pos("Cr7Cb/9/Mr7Mb/9/9/9/9/9/Cg1Mg6 r rb-g - 0 - 0 1");
    script(
        &mut p,
        "rbgrbgr",
        &[
            "a7-a6", "i7-i6", "c1-c2", "a6-a7", "i6-i7", "c2-c1", "a7-a6",
        ],
    );
    assert_eq!(to_move(&p), 'b');
}

#[test]
fn r8_1_three_player_game_plays_red_blue_yellow() {
    let mut p = Position::start_hostage(Army::Green, Default::default());
    script(
        &mut p,
        "rbyrby",
        &["b7-b6", "h7-h6", "h3-h4", "b6-b5", "h6-h5", "i3-i4"],
    );
    assert_eq!(to_move(&p), 'r');
    assert_eq!(p.last_regular(), Some(Army::Yellow));
}

#[test]
fn r8_2_without_a_ruler_players_take_regular_turns_in_base_order() {
    let mut p = Position::new();
    script(
        &mut p,
        "rbygrbyg",
        &[
            "b7-b6", "h7-h6", "h3-h4", "b3-b4", "b6-b5", "h6-h5", "i3-i4", "b4-b3",
        ],
    );
    assert_eq!(to_move(&p), 'r');
    assert_eq!(p.bonus(), 0);
    assert_eq!(p.turn(), 9);
}

#[test]
fn r8_3_with_four_players_the_ruler_plays_after_every_other_regular_turn() {
    let mut p = pos(RED_RULES_4P);
    play(&mut p, "i7-i6");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/8Mb/Mr3Cr4/9/9/9/Cg1Mg3My1Cy r rbyg b 1 - 1 10"
    );
    script(
        &mut p,
        "ryrgrbr",
        &[
            "a5-a6", "g1-g2", "a6-a5", "c1-c2", "a5-a6", "i6-i7", "a6-a5",
        ],
    );
    // b r y r g r b r, then yellow again.
    assert_eq!((to_move(&p), p.bonus()), ('y', 0));
    assert_eq!(p.last_regular(), Some(Army::Blue));
}

#[test]
fn r8_3_with_three_players_the_ruler_plays_after_every_other_regular_turn() {
    let mut p = pos(RED_RULES_3P);
    script(
        &mut p,
        "yrbryrbr",
        &[
            "g1-g2", "a5-a6", "i7-i6", "a6-a5", "g2-g1", "a5-a6", "i6-i7", "a6-a5",
        ],
    );
    assert_eq!(to_move(&p), 'y');
}

#[test]
fn r8_4_with_two_players_the_ruler_plays_two_bonus_turns() {
    let mut p = pos(RED_RULES_2P);
    play(&mut p, "i7-i6");
    assert_eq!((to_move(&p), p.bonus()), ('r', 2));
    play(&mut p, "a5-a6");
    assert_eq!((to_move(&p), p.bonus()), ('r', 1));
    assert_eq!(p.to_dpn(), "8Cb/9/9/Mr7Mb/4Cr4/9/9/9/9 r rb-- b 1 - 2 11");
    script(
        &mut p,
        "rbrrbrr",
        &[
            "a6-a5", "i6-i7", "a5-a6", "a6-a5", "i7-i6", "a5-a6", "a6-a5",
        ],
    );
    assert_eq!((to_move(&p), p.bonus()), ('b', 0));
}

#[test]
fn r8_5_the_first_regular_turn_goes_to_the_first_living_player() {
    let p = Position::new();
    assert_eq!((to_move(&p), p.last_regular()), ('r', None));
    // Red is the hostage: blue begins.
    let p = Position::start_hostage(Army::Red, Default::default());
    assert_eq!(to_move(&p), 'b');
    let mut p = p;
    script(&mut p, "bygb", &["h7-h6", "h3-h4", "b3-b4", "h6-h5"]);
}

#[test]
fn r8_5_the_next_regular_turn_follows_the_last_regular_one_skipping_the_ruler() {
    // Red rules; yellow played the last regular turn, red its bonus turn: green is next.
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/9/Cg1Mg3My1Cy r rbyg y 1 - 0 9");
    play(&mut p, "a5-a6");
    assert_eq!(to_move(&p), 'g');
    // Green played last: blue is next (red, the ruler, is skipped).
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/9/Cg1Mg3My1Cy r rbyg g 1 - 0 9");
    play(&mut p, "a5-a6");
    assert_eq!(to_move(&p), 'b');
}

#[test]
fn r8_5_bonus_turns_are_fixed_after_the_regular_turns_eliminations() {
    // Three players, red in power: blue's Assassin kills the yellow chief, leaving two players,
    // so red plays two bonus turns at once.
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/7Ab1/8Cy b rby- y 0 - 0 9");
    play(&mut p, "h2-i1");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/8Mb/9/Mr3Cr4/9/9/7X1/8Ab r rbb- b 2 - 0 10"
    );
    script(
        &mut p,
        "rrbrrb",
        &["a5-a6", "a6-a5", "i7-i6", "a5-a6", "a6-a5", "i6-i7"],
    );
}

#[test]
fn r8_5_a_chief_set_on_the_maze_by_a_diplomat_plays_its_bonus_turns_at_once() {
    // Two players, nobody in power: red's Diplomat sets the blue chief on the maze.
    let mut p = pos("Cr8/9/Mr7Mb/9/2Cb6/9/2Dr6/9/9 r rb-- - 0 - 0 1");
    play(&mut p, "c3-c5@e5");
    // Blue rules (and takes the orphaned, empty, yellow and green armies, R9.4).
    assert_eq!(p.to_dpn(), "Cr8/9/Mr7Mb/9/2Dr1Cb4/9/9/9/9 b rbbb r 2 - 1 2");
    script(
        &mut p,
        "bbrbbr",
        &["i7-i6", "i6-i7", "a7-a6", "i7-i6", "i6-i7", "a6-a7"],
    );
    // Four players: one bonus turn at once, then the order goes on after red.
    let mut p = pos("7Mb1/9/6Mg1Cg/9/2Cb6/9/2Dr6/9/Cr5My1Cy r rbyg - 0 - 0 1");
    script(
        &mut p,
        "rbybgbrb",
        &[
            "c3-c5@e5", "h9-h8", "g1-f1", "h8-h9", "g7-g6", "h9-h8", "a1-a2", "h8-h9",
        ],
    );
    assert_eq!(to_move(&p), 'y');
}

#[test]
fn r8_5_a_player_entering_power_on_its_regular_turn_gets_no_bonus_turn_first() {
    let mut p = pos(NO_RULER_4P);
    play(&mut p, "d4-e5");
    assert_eq!(
        (to_move(&p), p.bonus(), p.ruler()),
        ('b', 0, Some(Army::Red))
    );
    script(
        &mut p,
        "bryrgrb",
        &[
            "i7-i6", "a5-a6", "g1-g2", "a6-a5", "c1-c2", "a5-a6", "i6-i7",
        ],
    );
    assert_eq!(to_move(&p), 'r');
}

#[test]
fn r8_5_bonus_turns_are_dropped_when_there_is_no_ruler() {
    // Blue's Diplomat takes red's chief off the maze on blue's regular turn: red is owed
    // nothing and plays again only in its regular place.
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/5Db3/9/9/Cg1Mg3My1Cy b rbyg g 0 - 0 9");
    play(&mut p, "f4-e5>f4@d4");
    assert_eq!((to_move(&p), p.bonus(), p.ruler()), ('y', 0, None));
    script(&mut p, "ygrb", &["g1-g2", "c1-c2", "a5-a6", "i7-i6"]);
    // The ruler resigns with a bonus turn owed: the turn goes to the next regular player.
    let mut p = pos(RED_RULES_4P);
    play(&mut p, "i7-i6");
    assert_eq!((to_move(&p), p.bonus()), ('r', 1));
    resign(&mut p, Army::Red);
    assert_eq!((to_move(&p), p.bonus(), p.ruler()), ('y', 0, None));
    script(&mut p, "ygby", &["g1-g2", "c1-c2", "i6-i7", "g2-g1"]);
}

#[test]
fn r8_5_decision_ruler_leaving_the_maze_with_two_players() {
    // b r(leaves) b r: red's second bonus turn is forfeited, and its bonus turn counts as its
    // regular turn.
    let mut p = pos(RED_RULES_2P);
    script(&mut p, "br", &["i7-i6", "e5-e4"]);
    assert_eq!(p.to_dpn(), "8Cb/9/9/8Mb/Mr8/4Cr4/9/9/9 b rb-- r 0 - 2 11");
    script(&mut p, "brbr", &["i6-i7", "a5-a6", "i7-i6", "a6-a5"]);
    assert_eq!(to_move(&p), 'b');
}

#[test]
fn r8_5_decision_ruler_leaving_the_maze_when_its_regular_turn_would_come_next() {
    // Three players: y r(leaves) b y r b — red does not play twice in a row.
    let mut p = pos(RED_RULES_3P);
    script(&mut p, "yr", &["g1-g2", "e5-e4"]);
    assert_eq!((p.last_regular(), p.ruler()), (Some(Army::Red), None));
    script(
        &mut p,
        "byrby",
        &["i7-i6", "g2-g1", "a5-a6", "i6-i7", "g1-g2"],
    );
}

#[test]
fn r8_5_decision_ruler_leaving_the_maze_when_another_player_is_next() {
    // Four players: b r(leaves) y g r b — the order simply goes on.
    let mut p = pos(RED_RULES_4P);
    script(&mut p, "br", &["i7-i6", "e5-e4"]);
    assert_eq!((p.last_regular(), p.ruler()), (Some(Army::Blue), None));
    script(&mut p, "ygrb", &["g1-g2", "c1-c2", "a5-a6", "i6-i7"]);
    assert_eq!(to_move(&p), 'y');
}

#[test]
fn r8_6_a_player_without_a_legal_turn_passes() {
    // Blue's chief is hemmed in by orphaned green pieces (no enemies, no corpses).
    let mut p = pos("7MgCb/7MgMg/9/9/Mr8/9/9/9/Cr8 r rb-- - 0 - 0 1");
    let e = illegal(&p, "pass");
    assert_eq!(e.kind, IllegalKind::Pass);
    assert_eq!(
        e.message,
        "pass: a player with a legal turn may not pass (R8.6)"
    );
    play(&mut p, "a5-a6");
    assert_eq!(legal(&p), ["pass"]);
    assert_eq!(why(&p, "i9-h9"), "h9: not an enemy piece (R2.7)");
    let fx = play_fx(&mut p, "PASS");
    assert_eq!(fx, [Effect::Passed { player: Army::Blue }]);
    assert_eq!(p.to_dpn(), "7MgCb/7MgMg/9/Mr8/9/9/9/9/Cr8 r rb-- b 0 b 2 3");
    play(&mut p, "a6-a5");
    assert_eq!(p.to_dpn(), "7MgCb/7MgMg/9/9/Mr8/9/9/9/Cr8 b rb-- r 0 - 3 4");
}

#[test]
fn r8_7_a_resignation_during_another_players_turn_changes_nothing_but_the_order() {
    let mut p = pos(NO_RULER_4P);
    play(&mut p, "a5-a6");
    let before = p.to_dpn();
    let fx = resign(&mut p, Army::Yellow);
    assert_eq!(
        fx,
        [
            Effect::Resigned {
                player: Army::Yellow,
                at: sq("i1")
            },
            Effect::Eliminated {
                player: Army::Yellow
            },
            Effect::Orphaned {
                armies: [Army::Yellow].into_iter().collect(),
                from: Army::Yellow
            },
        ]
    );
    // Same player to move, same last regular turn, same turn and quiet counters.
    assert_eq!(
        before,
        "8Cb/9/8Mb/Mr8/9/3Cr5/9/9/Cg1Mg3My1Cy b rbyg r 0 - 1 2"
    );
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/8Mb/Mr8/9/3Cr5/9/9/Cg1Mg3My1X b rb-g r 0 - 1 2"
    );
    script(
        &mut p,
        "bgrbg",
        &["i7-i6", "c1-c2", "a6-a5", "i6-i7", "c2-c1"],
    );
}

#[test]
fn r8_7_the_player_to_move_resigns_and_the_next_one_plays() {
    let mut p = pos(NO_RULER_4P);
    play(&mut p, "a5-a6");
    resign(&mut p, Army::Blue);
    assert_eq!(
        p.to_dpn(),
        "8X/9/8Mb/Mr8/9/3Cr5/9/9/Cg1Mg3My1Cy y r-yg r 0 - 1 2"
    );
    script(&mut p, "ygry", &["g1-g2", "c1-c2", "a6-a5", "g2-g1"]);
}

#[test]
fn r8_7_a_resignation_during_the_rulers_bonus_turn() {
    let mut p = pos(RED_RULES_4P);
    play(&mut p, "i7-i6");
    assert_eq!((to_move(&p), p.bonus()), ('r', 1));
    resign(&mut p, Army::Yellow);
    // Red keeps its one bonus turn; yellow's armies go to the ruler (R9.4).
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/8Mb/Mr3Cr4/9/9/9/Cg1Mg3My1X r rbrg b 1 - 1 10"
    );
    script(
        &mut p,
        "rgrbrgr",
        &[
            "a5-a6", "c1-c2", "g1-g2", "i6-i7", "a6-a5", "c2-c1", "g2-g1",
        ],
    );
}

#[test]
fn r8_7_a_resignation_owes_the_ruler_no_bonus_turn() {
    // Blue, to play its regular turn, resigns: yellow plays next, not red.
    let mut p = pos(RED_RULES_4P);
    resign(&mut p, Army::Blue);
    assert_eq!(
        p.to_dpn(),
        "8X/9/8Mb/9/Mr3Cr4/9/9/9/Cg1Mg3My1Cy y rryg g 0 - 0 9"
    );
    script(
        &mut p,
        "yrgryr",
        &["g1-g2", "a5-a6", "c1-c2", "i7-i6", "g2-g1", "a6-a5"],
    );
}

#[test]
fn r8_7_a_player_eliminated_on_another_players_turn_loses_its_place() {
    // Red's Assassin kills blue's chief; blue would have been next: yellow plays.
    let mut p = pos("8Cb/7Ar1/8Mb/9/Mr8/3Cr5/9/9/Cg1Mg3My1Cy r rbyg - 0 - 0 1");
    play(&mut p, "h8-i9");
    assert_eq!(
        p.to_dpn(),
        "8Ar/7X1/8Mb/9/Mr8/3Cr5/9/9/Cg1Mg3My1Cy y rryg r 0 - 0 2"
    );
    script(
        &mut p,
        "ygrygr",
        &["g1-g2", "c1-c2", "i7-i6", "g2-g1", "c2-c1", "a5-a6"],
    );
}

#[test]
fn r8_7_a_ruler_eliminating_a_player_on_a_bonus_turn_gets_two_bonus_turns_afterwards() {
    // Three players, red in power: on its bonus turn red kills yellow's chief; the next
    // regular turn is blue's, after which red plays twice.
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/7Ar1/6My1Cy b rby- y 0 - 0 9");
    script(&mut p, "br", &["i7-i6", "h2-i1"]);
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/8Mb/Mr3Cr4/9/9/7X1/6My1Ar b rbr- b 0 - 0 11"
    );
    script(
        &mut p,
        "brrbrr",
        &["i6-i7", "a5-a6", "a6-a5", "i7-i6", "g1-g2", "g2-g1"],
    );
    assert_eq!(to_move(&p), 'b');
}

#[test]
fn r8_7_a_resignation_leaving_two_players_does_not_change_the_bonus_owed() {
    // Three players, red in power, red on its (single) bonus turn; yellow resigns. Red plays
    // its one bonus turn, then blue, then red twice.
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/9/6My1Cy b rby- y 0 - 0 9");
    play(&mut p, "i7-i6");
    resign(&mut p, Army::Yellow);
    assert_eq!((to_move(&p), p.bonus()), ('r', 1));
    script(
        &mut p,
        "rbrrb",
        &["a5-a6", "i6-i7", "a6-a5", "g1-g2", "i7-i6"],
    );
}

#[test]
fn r8_5_a_long_game_with_power_changing_hands() {
    let mut p = pos("8Cb/7Ab1/8Mb/9/Mr8/3Cr1Cy3/9/9/Cg1Mg3My2 r rbyg - 0 - 0 1");
    script(
        &mut p,
        "rbygrbryrgrb",
        &[
            // No ruler: base order (R8.2).
            "a5-a6", "i7-i6", "g1-g2", "c1-c2",
            // Red enters the maze on its regular turn: no bonus turn before blue's (R8.5).
            "d4-e5", "i6-i7", "a6-a5", "g2-g1", "a5-a6", "c2-c1", "a6-a5",
            // Blue's Assassin kills red's chief in power and leaves to e8 (R7.4).
            "h8-e5>e8",
        ],
    );
    assert_eq!(
        p.to_dpn(),
        "8Cb/4Ab2X1/8Mb/9/Mr8/5Cy3/9/9/Cg1Mg3My2 y bbyg b 0 - 0 13"
    );
    script(
        &mut p,
        "ygybyg",
        &[
            // Yellow enters the maze on its regular turn; then one bonus turn after each
            // regular turn of green and blue (three players, R8.3).
            "f4-e5", "c1-c2", "g1-g2",
            // Blue moves red's old Militant: it controls the red army (R9.1).
            "a5-a4",
            // Yellow leaves the maze on its bonus turn after blue's regular turn: its bonus
            // turn counts as its regular turn, green is next (R8.5 Decision).
            "e5-f4", "c2-c1",
        ],
    );
    script(&mut p, "by", &["i7-i6", "g2-g1"]);
    assert_eq!(
        p.to_dpn(),
        "8Cb/4Ab2X1/9/8Mb/9/Mr4Cy3/9/9/Cg1Mg3My2 g bbyg y 0 - 8 21"
    );
}
