//! RULES.md §7 (the maze and power): one or more tests per clause, each named after its clause
//! id, the Decision of R7.4 included.

mod rules_support;

use djambi_core::{Army, ArmySet, Controller, Effect, IllegalKind, Piece, Position, Role};
use rules_support::*;

fn piece(army: Army, role: Role) -> Piece {
    Piece { army, role }
}

fn set(armies: &[Army]) -> ArmySet {
    armies.iter().copied().collect()
}

/// Blue rules from e5; red Assassin e8; red chief a1, blue Militant g5, a corpse on e3, yellow
/// chief i1 (three players). The maze's exits are cut by a1, g5, e3 and i1.
const ASSASSIN: &str = "9/4Ar4/9/9/4Cb1Mb2/9/4X4/9/Cr7Cy r rby- y 0 - 0 9";
/// The same with a red Diplomat on e8.
const DIPLOMAT: &str = "9/4Dr4/9/9/4Cb1Mb2/9/4X4/9/Cr7Cy r rby- y 0 - 0 9";
/// A corpse on the maze, a red Necromobile on e8, the blue chief on i5.
const NECROMOBILE: &str = "9/4Nr4/9/9/4X1Mb1Cb/9/4X4/9/Cr7Cy r rby- y 0 - 0 9";
/// The squares the maze's occupant can be left to from these positions, e8 included.
const EXITS: &str = "e6 e7 e8 e9 f6 g7 h8 i9 d6 c7 b8 a9 d5 c5 b5 a5 f5 f4 g3 h2 e4 d4 c3 b2";

#[test]
fn r7_1_a_chief_on_the_maze_is_in_power() {
    let mut p = pos("8Cb/9/9/9/9/3Cr5/9/9/Cg7Cy r rbyg - 0 - 0 1");
    assert_eq!(p.ruler(), None);
    let fx = play_fx(&mut p, "d4-e5");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Chief),
                from: sq("d4"),
                to: sq("e5")
            },
            Effect::TookPower { player: Army::Red },
        ]
    );
    assert_eq!(p.ruler(), Some(Army::Red));
    assert_eq!(p.to_dpn(), "8Cb/9/9/9/4Cr4/9/9/9/Cg7Cy b rbyg r 0 - 1 2");
    play(&mut p, "i9-i8");
    assert_eq!((to_move(&p), p.bonus()), ('r', 1));
    // Leaving the maze ends the power.
    let fx = play_fx(&mut p, "e5-d4");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Chief),
                from: sq("e5"),
                to: sq("d4")
            },
            Effect::LostPower { player: Army::Red },
        ]
    );
    assert_eq!(p.ruler(), None);
}

#[test]
fn r7_1_a_hostage_chief_on_the_maze_confers_no_power() {
    let p = pos("8Cb/9/9/9/4Cg4/9/9/9/Cr7Cy r rbyh - 0 - 0 1");
    assert_eq!(p.ruler(), None);
    assert_eq!(p.bonus(), 0);
    // A ruler to move always has a bonus turn to play; the hostage chief is no ruler.
    let e = Position::from_dpn(
        "8Cb/9/9/9/4Cy4/9/9/9/Cr7Cg y rbyg r 0 - 0 2",
        Default::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "bonus: the ruler is to move with no bonus turn (a ruler only plays bonus turns)"
    );
}

#[test]
fn r7_2_a_militant_may_not_kill_the_chief_in_power() {
    let p = pos("9/9/9/9/3NrCbDr3/3ArRrMr3/9/9/Cr8 r rb-- r 0 - 0 7");
    assert_eq!(p.ruler(), Some(Army::Blue));
    let e = illegal(&p, "f4-e5@a2");
    assert_eq!(e.kind, IllegalKind::Maze);
    assert_eq!(
        e.message,
        "e5: a Militant may not act on what occupies the maze (R7.3)"
    );
    assert!(legal_from(&p, "f4").iter().all(|t| !t.contains("-e5")));
}

#[test]
fn r7_3_only_assassin_and_diplomat_act_on_a_chief_on_the_maze() {
    // Around blue's chief in power: red Reporter e4, Militant f4, Necromobile d5, Assassin d4,
    // Diplomat f5.
    let p = pos("9/9/9/9/3NrCbDr3/3ArRrMr3/9/9/Cr8 r rb-- r 0 - 0 7");
    let onto_maze: std::collections::BTreeSet<String> = legal(&p)
        .iter()
        .filter(|t| t[3..5] == *"e5")
        .map(|t| t[..2].to_string())
        .collect();
    assert_eq!(
        onto_maze.into_iter().collect::<Vec<_>>(),
        ["d4", "f5"],
        "the Assassin and the Diplomat"
    );
    for (text, role) in [
        ("e4-e5", "Reporter"),
        ("f4-e5", "Militant"),
        ("d5-e5>d5@a2", "Necromobile"),
    ] {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Maze, "{text}");
        assert_eq!(
            e.message,
            format!("e5: a {role} may not act on what occupies the maze (R7.3)")
        );
    }
}

#[test]
fn r7_3_only_the_necromobile_acts_on_a_corpse_on_the_maze() {
    let p = pos("8Cb/9/9/5Cr3/3NrXDr3/3ArRrMr3/9/9/9 r rb-- b 0 - 0 7");
    let onto_maze: std::collections::BTreeSet<String> = legal(&p)
        .iter()
        .filter(|t| t[3..5] == *"e5")
        .map(|t| t[..2].to_string())
        .collect();
    assert_eq!(onto_maze.into_iter().collect::<Vec<_>>(), ["d5"]);
    for (text, role) in [
        ("f6-e5", "Chief"),
        ("d4-e5>d4", "Assassin"),
        ("f5-e5>f5@a2", "Diplomat"),
        ("e4-e5", "Reporter"),
        ("f4-e5", "Militant"),
    ] {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Maze, "{text}");
        let article = if role == "Assassin" { "an" } else { "a" };
        assert_eq!(
            e.message,
            format!("e5: {article} {role} may not act on what occupies the maze (R7.3)")
        );
    }
}

#[test]
fn r7_4_assassin_kills_exits_and_its_victim_goes_to_its_start_square() {
    let p = pos(ASSASSIN);
    let expected: Vec<String> = EXITS
        .split_whitespace()
        .filter(|e| *e != "e8")
        .map(|e| format!("e8-e5>{e}"))
        .collect();
    let mut expected = expected;
    expected.sort();
    let maze_turns: Vec<String> = legal_from(&p, "e8")
        .into_iter()
        .filter(|t| t.starts_with("e8-e5"))
        .collect();
    assert_eq!(maze_turns, expected);
    let mut q = p;
    let fx = play_fx(&mut q, "e8-e5>e9");
    assert_eq!(
        q.to_dpn(),
        "4Ar4/4X4/9/9/6Mb2/9/4X4/9/Cr7Cy y rry- r 0 - 0 10"
    );
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Assassin),
                from: sq("e8"),
                to: sq("e5")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Chief),
                at: sq("e5"),
                by: piece(Army::Red, Role::Assassin)
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Blue]),
                from: Some(Army::Blue)
            },
            Effect::ExitedMaze {
                piece: piece(Army::Red, Role::Assassin),
                to: sq("e9")
            },
            Effect::CorpseMoved {
                from: sq("e5"),
                to: sq("e8")
            },
            Effect::LostPower { player: Army::Blue },
        ]
    );
}

#[test]
fn r7_4_the_exit_acts_on_nothing_and_is_required() {
    let p = pos(ASSASSIN);
    let cases = [
        (
            "e8-e5",
            "e5: a turn that acts in the maze needs an exit (>square) (R7.4)",
        ),
        (
            "e8-e5>g5",
            "g5: not an empty square reachable from the maze (R7.4)",
        ),
        (
            "e8-e5>h5",
            "h5: not an empty square reachable from the maze (R7.4)",
        ),
        (
            "e8-e5>a1",
            "a1: not an empty square reachable from the maze (R7.4)",
        ),
        (
            "e8-e5>e2",
            "e2: not an empty square reachable from the maze (R7.4)",
        ),
        ("e8-e5>e9@e8", "@e8: this turn places nothing (NOTATION §3)"),
        (
            "e8-e7>e9",
            "e9: only a turn that acts in the maze has an exit (R7.4)",
        ),
    ];
    for (text, message) in cases {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Choice, "{text}");
        assert_eq!(e.message, message, "{text}");
    }
}

#[test]
fn r7_4_decision_assassin_exit_may_pass_its_start_but_not_end_there() {
    let p = pos(ASSASSIN);
    // e9 lies beyond the start square e8: the exit passes over it.
    assert!(p.is_legal(&p.parse_turn("e8-e5>e9").unwrap()));
    let e = illegal(&p, "e8-e5>e8");
    assert_eq!(e.kind, IllegalKind::Choice);
    assert_eq!(
        e.message,
        "e8: the Assassin's exit may not end on its start square (R7.4)"
    );
}

#[test]
fn r7_4_diplomat_takes_the_chief_exits_and_places_it_on_any_empty_field_square() {
    let p = pos(DIPLOMAT);
    let maze_turns: Vec<String> = legal_from(&p, "e8")
        .into_iter()
        .filter(|t| t.starts_with("e8-e5"))
        .collect();
    // 24 exits; for each, the squares empty once the Diplomat stands on its exit: 75 empty
    // before the turn, plus e8, minus the exit square.
    assert_eq!(maze_turns.len(), 24 * 75);
    for exit in EXITS.split_whitespace() {
        assert!(maze_turns.contains(&format!("e8-e5>{exit}@i4")), "{exit}");
    }
    let mut q = p;
    let fx = play_fx(&mut q, "e8-e5>e9@e7");
    assert_eq!(
        q.to_dpn(),
        "4Dr4/9/4Cb4/9/6Mb2/9/4X4/9/Cr7Cy b rby- r 0 - 1 10"
    );
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Diplomat),
                from: sq("e8"),
                to: sq("e5")
            },
            Effect::ExitedMaze {
                piece: piece(Army::Red, Role::Diplomat),
                to: sq("e9")
            },
            Effect::Displaced {
                piece: piece(Army::Blue, Role::Chief),
                from: sq("e5"),
                to: sq("e7")
            },
            Effect::LostPower { player: Army::Blue },
        ]
    );
}

#[test]
fn r7_4_diplomat_placement_errors() {
    let p = pos(DIPLOMAT);
    let cases = [
        (
            "e8-e5>e9",
            "the turn needs a placement square (@square) (R10.1)",
        ),
        (
            "e8-e5>e9@e5",
            "e5: nothing may be placed on the maze here (R6.2, R5.1)",
        ),
        (
            "e8-e5>e9@e9",
            "e9: the placement square is not empty (R6.1)",
        ),
        (
            "e8-e5>e8@e8",
            "e8: the placement square is not empty (R6.1)",
        ),
        (
            "e8-e5>e9@g5",
            "g5: the placement square is not empty (R6.1)",
        ),
    ];
    for (text, message) in cases {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Choice, "{text}");
        assert_eq!(e.message, message, "{text}");
    }
}

#[test]
fn r7_4_decision_diplomat_exit_may_end_on_its_start_square() {
    let mut p = pos(DIPLOMAT);
    play(&mut p, "e8-e5>e8@e9");
    assert_eq!(
        p.to_dpn(),
        "4Cb4/4Dr4/9/9/6Mb2/9/4X4/9/Cr7Cy b rby- r 0 - 1 10"
    );
}

#[test]
fn r7_4_place_may_use_the_start_square_and_the_squares_the_exit_passed_over() {
    let p = pos(DIPLOMAT);
    for text in ["e8-e5>e9@e8", "e8-e5>e9@e7", "e8-e5>e9@e6", "e8-e5>a9@b8"] {
        assert!(p.is_legal(&p.parse_turn(text).unwrap()), "{text}");
    }
    let p = pos(NECROMOBILE);
    for text in ["e8-e5>e9@e8", "e8-e5>e9@e7", "e8-e5>b2@d4", "e8-e5>b2@c3"] {
        assert!(p.is_legal(&p.parse_turn(text).unwrap()), "{text}");
    }
}

#[test]
fn r7_4_necromobile_removes_a_corpse_from_the_maze() {
    let p = pos(NECROMOBILE);
    let maze_turns: Vec<String> = legal_from(&p, "e8")
        .into_iter()
        .filter(|t| t.starts_with("e8-e5"))
        .collect();
    // 24 exits; 74 squares empty before the turn, plus e8, minus the exit.
    assert_eq!(maze_turns.len(), 24 * 74);
    let mut q = p;
    let fx = play_fx(&mut q, "e8-e5>c3@c7");
    assert_eq!(
        q.to_dpn(),
        "9/9/2X6/9/6Mb1Cb/9/2Nr1X4/9/Cr7Cy b rby- r 0 - 1 10"
    );
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Necromobile),
                from: sq("e8"),
                to: sq("e5")
            },
            Effect::ExitedMaze {
                piece: piece(Army::Red, Role::Necromobile),
                to: sq("c3")
            },
            Effect::CorpseMoved {
                from: sq("e5"),
                to: sq("c7")
            },
        ]
    );
    assert_eq!(
        why(&p, "e8-e5>c3@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
}

#[test]
fn r7_4_decision_necromobile_exit_may_end_on_its_start_square() {
    let mut p = pos(NECROMOBILE);
    play(&mut p, "e8-e5>e8@e9");
    assert_eq!(
        p.to_dpn(),
        "4X4/4Nr4/9/9/6Mb1Cb/9/4X4/9/Cr7Cy b rby- r 0 - 1 10"
    );
}

#[test]
fn r7_5_a_chief_killed_on_the_maze_by_a_reporter_blocks_it_until_a_necromobile_clears_it() {
    let mut p = pos("9/9/9/9/4Cb3Cy/9/9/4Rr2Ny1/Cr8 r rby- y 0 - 0 9");
    play(&mut p, "e2-e4xe5");
    assert_eq!(
        p.to_dpn(),
        "9/9/9/9/4X3Cy/4Rr4/9/7Ny1/Cr8 y rry- r 0 - 0 10"
    );
    // The corpse on the maze stops the yellow chief and blocks the Necromobile's diagonal.
    assert_eq!(
        why(&p, "i5-e5"),
        "e5: a Chief may not act on what occupies the maze (R7.3)"
    );
    assert_eq!(
        why(&p, "h2-d6"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    play(&mut p, "h2-e5>h2@a9");
    assert_eq!(p.to_dpn(), "X8/9/9/9/8Cy/4Rr4/9/7Ny1/Cr8 r rry- y 0 - 1 11");
    // Now the red chief may enter; it takes the orphaned (empty) green army too (R9.4).
    play(&mut p, "a1-e5");
    assert_eq!(
        p.to_dpn(),
        "X8/9/9/9/4Cr3Cy/4Rr4/9/7Ny1/9 y rryr r 0 - 2 12"
    );
    assert_eq!(p.ruler(), Some(Army::Red));
}

#[test]
fn r7_6_a_chief_kills_the_chief_in_power_and_takes_the_maze() {
    let dpn = "7Mb1/9/9/9/4Cb4/9/2Cr6/9/8Cy r rby- y 0 - 0 9";
    let mut p = pos(dpn);
    let fx = play_fx(&mut p, "c3-e5@c3");
    assert_eq!(p.to_dpn(), "7Mb1/9/9/9/4Cr4/9/2X6/9/8Cy y rryr r 0 - 0 10");
    assert_eq!(p.ruler(), Some(Army::Red));
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Chief),
                from: sq("c3"),
                to: sq("e5")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Chief),
                at: sq("e5"),
                by: piece(Army::Red, Role::Chief)
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Blue]),
                from: Some(Army::Blue)
            },
            Effect::CorpseMoved {
                from: sq("e5"),
                to: sq("c3")
            },
            Effect::LostPower { player: Army::Blue },
            Effect::TookPower { player: Army::Red },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Green]),
                from: None
            },
        ]
    );
    assert_eq!(p.control(Army::Blue), Controller::Player(Army::Red));
    let p = pos(dpn);
    assert_eq!(
        why(&p, "c3-e5>e6"),
        "e6: a Chief stays on the maze it takes (R7.6)"
    );
    assert_eq!(
        why(&p, "c3-e5@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
    assert_eq!(
        why(&p, "c3-e5"),
        "the turn needs a placement square (@square) (R10.1)"
    );
}

#[test]
fn r7_7_the_chief_in_power_is_never_encircled() {
    // Red rules, surrounded by eight corpses, with no Necromobile: it cannot move, but lives.
    let mut p = pos("8Cb/9/9/3XXX3/3XCrX3/3XXX3/9/9/Mb8 b rb-- r 0 - 0 5");
    play(&mut p, "a1-a2");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/3XXX3/3XCrX3/3XXX3/9/Mb8/9 r rb-- b 2 - 1 6"
    );
    assert_eq!(legal(&p), ["pass"]);
    play(&mut p, "pass");
    play(&mut p, "pass");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/3XXX3/3XCrX3/3XXX3/9/Mb8/9 b rb-- b 0 r 3 8"
    );
    assert!(p.is_alive(Army::Red));
    assert_eq!(p.ruler(), Some(Army::Red));
}
