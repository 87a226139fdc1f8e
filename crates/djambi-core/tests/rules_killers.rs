//! RULES.md §4 (the killers: Chief, Militant, Assassin, Reporter): one or more tests per
//! clause, each named after its clause id.

mod rules_support;

use djambi_core::{Army, Controller, Effect, IllegalKind, Piece, Role};
use rules_support::*;

fn piece(army: Army, role: Role) -> Piece {
    Piece { army, role }
}

#[test]
fn r4_1_chief_kills_an_enemy_and_buries_it_on_any_empty_field_square() {
    let dpn = "8Cb/9/9/9/9/2Mb6/2Cr6/9/9 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    let kills: Vec<String> = legal_from(&p, "c3")
        .into_iter()
        .filter(|t| t.starts_with("c3-c4"))
        .collect();
    // Every square empty after the kill (81 minus the chiefs on c4 and i9: the start square c3
    // is free again, R6.1), except the maze (R6.2).
    assert_eq!(kills.len(), 81 - 2 - 1);
    assert!(kills.contains(&"c3-c4@c3".to_string()));
    assert!(!kills.contains(&"c3-c4@e5".to_string()));
    assert!(!kills.contains(&"c3-c4@c4".to_string()));
    let mut q = p;
    let fx = play_fx(&mut q, "c3-c4@a1");
    assert_eq!(q.to_dpn(), "8Cb/9/9/9/9/2Cr6/9/9/X8 b rb-- r 0 - 0 2");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Chief),
                from: sq("c3"),
                to: sq("c4")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Militant),
                at: sq("c4"),
                by: piece(Army::Red, Role::Chief)
            },
            Effect::CorpseMoved {
                from: sq("c4"),
                to: sq("a1")
            },
        ]
    );
    assert_eq!(
        after(dpn, "c3-c4@c3"),
        "8Cb/9/9/9/9/2Cr6/2X6/9/9 b rb-- r 0 - 0 2"
    );
}

#[test]
fn r4_1_chief_kill_placement_errors() {
    let p = pos("8Cb/9/9/9/9/2Mb6/2Cr6/9/9 r rb-- - 0 - 0 1");
    let cases = [
        (
            "c3-c4",
            "the turn needs a placement square (@square) (R10.1)",
        ),
        (
            "c3-c4@e5",
            "e5: nothing may be placed on the maze here (R6.2, R5.1)",
        ),
        ("c3-c4@i9", "i9: the placement square is not empty (R6.1)"),
        ("c3-c4@c4", "c4: the placement square is not empty (R6.1)"),
    ];
    for (text, message) in cases {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Choice, "{text}");
        assert_eq!(e.message, message, "{text}");
    }
    // A plain move to an empty square places nothing.
    assert_eq!(
        why(&p, "c3-d3@a1"),
        "@a1: this turn places nothing (NOTATION §3)"
    );
}

#[test]
fn r4_1_chief_moves_to_empty_squares_the_maze_included() {
    let p = pos("8Cb/9/9/9/9/2Mb6/2Cr6/9/9 r rb-- - 0 - 0 1");
    assert!(plain_destinations(&p, "c3").contains(&"e5".to_string()));
    assert_eq!(
        after("8Cb/9/9/9/9/2Mb6/2Cr6/9/9 r rb-- - 0 - 0 1", "c3-e5"),
        // Entering the maze, red also takes the orphaned (empty) armies y and g (R9.4).
        "8Cb/9/9/9/4Cr4/2Mb6/9/9/9 b rbrr r 0 - 1 2"
    );
}

#[test]
fn r4_2_militant_kills_one_or_two_squares_away_even_across_the_empty_maze() {
    let dpn = "8Cb/9/9/3Mb1Mb3/9/3Mr5/9/9/Cr8 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    let targets: std::collections::BTreeSet<String> = legal_from(&p, "d4")
        .iter()
        .filter(|t| t.contains('@'))
        .map(|t| t[3..5].to_string())
        .collect();
    assert_eq!(targets.into_iter().collect::<Vec<_>>(), ["d6", "f6"]);
    // The move d4-f6 crosses the maze and kills on f6; the corpse goes where red chooses.
    assert_eq!(
        after(dpn, "d4-f6@d4"),
        "8Cb/9/9/3Mb1Mr3/9/3X5/9/9/Cr8 b rb-- r 0 - 0 2"
    );
    assert_eq!(
        after(dpn, "d4-d6@h1"),
        "8Cb/9/9/3Mr1Mb3/9/9/9/9/Cr6X1 b rb-- r 0 - 0 2"
    );
    assert_eq!(
        why(&p, "d4-d6"),
        "the turn needs a placement square (@square) (R10.1)"
    );
    assert_eq!(
        why(&p, "d4-d6@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
}

#[test]
fn r4_2_militant_never_ends_on_the_maze_so_never_kills_a_chief_there() {
    let p = pos("8Cb/9/9/9/4Cy4/3Mr5/9/9/Cr8 r rby- b 0 - 0 9");
    assert_eq!(p.ruler(), Some(Army::Yellow));
    let e = illegal(&p, "d4-e5@a2");
    assert_eq!(e.kind, IllegalKind::Maze);
    assert_eq!(
        e.message,
        "e5: a Militant may not act on what occupies the maze (R7.3)"
    );
    assert!(legal_from(&p, "d4").iter().all(|t| !t.contains("e5")));
    // The occupied maze now blocks the diagonal to f6.
    assert_eq!(
        why(&p, "d4-f6"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
}

#[test]
fn r4_3_assassin_kills_and_leaves_the_corpse_on_its_start_square() {
    let dpn = "8Cb/9/9/2Mb6/9/9/2Ar6/9/Cr8 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    assert_eq!(
        legal_from(&p, "c3")
            .into_iter()
            .filter(|t| t.starts_with("c3-c6"))
            .collect::<Vec<_>>(),
        ["c3-c6"],
        "no choice of placement"
    );
    let mut q = p;
    let fx = play_fx(&mut q, "c3-c6");
    assert_eq!(q.to_dpn(), "8Cb/9/9/2Ar6/9/9/2X6/9/Cr8 b rb-- r 0 - 0 2");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Assassin),
                from: sq("c3"),
                to: sq("c6")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Militant),
                at: sq("c6"),
                by: piece(Army::Red, Role::Assassin)
            },
            Effect::CorpseMoved {
                from: sq("c6"),
                to: sq("c3")
            },
        ]
    );
    let e = illegal(&p, "c3-c6@a5");
    assert_eq!(e.kind, IllegalKind::Choice);
    assert_eq!(e.message, "@a5: this turn places nothing (NOTATION §3)");
}

#[test]
fn r4_4_reporter_moves_to_an_empty_square_and_may_kill_one_orthogonal_neighbour() {
    // The Reporter c1 can reach c4: blue c5 and yellow b4 are orthogonal neighbours there,
    // blue d5 is only diagonal, red d4 is its own.
    let dpn = "8Cb/9/9/9/2MbMb4Cr/1My1Mr5/9/9/2Rr5Cy r rby- - 0 - 0 1";
    let p = pos(dpn);
    assert_eq!(
        legal_from(&p, "c1")
            .into_iter()
            .filter(|t| t.starts_with("c1-c4"))
            .collect::<Vec<_>>(),
        texts("c1-c4 c1-c4xb4 c1-c4xc5")
    );
    let mut q = p;
    let fx = play_fx(&mut q, "c1-c4xc5");
    assert_eq!(
        q.to_dpn(),
        "8Cb/9/9/9/2XMb4Cr/1MyRrMr5/9/9/8Cy b rby- r 0 - 0 2"
    );
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Reporter),
                from: sq("c1"),
                to: sq("c4")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Militant),
                at: sq("c5"),
                by: piece(Army::Red, Role::Reporter)
            },
        ]
    );
    // Moving without killing is legal although victims are there.
    assert_eq!(
        after(dpn, "c1-c4"),
        "8Cb/9/9/9/2MbMb4Cr/1MyRrMr5/9/9/8Cy b rby- r 0 - 1 2"
    );
}

#[test]
fn r4_4_reporter_errors() {
    let p = pos("8Cb/9/9/9/2MbMb4Cr/1My1Mr5/9/9/2Rr5Cy r rby- - 0 - 0 1");
    let cases = [
        (
            "c1-c4xd5",
            IllegalKind::Choice,
            "d5: the victim must be orthogonally next to c4 (R4.4)",
        ),
        (
            "c1-c4xd4",
            IllegalKind::Target,
            "d4: not an enemy piece (R2.7)",
        ),
        (
            "c1-c5",
            IllegalKind::Target,
            "c5: a Reporter moves only to an empty square (R4.4)",
        ),
        (
            "c1-c4xc5@a1",
            IllegalKind::Choice,
            "@a1: this turn places nothing (NOTATION §3)",
        ),
        (
            "c1-c4xc3",
            IllegalKind::Target,
            "c3: not an enemy piece (R2.7)",
        ),
    ];
    for (text, kind, message) in cases {
        let e = illegal(&p, text);
        assert_eq!((e.kind, e.message.as_str()), (kind, message), "{text}");
    }
    // At most one victim: the notation has room for one only.
    assert!("c1-c4xc5xb4".parse::<djambi_core::Turn>().is_err());
}

#[test]
fn r4_5_a_reporter_moved_by_a_diplomat_kills_nothing() {
    // Red's Diplomat takes the blue Reporter's square and sets it down on f4, next to the red
    // Militant f5: nobody dies.
    let dpn = "Cr7Cb/9/9/9/5Mr3/9/2Rb6/9/2Dr6 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    let mut q = p;
    let fx = play_fx(&mut q, "c1-c3@f4");
    assert_eq!(
        q.to_dpn(),
        "Cr7Cb/9/9/9/5Mr3/5Rb3/2Dr6/9/9 b rb-- r 0 - 1 2"
    );
    assert_eq!(q.board().corpses(), 0);
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Diplomat),
                from: sq("c1"),
                to: sq("c3")
            },
            Effect::Displaced {
                piece: piece(Army::Blue, Role::Reporter),
                from: sq("c3"),
                to: sq("f4")
            },
        ]
    );
    assert_eq!(
        why(&p, "c1-c3xc4@f4"),
        "xc4: only a Reporter names a victim (R4.4)"
    );
}

#[test]
fn r4_6_reporter_kills_the_chief_in_power_from_an_orthogonal_neighbour_of_the_maze() {
    // Blue rules; red has Reporters that can reach e4, e6, d5 and f5, and one that can reach d4.
    let dpn = "7Mb1/4Rr4/9/9/Rr3Cb3Rr/9/9/1Rr2Rr4/Cr7Cy r rby- y 0 - 0 9";
    let p = pos(dpn);
    assert_eq!(p.ruler(), Some(Army::Blue));
    for text in ["e2-e4xe5", "e8-e6xe5", "a5-d5xe5", "i5-f5xe5"] {
        assert!(p.is_legal(&p.parse_turn(text).unwrap()), "{text}");
    }
    assert_eq!(
        why(&p, "b2-d4xe5"),
        "e5: the victim must be orthogonally next to d4 (R4.4)"
    );
    let mut q = p;
    let fx = play_fx(&mut q, "e2-e4xe5");
    // The corpse stays on the maze (R7.5); blue is out and its army goes to red (R9.1).
    assert_eq!(
        q.to_dpn(),
        "7Mb1/4Rr4/9/9/Rr3X3Rr/4Rr4/9/1Rr7/Cr7Cy y rry- r 0 - 0 10"
    );
    assert_eq!(q.ruler(), None);
    assert_eq!(q.control(Army::Blue), Controller::Player(Army::Red));
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Reporter),
                from: sq("e2"),
                to: sq("e4")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Chief),
                at: sq("e5"),
                by: piece(Army::Red, Role::Reporter)
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::TookControl {
                player: Army::Red,
                armies: [Army::Blue].into_iter().collect(),
                from: Some(Army::Blue)
            },
            Effect::LostPower { player: Army::Blue },
        ]
    );
}
