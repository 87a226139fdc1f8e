//! RULES.md §3 (movement): one or more tests per clause, each named after its clause id.

mod rules_support;

use djambi_core::{Army, Effect, IllegalKind, Piece, Position, Role};
use rules_support::*;

#[test]
fn r3_1_a_turn_moves_exactly_one_piece() {
    let start = Position::new();
    for turn in start.legal_turns() {
        let mut p = start;
        let fx = p.play_with_effects(&turn).unwrap();
        let m = turn.as_move().unwrap();
        let mut changed: Vec<String> = start
            .board()
            .iter()
            .zip(p.board().iter())
            .filter(|((_, a), (_, b))| a != b)
            .map(|((s, _), _)| s.to_string())
            .collect();
        changed.sort();
        let mut expected = vec![m.from.to_string(), m.to.to_string()];
        expected.sort();
        assert_eq!(changed, expected, "{turn}");
        assert_eq!(
            fx,
            [Effect::Moved {
                piece: start.board()[m.from].piece().unwrap(),
                from: m.from,
                to: m.to
            }],
            "{turn}"
        );
    }
}

#[test]
fn r3_2_pieces_move_in_straight_lines_any_distance() {
    // An Assassin on c3 on an empty board: 8 directions, up to the edge, across the empty maze.
    let p = pos("Cr8/8Cb/9/9/9/9/2Ar6/9/9 r rb-- - 0 - 0 1");
    assert_eq!(
        plain_destinations(&p, "c3"),
        texts(
            "c4 c5 c6 c7 c8 c9 c2 c1 d3 e3 f3 g3 h3 i3 b3 a3 \
             d4 f6 g7 h8 i9 b4 a5 d2 e1 b2 a1"
        )
    );
    let e = illegal(&p, "c3-d5");
    assert_eq!(e.kind, IllegalKind::Movement);
    assert_eq!(e.message, "d5: not on a straight line from c3 (R3.2)");
}

#[test]
fn r3_2_a_militant_moves_one_or_two_squares() {
    let p = pos("Cr8/8Cb/9/9/9/9/2Mr6/9/9 r rb-- - 0 - 0 1");
    // North-east, d4 then the maze: it may not stop on e5 (R3.5).
    assert_eq!(
        plain_destinations(&p, "c3"),
        texts("a1 a3 a5 b2 b3 b4 c1 c2 c4 c5 d2 d3 d4 e1 e3")
    );
    let e = illegal(&p, "c3-c6");
    assert_eq!(e.kind, IllegalKind::Movement);
    assert_eq!(e.message, "c6: a Militant moves 1 or 2 squares (R3.2)");
    assert_eq!(
        why(&p, "c3-f6"),
        "f6: a Militant moves 1 or 2 squares (R3.2)"
    );
}

#[test]
fn r3_3_no_piece_jumps_living_pieces_and_corpses_block() {
    // Red chief c3; a blue Militant on c5, a corpse on e3, a red Militant on b2.
    let p = pos("9/8Cb/9/9/2Mb6/9/2Cr1X4/1Mr7/9 r rb-- - 0 - 0 1");
    assert_eq!(
        plain_destinations(&p, "c3"),
        texts("c4 c2 c1 d3 b3 a3 d4 e5 f6 g7 h8 i9 b4 a5 d2 e1")
    );
    // Beyond the piece and beyond the corpse, nothing.
    let e = illegal(&p, "c3-c7");
    assert_eq!(e.kind, IllegalKind::Blocked);
    assert_eq!(
        e.message,
        "c5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    assert_eq!(
        why(&p, "c3-f3"),
        "e3: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    assert_eq!(
        why(&p, "c3-a1"),
        "b2: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    // The blocking enemy piece itself can be taken.
    assert!(legal_from(&p, "c3").contains(&"c3-c5@c3".to_string()));
}

#[test]
fn r3_4_any_piece_passes_through_the_empty_maze() {
    let p = pos("8Cb/9/9/9/9/9/9/4Ar4/Cr8 r rb-- - 0 - 0 1");
    let north: Vec<String> = plain_destinations(&p, "e2")
        .into_iter()
        .filter(|s| s.starts_with('e') && s.as_str() > "e2")
        .collect();
    assert_eq!(north, texts("e3 e4 e6 e7 e8 e9"));
    let mut q = p;
    play(&mut q, "e2-e9");
    assert_eq!(q.to_dpn(), "4Ar3Cb/9/9/9/9/9/9/9/Cr8 b rb-- r 0 - 1 2");
}

#[test]
fn r3_4_an_occupied_maze_blocks_like_any_square() {
    // A corpse on the maze.
    let p = pos("8Cb/9/9/9/4X4/9/9/4Ar4/Cr8 r rb-- - 0 - 0 1");
    let north: Vec<String> = plain_destinations(&p, "e2")
        .into_iter()
        .filter(|s| s.starts_with('e') && s.as_str() > "e2")
        .collect();
    assert_eq!(north, texts("e3 e4"));
    let e = illegal(&p, "e2-e6");
    assert_eq!(e.kind, IllegalKind::Blocked);
    assert_eq!(
        e.message,
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    // A chief in power on the maze: the Assassin may act on it, not pass it.
    let p = pos("9/9/9/9/4Cb4/9/9/4Ar4/Cr8 r rb-- r 0 - 0 5");
    assert_eq!(
        why(&p, "e2-e7"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    assert!(legal_from(&p, "e2").contains(&"e2-e5>e9".to_string()));
}

#[test]
fn r3_5_only_a_chief_ends_a_move_on_the_maze() {
    let p = pos("8Cb/9/9/4NrMr3/3Dr5/3CrArRr3/9/9/9 r rb-- - 0 - 0 1");
    for from in ["e4", "f4", "d5", "e6", "f6"] {
        let e = illegal(&p, &format!("{from}-e5"));
        assert_eq!(e.kind, IllegalKind::Maze, "{from}");
        assert_eq!(
            e.message, "e5: only a chief may end a move on the maze (R3.5)",
            "{from}"
        );
    }
    let mut q = p;
    play(&mut q, "d4-e5");
    assert_eq!(q.ruler(), Some(Army::Red));
    assert_eq!(
        q.board()[sq("e5")].piece(),
        Some(Piece {
            army: Army::Red,
            role: Role::Chief
        })
    );
}

#[test]
fn r3_6_a_move_must_change_the_pieces_square() {
    let p = pos("Cr8/8Cb/9/9/9/9/2Ar6/9/9 r rb-- - 0 - 0 1");
    let e = illegal(&p, "c3-c3");
    assert_eq!(e.kind, IllegalKind::Movement);
    assert_eq!(
        e.message,
        "c3: a move must change the piece's square (R3.6)"
    );
    assert!(!legal(&p).iter().any(|t| t[..2] == t[3..5]));
}

#[test]
fn r3_7_a_destination_the_piece_may_not_act_on_is_illegal() {
    let p = pos("8Cb/9/9/2Mb6/1X7/2RrDr5/1ArCrNr5/9/9 r rb-- - 0 - 0 1");
    let cases = [
        (
            "c4-c6",
            "c6: a Reporter moves only to an empty square (R4.4)",
        ),
        (
            "d3-d4@a1",
            "d4: a Necromobile moves only to an empty square or onto a corpse (R5.2)",
        ),
        (
            "b3-b5",
            "b5: only a Necromobile may move onto a corpse (R5.2)",
        ),
        ("d4-d3@a1", "d3: not an enemy piece (R2.7)"),
    ];
    for (text, message) in cases {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Target, "{text}");
        assert_eq!(e.message, message, "{text}");
    }
}
