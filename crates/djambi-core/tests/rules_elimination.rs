//! RULES.md §9 (elimination and control), first part: chiefs killed (R9.1, R9.2) and encirclement
//! (R9.3, its Decision included). One or more tests per clause, each named after its clause id.
//! Orphans, the order inside a turn, resignations and the ranking (R9.4–R9.7) are in
//! `rules_control.rs`.

mod rules_support;

use djambi_core::{Army, Effect, Outcome, Role};
use rules_support::*;

// ---------------------------------------------------------------------------------------------
// R9.1, R9.2 Killed chiefs
// ---------------------------------------------------------------------------------------------

#[test]
fn r9_1_the_controller_of_the_killing_piece_takes_the_eliminated_players_armies() {
    // Red controls yellow (its vassal); yellow's Militant h8 kills blue's chief.
    let mut p = pos("Cr7Cb/7My1/8Mb/9/9/9/9/9/Cg1Mg6 r rbrg - 0 - 0 1");
    let fx = play_fx(&mut p, "h8-i9@h8");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Yellow, Role::Militant),
                from: sq("h8"),
                to: sq("i9")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Chief),
                at: sq("i9"),
                by: piece(Army::Yellow, Role::Militant)
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Blue]),
                from: Some(Army::Blue)
            },
            Effect::CorpseMoved {
                from: sq("i9"),
                to: sq("h8")
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "Cr7My/7X1/8Mb/9/9/9/9/9/Cg1Mg6 g rrrg r 0 - 0 2"
    );
    assert_eq!(p.alive().to_string(), "rg");
    // The blue Militant is red's to move now.
    play(&mut p, "c1-c2");
    assert!(!legal_from(&p, "i7").is_empty());
}

#[test]
fn r9_2_a_player_never_kills_its_own_chief_even_with_own_kills() {
    // Red chief c3; red Assassin c6, yellow (red's vassal) Militant d4, red Reporter a3.
    let dpn = "8Cb/9/9/2Ar6/9/3My5/Rr1Cr6/9/9 r rbr- - 0 - 0 1";
    for rules in ["", "own_kills"] {
        let p = pos_with(dpn, rules);
        for text in ["c6-c3", "d4-c3@a1", "a3-b3xc3"] {
            assert_eq!(
                why(&p, text),
                "c3: not an enemy piece (R2.7)",
                "{text} ({rules})"
            );
        }
        assert!(
            legal(&p)
                .iter()
                .all(|t| !t.contains("-c3") && !t.contains("xc3")),
            "{rules}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// R9.3 Encirclement
// ---------------------------------------------------------------------------------------------

#[test]
fn r9_3_a_chief_surrounded_by_corpses_without_a_necromobile_dies() {
    // Blue's chief i9 has corpses on h9 and h8; red's Militant kills a yellow one and buries it
    // on i8, the last free neighbour.
    let mut p = pos("Cy6XCb/7X1/9/4Mr1My2/9/9/9/9/Cr8 r rby- - 0 - 0 1");
    let fx = play_fx(&mut p, "e6-g6@i8");
    assert_eq!(p.to_dpn(), "Cy6XX/7XX/9/6Mr2/9/9/9/9/Cr8 y r-y- r 0 - 0 2");
    assert_eq!(
        fx[3..],
        [
            Effect::Encircled {
                player: Army::Blue,
                at: sq("i9")
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::Orphaned {
                armies: set(&[Army::Blue]),
                from: Army::Blue
            },
        ]
    );
}

#[test]
fn r9_3_a_chief_on_an_edge_needs_five_corpses() {
    let dpn = "8Cy/9/3Mr5/XX7/Cb2My5/XX7/9/9/8Cr r rby- - 0 - 0 1";
    // Four corpses: a Militant move elsewhere changes nothing.
    assert_eq!(
        after(dpn, "d7-e7"),
        "8Cy/9/4Mr4/XX7/Cb2My5/XX7/9/9/8Cr b rby- r 0 - 1 2"
    );
    // The fifth, on b5, kills.
    assert_eq!(
        after(dpn, "d7-d5@b5"),
        "8Cy/9/9/XX7/XX1Mr5/XX7/9/9/8Cr y r-y- r 0 - 0 2"
    );
}

#[test]
fn r9_3_any_necromobile_the_player_controls_saves_its_chief_even_a_blocked_one() {
    // Blue's Necromobile i1 is walled in by red Militants: it cannot move, yet it saves.
    let mut p = pos("Cy6XCb/7X1/9/4Mr1My2/9/9/9/7MrMr/Cr6MrNb r rby- - 0 - 0 1");
    play(&mut p, "e6-g6@i8");
    assert_eq!(
        p.to_dpn(),
        "Cy6XCb/7XX/9/6Mr2/9/9/9/7MrMr/Cr6MrNb b rby- r 0 - 0 2"
    );
    assert_eq!(legal(&p), ["pass"], "blue cannot move at all, and lives");
    // A vassal's Necromobile saves too: blue controls green and its Necromobile e2.
    let mut p = pos("Cy6XCb/7X1/9/4Mr1My2/9/9/9/4Ng4/Cr8 r rbyb - 0 - 0 1");
    play(&mut p, "e6-g6@i8");
    assert_eq!(
        p.to_dpn(),
        "Cy6XCb/7XX/9/6Mr2/9/9/9/4Ng4/Cr8 b rbyb r 0 - 0 2"
    );
}

#[test]
fn r9_3_killing_the_last_necromobile_of_an_encircled_chief_kills_it() {
    let mut p = pos("Cy6XCb/7XX/9/9/9/9/9/4Nb4/Cr3Ar4 r rby- - 0 - 0 1");
    let fx = play_fx(&mut p, "e1-e2");
    assert_eq!(
        p.to_dpn(),
        "Cy6XX/7XX/9/9/9/9/9/4Ar4/Cr3X4 y r-y- r 0 - 0 2"
    );
    assert!(fx.contains(&Effect::Encircled {
        player: Army::Blue,
        at: sq("i9")
    }));
}

#[test]
fn r9_3_encirclement_is_examined_after_a_pass_too() {
    // Red's chief is hemmed in by orphaned green pieces and must pass; blue's chief is already
    // surrounded by corpses: the pass is a turn, and blue dies after it.
    let mut p = pos("7XCb/7XX/9/9/9/9/9/MgMg7/CrMg2Cy4 r rby- - 0 - 0 1");
    assert_eq!(legal(&p), ["pass"]);
    let fx = play_fx(&mut p, "pass");
    assert_eq!(
        fx,
        [
            Effect::Passed { player: Army::Red },
            Effect::Encircled {
                player: Army::Blue,
                at: sq("i9")
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::Orphaned {
                armies: set(&[Army::Blue]),
                from: Army::Blue
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "7XX/7XX/9/9/9/9/9/MgMg7/CrMg2Cy4 y r-y- r 0 r 0 2"
    );
}

#[test]
fn r9_3_decision_an_empty_maze_does_not_encircle() {
    // Blue's chief d4: corpses on seven neighbours, the eighth is the empty maze.
    let dpn = "Cr8/9/9/9/2XX3Mr1/2XCbX4/2XXX4/9/8Cy r rby- - 0 - 0 1";
    assert_eq!(
        after(dpn, "h5-h6"),
        "Cr8/9/9/7Mr1/2XX5/2XCbX4/2XXX4/9/8Cy b rby- r 0 - 1 2"
    );
    // The chief may even go there.
    let mut p = pos(dpn);
    play(&mut p, "h5-h6");
    assert_eq!(plain_destinations(&p, "d4"), texts("e5 f6 g7 h8 i9"));
}

#[test]
fn r9_3_decision_a_corpse_on_the_maze_does_encircle() {
    let dpn = "Cr8/9/9/9/2XXX2Mr1/2XCbX4/2XXX4/9/8Cy r rby- - 0 - 0 1";
    assert_eq!(
        after(dpn, "h5-h6"),
        "Cr8/9/9/7Mr1/2XXX4/2XXX4/2XXX4/9/8Cy y r-y- r 0 - 0 2"
    );
}

#[test]
fn r9_3_decision_living_pieces_do_not_encircle() {
    // A red Militant on c3 instead of a corpse: blue's chief lives (and could kill it).
    let dpn = "Cr8/9/9/9/2XXX2Mr1/2XCbX4/2MrXX4/9/8Cy r rby- - 0 - 0 1";
    assert_eq!(
        after(dpn, "h5-h6"),
        "Cr8/9/9/7Mr1/2XXX4/2XCbX4/2MrXX4/9/8Cy b rby- r 0 - 1 2"
    );
}

#[test]
fn r9_3_decision_examination_starts_after_the_mover_and_stops_with_one_player_left() {
    // Both chiefs are surrounded by corpses, neither player has a Necromobile. The player
    // examined first (the one after the mover) dies; then only one player is alive and the
    // examination stops: the mover wins.
    let dpn = "7XCb/7XX/9/4Mr4/9/4Mb4/9/XX7/CrX7 r rb-- - 0 - 0 1";
    let mut p = pos(dpn);
    let fx = play_fx(&mut p, "e6-e7");
    assert_eq!(
        p.to_dpn(),
        "7XX/7XX/4Mr4/9/9/4Mb4/9/XX7/CrX7 - r--- r 0 - 0 2"
    );
    assert_eq!(p.outcome(), Outcome::Winner(Army::Red));
    assert_eq!(
        fx.last(),
        Some(&Effect::GameOver {
            outcome: Outcome::Winner(Army::Red)
        })
    );
    // The same with blue to move: red is examined first and dies.
    let mut p = pos("7XCb/7XX/9/4Mr4/9/4Mb4/9/XX7/CrX7 b rb-- r 0 - 0 2");
    play(&mut p, "e4-e3");
    assert_eq!(
        p.to_dpn(),
        "7XCb/7XX/9/4Mr4/9/9/4Mb4/XX7/XX7 - -b-- b 0 - 0 3"
    );
    assert_eq!(p.outcome(), Outcome::Winner(Army::Blue));
}

#[test]
fn r9_3_decision_the_mover_is_examined_last_and_may_die_of_its_own_move() {
    // Only red's chief is surrounded; red moves a Militant and is examined last.
    let mut p = pos("8Cb/9/9/4Mr4/9/9/9/XX7/CrX6Cy r rby- - 0 - 0 1");
    let fx = play_fx(&mut p, "e6-e7");
    assert_eq!(p.to_dpn(), "8Cb/9/4Mr4/9/9/9/9/XX7/XX6Cy b -by- r 0 - 0 2");
    assert_eq!(
        fx[1..],
        [
            Effect::Encircled {
                player: Army::Red,
                at: sq("a1")
            },
            Effect::Eliminated { player: Army::Red },
            Effect::Orphaned {
                armies: set(&[Army::Red]),
                from: Army::Red
            },
        ]
    );
}
