//! RULES.md §1 (the board) and §2 (armies, players, control): one or more tests per clause,
//! each named after its clause id.

mod rules_support;

use djambi_core::{Army, Controller, IllegalKind, Piece, Position, Role, START_DPN, Square};
use rules_support::*;

// ---------------------------------------------------------------------------------------------
// §1 Board
// ---------------------------------------------------------------------------------------------

#[test]
fn r1_1_board_has_81_squares_files_a_to_i_ranks_1_to_9() {
    assert_eq!(Square::ALL.len(), 81);
    let a1 = sq("a1");
    assert_eq!((a1.file(), a1.rank()), (0, 0));
    let i1 = sq("i1");
    assert_eq!((i1.file(), i1.rank()), (8, 0), "files run left to right");
    let a9 = sq("a9");
    assert_eq!((a9.file(), a9.rank()), (0, 8), "ranks run bottom to top");
    for bad in ["j1", "a0", "a10", "i", ""] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
    }
    // DPN describes rank 9 first: the chief written on the second rank stands on i8.
    let p = pos("9/8Cb/9/9/9/9/9/9/Cr8 r rb-- - 0 - 0 1");
    assert_eq!(
        p.board()[sq("i8")].piece(),
        Some(Piece {
            army: Army::Blue,
            role: Role::Chief
        })
    );
    assert_eq!(
        p.board()[sq("a1")].piece(),
        Some(Piece {
            army: Army::Red,
            role: Role::Chief
        })
    );
}

#[test]
fn r1_1_a_chief_in_the_corner_reaches_exactly_the_board_edges_and_the_diagonal() {
    let p = pos("9/8Cb/9/9/9/9/9/9/Cr8 r rb-- - 0 - 0 1");
    assert_eq!(
        legal(&p),
        texts(
            "a1-a2 a1-a3 a1-a4 a1-a5 a1-a6 a1-a7 a1-a8 a1-a9 \
             a1-b1 a1-c1 a1-d1 a1-e1 a1-f1 a1-g1 a1-h1 a1-i1 \
             a1-b2 a1-c3 a1-d4 a1-e5 a1-f6 a1-g7 a1-h8 a1-i9"
        )
    );
}

#[test]
fn r1_1_each_dpn_rank_must_describe_nine_squares() {
    let e = |s: &str| {
        Position::from_dpn(s, Default::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e("9/8Cb/9/9/9/9/9/9/Cr9 r rb-- - 0 - 0 1"),
        "board: rank 1 describes more than 9 squares"
    );
    assert_eq!(
        e("9/8Cb/9/9/9/9/9/9/Cr7 r rb-- - 0 - 0 1"),
        "board: rank 1 describes 8 squares, expected 9"
    );
    assert_eq!(
        e("9/8Cb/9/9/9/9/9/Cr8 r rb-- - 0 - 0 1"),
        "board: 8 ranks, expected 9 separated by /"
    );
}

#[test]
fn r1_2_the_maze_is_e5_and_only_e5() {
    assert_eq!(Square::MAZE, sq("e5"));
    let mazes: Vec<String> = Square::ALL
        .iter()
        .filter(|s| s.is_maze())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(mazes, ["e5"]);
    // The maze is special (only a chief may stop there); its neighbours are ordinary field.
    let p = pos("8Cb/9/9/9/9/4Mr4/9/9/Cr8 r rb-- - 0 - 0 1");
    assert_eq!(
        why(&p, "e4-e5"),
        "e5: only a chief may end a move on the maze (R3.5)"
    );
    // A Militant crosses the empty maze (e4-e6) but cannot stop on it.
    assert_eq!(
        plain_destinations(&p, "e4"),
        texts("c2 c4 c6 d3 d4 d5 e2 e3 e6 f3 f4 f5 g2 g4 g6")
    );
}

#[test]
fn r1_3_neighbours_touch_by_side_or_corner() {
    let names = |it: &mut dyn Iterator<Item = Square>| {
        let mut v: Vec<String> = it.map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&mut sq("e5").neighbours()),
        texts("d4 d5 d6 e4 e6 f4 f5 f6")
    );
    assert_eq!(names(&mut sq("a1").neighbours()), texts("a2 b1 b2"));
    assert_eq!(names(&mut sq("i5").neighbours()), texts("h4 h5 h6 i4 i6"));
    assert_eq!(
        names(&mut sq("e5").orthogonal_neighbours()),
        texts("d5 e4 e6 f5")
    );
    assert_eq!(names(&mut sq("i9").orthogonal_neighbours()), texts("h9 i8"));
    assert_eq!(
        names(&mut sq("e1").orthogonal_neighbours()),
        texts("d1 e2 f1")
    );
    for s in Square::ALL {
        let edges = [
            s.file() == 0 || s.file() == 8,
            s.rank() == 0 || s.rank() == 8,
        ];
        let expected = match edges {
            [true, true] => 3,
            [true, false] | [false, true] => 5,
            [false, false] => 8,
        };
        assert_eq!(s.neighbours().count(), expected, "{s}");
    }
}

// ---------------------------------------------------------------------------------------------
// §2 Armies, players, control
// ---------------------------------------------------------------------------------------------

#[test]
fn r2_1_four_armies_of_nine_pieces_each() {
    let p = Position::new();
    for army in Army::ALL {
        let mut roles: Vec<Role> = p
            .board()
            .pieces()
            .filter(|(_, piece)| piece.army == army)
            .map(|(_, piece)| piece.role)
            .collect();
        roles.sort();
        assert_eq!(
            roles,
            [
                Role::Chief,
                Role::Assassin,
                Role::Reporter,
                Role::Diplomat,
                Role::Necromobile,
                Role::Militant,
                Role::Militant,
                Role::Militant,
                Role::Militant
            ],
            "{army}"
        );
    }
    assert_eq!(p.board().pieces().count(), 36);
    assert_eq!(p.board().corpses(), 0);
    assert_eq!(
        Army::ALL.map(|a| a.char()),
        ['r', 'b', 'y', 'g'],
        "red, blue, yellow, green"
    );
}

#[test]
fn r2_2_start_position_squares() {
    let p = Position::new();
    let table: [(Army, [&str; 9]); 4] = [
        (
            Army::Red,
            ["a9", "b9", "a8", "b8", "c7", "a7", "b7", "c8", "c9"],
        ),
        (
            Army::Blue,
            ["i9", "i8", "h9", "h8", "g7", "i7", "h7", "g8", "g9"],
        ),
        (
            Army::Yellow,
            ["i1", "h1", "i2", "h2", "g3", "i3", "h3", "g2", "g1"],
        ),
        (
            Army::Green,
            ["a1", "a2", "b1", "b2", "c3", "a3", "b3", "c2", "c1"],
        ),
    ];
    let roles = [
        Role::Chief,
        Role::Assassin,
        Role::Reporter,
        Role::Diplomat,
        Role::Necromobile,
        Role::Militant,
        Role::Militant,
        Role::Militant,
        Role::Militant,
    ];
    for (army, squares) in table {
        for (s, role) in squares.iter().zip(roles) {
            assert_eq!(p.board()[sq(s)].piece(), Some(Piece { army, role }), "{s}");
        }
    }
    assert_eq!(
        p.to_dpn(),
        "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1"
    );
    assert_eq!(p.to_dpn(), START_DPN);
    assert_eq!(pos(START_DPN), p);
}

#[test]
fn r2_3_each_army_starts_with_its_own_player_red_plays_first() {
    let mut p = Position::new();
    for a in Army::ALL {
        assert_eq!(p.control(a), Controller::Player(a));
    }
    assert_eq!(p.alive().to_string(), "rbyg");
    assert_eq!(p.to_move(), Some(Army::Red));
    // Red's 30 opening turns all move red pieces.
    let turns = p.legal_turns();
    assert_eq!(turns.len(), 30);
    for t in &turns {
        let from = t.as_move().unwrap().from;
        assert_eq!(p.board()[from].army(), Some(Army::Red), "{t}");
    }
    script(&mut p, "rbyg", &["b7-b5", "h7-h6", "h3-h4", "b3-b4"]);
    assert_eq!(to_move(&p), 'r');
    assert_eq!(
        p.to_dpn(),
        "CrArMr3MbRbCb/RrDrMr3MbDbAb/Mr1Nr3Nb1Mb/7Mb1/1Mr7/1Mg5My1/Mg1Ng3Ny1My/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg g 0 - 4 5"
    );
}

#[test]
fn r2_4_a_player_moves_the_pieces_of_every_army_it_controls_and_no_other() {
    // Red controls its own army and the blue army (its vassal); green is orphaned.
    let p = pos("8Cy/9/8My/9/2Mg6/9/9/4Mb4/Cr8 r rry- y 0 - 0 7");
    assert_eq!(
        plain_destinations(&p, "e2"),
        texts("c2 c4 d1 d2 d3 e1 e3 e4 f1 f2 f3 g2 g4")
    );
    for t in legal(&p) {
        assert!(t.starts_with("a1-") || t.starts_with("e2-"), "{t}");
    }
    let e = illegal(&p, "i7-i6");
    assert_eq!(e.kind, IllegalKind::NotYourPiece);
    assert_eq!(e.message, "i7: r does not control army y (R2.4)");
    assert_eq!(why(&p, "c5-c6"), "c5: r does not control army g (R2.4)");
    let mut p = p;
    play(&mut p, "e2-e4");
    assert_eq!(why(&p, "e4-e3"), "e4: y does not control army b (R2.4)");
    assert_eq!(why(&p, "e3-e4"), "e3: no piece there");
}

#[test]
fn r2_5_a_player_is_alive_exactly_while_its_chief_is_on_the_board() {
    let p = pos("8Cy/9/8My/9/2Mg6/9/9/4Mb4/Cr8 r rry- y 0 - 0 7");
    assert_eq!(p.alive().to_string(), "ry");
    assert!(
        !p.is_alive(Army::Blue),
        "blue pieces remain, but no blue chief"
    );
    assert_eq!(p.control(Army::Blue), Controller::Player(Army::Red));
    assert_eq!(p.control(Army::Green), Controller::Orphaned);
    let e = |s: &str| {
        Position::from_dpn(s, Default::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e("8Cy/9/9/9/9/9/9/9/Cr8 r rbyg - 0 - 0 1"),
        "control: army b is controlled by b, who is not a living player"
    );
    assert_eq!(
        e("8Cy/9/9/9/9/9/9/9/Cr8 r rrr- - 0 - 0 1"),
        "control: living player y does not control its own army"
    );
    // The hostage army has a living chief but is not a player.
    let h = Position::start_hostage(Army::Green, Default::default());
    assert_eq!(h.alive().to_string(), "rby");
    assert!(!h.is_alive(Army::Green));
    assert_eq!(h.control(Army::Green), Controller::Hostage);
}

#[test]
fn r2_6_a_corpse_belongs_to_nobody_and_any_necromobile_moves_it() {
    let mut p = pos("8Cb/9/9/9/9/9/9/Mb8/Cr1Nr6 r rb-- - 0 - 0 1");
    // Red kills a blue Militant: the corpse carries no colour.
    play(&mut p, "a1-a2@c3");
    assert_eq!(p.to_dpn(), "8Cb/9/9/9/9/9/2X6/Cr8/2Nr6 b rb-- r 0 - 0 2");
    assert!(p.board()[sq("c3")].is_corpse());
    assert_eq!(p.board()[sq("c3")].piece(), None);
    // A corpse cannot move by itself.
    let e = illegal(&p, "c3-c4");
    assert_eq!(e.kind, IllegalKind::NotYourPiece);
    assert_eq!(e.message, "c3: a corpse cannot move (R2.6)");
    // DPN has no coloured corpse.
    assert_eq!(
        Position::from_dpn(
            "8Cb/9/9/9/9/9/2Xb5/Cr8/2Nr6 b rb-- r 0 - 0 2",
            Default::default()
        )
        .unwrap_err()
        .to_string(),
        "board: rank 3: unknown letter 'b'"
    );
}

#[test]
fn r2_6_both_players_necromobiles_may_move_the_same_corpse() {
    let mut p = pos("8Cb/9/6Nb2/9/9/9/9/Mb8/Cr1Nr6 r rb-- - 0 - 0 1");
    play(&mut p, "a1-a2@c3");
    // Blue may move the corpse of its own Militant (through the empty maze).
    assert!(legal_from(&p, "g7").contains(&"g7-c3@g7".to_string()));
    let mut q = p;
    play(&mut q, "g7-c3@g7");
    assert_eq!(q.to_dpn(), "8Cb/9/6X2/9/9/9/2Nb6/Cr8/2Nr6 r rb-- b 0 - 1 3");
    // Red may move it too, once it is red's turn again.
    let mut r = p;
    play(&mut r, "i9-i8");
    assert!(legal_from(&r, "c1").contains(&"c1-c3@c1".to_string()));
    play(&mut r, "c1-c3@c1");
    assert_eq!(r.to_dpn(), "9/8Cb/6Nb2/9/9/9/2Nr6/Cr8/2X6 b rb-- r 0 - 2 4");
}

#[test]
fn r2_7_enemy_pieces_are_those_of_armies_another_player_controls() {
    // Red: own b4, vassal (yellow) d4; blue: enemy c4; green: orphaned d3.
    let p = pos("8Cb/9/9/9/9/1MrMbMy5/2CrMg1Dr3/9/4Rr4 r rbr- - 0 - 0 1");
    let onto_pieces: std::collections::BTreeSet<String> = legal_from(&p, "c3")
        .iter()
        .filter(|t| t.contains('@'))
        .map(|t| t[3..5].to_string())
        .collect();
    assert_eq!(onto_pieces.into_iter().collect::<Vec<_>>(), ["c4"]);
    for target in ["b4", "d4", "d3"] {
        let e = illegal(&p, &format!("c3-{target}@a1"));
        assert_eq!(e.kind, IllegalKind::Target);
        assert_eq!(e.message, format!("{target}: not an enemy piece (R2.7)"));
    }
    // The vassal's Militant kills for red.
    assert!(p.is_legal(&p.parse_turn("d4-c4@a1").unwrap()));
}

#[test]
fn r2_7_orphaned_pieces_cannot_be_killed_displaced_or_reported() {
    let p = pos("8Cb/9/9/9/9/1MrMbMy5/2CrMg1Dr3/9/4Rr4 r rbr- - 0 - 0 1");
    assert_eq!(why(&p, "d4-d3@a1"), "d3: not an enemy piece (R2.7)");
    assert_eq!(why(&p, "f3-d3@a1"), "d3: not an enemy piece (R2.7)");
    assert_eq!(why(&p, "e1-e3xd3"), "d3: not an enemy piece (R2.7)");
    // The Reporter reaching e3 has no victim to choose: d3 is orphaned, f3 is red.
    assert_eq!(
        legal_from(&p, "e1")
            .into_iter()
            .filter(|t| t.contains('x'))
            .collect::<Vec<_>>(),
        Vec::<String>::new()
    );
}

#[test]
fn r2_7_hostage_pieces_are_enemy_pieces_orphaned_ones_are_not() {
    let p = pos("Cg7Cb/9/9/9/9/2MgMy5/2Cr6/9/9 r rb-h - 0 - 0 1");
    let onto_pieces: std::collections::BTreeSet<String> = legal_from(&p, "c3")
        .iter()
        .filter(|t| t.contains('@'))
        .map(|t| t[3..5].to_string())
        .collect();
    assert_eq!(onto_pieces.into_iter().collect::<Vec<_>>(), ["c4"]);
    assert_eq!(why(&p, "c3-d4@a1"), "d4: not an enemy piece (R2.7)");
}

#[test]
fn r2_7_decision_a_player_never_kills_pieces_of_armies_it_controls() {
    let dpn = "8Cb/9/9/9/9/1MrMbMy5/2CrMg1Dr3/9/4Rr4 r rbr- - 0 - 0 1";
    let standard = pos(dpn);
    assert_eq!(why(&standard, "c3-b4@a1"), "b4: not an enemy piece (R2.7)");
    assert_eq!(why(&standard, "c3-d4@a1"), "d4: not an enemy piece (R2.7)");
    // Under `own_kills` (R12.5) the same turns are legal, but orphans stay untouchable and a
    // player's own chief is never a victim.
    let italian = pos_with(dpn, "own_kills");
    for t in ["c3-b4@a1", "c3-d4@a1"] {
        assert!(italian.is_legal(&italian.parse_turn(t).unwrap()), "{t}");
    }
    assert_eq!(why(&italian, "c3-d3@a1"), "d3: not an enemy piece (R2.7)");
    assert_eq!(why(&italian, "d4-c3@a1"), "c3: not an enemy piece (R2.7)");
}
