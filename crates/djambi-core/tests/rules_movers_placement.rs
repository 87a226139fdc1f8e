//! RULES.md §5 (the movers: Diplomat, Necromobile), §6 (corpse and piece placement) and §10
//! (placement choices): one or more tests per clause, each named after its clause id.

mod rules_support;

use std::collections::HashSet;

use djambi_core::{Army, Controller, Effect, IllegalKind, Piece, Role, Turn};
use rules_support::*;

fn piece(army: Army, role: Role) -> Piece {
    Piece { army, role }
}

// ---------------------------------------------------------------------------------------------
// §5 The movers
// ---------------------------------------------------------------------------------------------

#[test]
fn r5_1_diplomat_displaces_an_enemy_piece_alive_to_any_empty_field_square() {
    // Red Diplomat c3; blue Militant c6; a corpse on e3; a red Militant on b3.
    let dpn = "8Cb/9/9/2Mb6/9/9/1MrDr1X4/9/Cr8 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    let displacements: Vec<String> = legal_from(&p, "c3")
        .into_iter()
        .filter(|t| t.starts_with("c3-c6@"))
        .collect();
    // After the move: c6, b3, e3, a1, i9 are taken; the maze is excluded; c3 is free (R6.1).
    assert_eq!(displacements.len(), 81 - 5 - 1);
    assert!(displacements.contains(&"c3-c6@c3".to_string()));
    let mut q = p;
    let fx = play_fx(&mut q, "c3-c6@h2");
    assert_eq!(
        q.to_dpn(),
        "8Cb/9/9/2Dr6/9/9/1Mr2X4/7Mb1/Cr8 b rb-- r 0 - 1 2"
    );
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Diplomat),
                from: sq("c3"),
                to: sq("c6")
            },
            Effect::Displaced {
                piece: piece(Army::Blue, Role::Militant),
                from: sq("c6"),
                to: sq("h2")
            },
        ]
    );
}

#[test]
fn r5_1_diplomat_errors() {
    let p = pos("8Cb/9/9/2Mb6/9/9/1MrDr1X4/9/Cr8 r rb-- - 0 - 0 1");
    let cases = [
        (
            "c3-e3@a2",
            IllegalKind::Target,
            "e3: only a Necromobile may move onto a corpse (R5.2)",
        ),
        (
            "c3-b3@a2",
            IllegalKind::Target,
            "b3: not an enemy piece (R2.7)",
        ),
        (
            "c3-c6",
            IllegalKind::Choice,
            "the turn needs a placement square (@square) (R10.1)",
        ),
        (
            "c3-c6@e5",
            IllegalKind::Choice,
            "e5: nothing may be placed on the maze here (R6.2, R5.1)",
        ),
        (
            "c3-c6@b3",
            IllegalKind::Choice,
            "b3: the placement square is not empty (R6.1)",
        ),
    ];
    for (text, kind, message) in cases {
        let e = illegal(&p, text);
        assert_eq!((e.kind, e.message.as_str()), (kind, message), "{text}");
    }
}

#[test]
fn r5_1_decision_a_displaced_chief_may_be_set_on_the_empty_maze_and_rules_at_once() {
    // Four players; red's Diplomat c3 takes blue's chief off c5 and sets it on the maze.
    let dpn = "7Mb1/9/6Mg1Cg/9/2Cb6/9/2Dr6/9/Cr5My1Cy r rbyg - 0 - 0 1";
    let mut p = pos(dpn);
    assert!(legal_from(&p, "c3").contains(&"c3-c5@e5".to_string()));
    let fx = play_fx(&mut p, "c3-c5@e5");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Diplomat),
                from: sq("c3"),
                to: sq("c5")
            },
            Effect::Displaced {
                piece: piece(Army::Blue, Role::Chief),
                from: sq("c5"),
                to: sq("e5")
            },
            Effect::TookPower { player: Army::Blue },
        ]
    );
    // Blue is in power and plays its bonus turn right after red's regular turn (R8.5).
    assert_eq!(p.ruler(), Some(Army::Blue));
    assert_eq!(
        p.to_dpn(),
        "7Mb1/9/6Mg1Cg/9/2Dr1Cb4/9/9/9/Cr5My1Cy b rbyg r 1 - 1 2"
    );
    script(
        &mut p,
        "bybgb",
        &["h9-h8", "g1-f1", "h8-h9", "g7-g6", "h9-h8"],
    );
    assert_eq!(to_move(&p), 'r');
}

#[test]
fn r5_1_decision_a_hostage_chief_set_on_the_maze_only_blocks_it() {
    let dpn = "8Cb/9/9/9/2Cg6/9/2Dr6/9/Cr7Cy r rbyh - 0 - 0 1";
    let mut p = pos(dpn);
    play(&mut p, "c3-c5@e5");
    assert_eq!(p.ruler(), None);
    assert_eq!(p.control(Army::Green), Controller::Hostage);
    assert_eq!(p.to_dpn(), "8Cb/9/9/9/2Dr1Cg4/9/9/9/Cr7Cy b rbyh r 0 - 1 2");
    // The maze is occupied: nothing passes it.
    assert_eq!(
        why(&p, "i9-a1"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
}

#[test]
fn r5_1_decision_only_on_an_empty_maze() {
    let p = pos("9/9/9/9/2Cb1X4/9/2Dr6/9/Cr7Cy r rby- - 0 - 0 1");
    assert_eq!(
        why(&p, "c3-c5@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
    assert!(p.is_legal(&p.parse_turn("c3-c5@d5").unwrap()));
}

#[test]
fn r5_1_decision_switched_off_by_diplomat_to_maze_false() {
    let dpn = "7Mb1/9/6Mg1Cg/9/2Cb6/9/2Dr6/9/Cr5My1Cy r rbyg - 0 - 0 1";
    let standard = pos(dpn);
    let italian = pos_with(dpn, "diplomat_to_maze=false");
    let count = |p: &djambi_core::Position| {
        legal_from(p, "c3")
            .into_iter()
            .filter(|t| t.starts_with("c3-c5@"))
            .count()
    };
    assert_eq!(count(&standard), count(&italian) + 1);
    let e = illegal(&italian, "c3-c5@e5");
    assert_eq!(e.kind, IllegalKind::Choice);
    assert_eq!(
        e.message,
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
}

#[test]
fn r5_2_necromobile_moves_a_corpse_to_any_empty_field_square() {
    let dpn = "8Cb/9/9/9/2X6/9/2Nr1Mb4/9/Cr8 r rb-- - 0 - 0 1";
    let p = pos(dpn);
    let moves: Vec<String> = legal_from(&p, "c3")
        .into_iter()
        .filter(|t| t.starts_with("c3-c5@"))
        .collect();
    // Taken after the move: c5, e3, a1, i9; the maze excluded; c3 free again.
    assert_eq!(moves.len(), 81 - 4 - 1);
    let mut q = p;
    let fx = play_fx(&mut q, "c3-c5@c3");
    assert_eq!(q.to_dpn(), "8Cb/9/9/9/2Nr6/9/2X1Mb4/9/Cr8 b rb-- r 0 - 1 2");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Necromobile),
                from: sq("c3"),
                to: sq("c5")
            },
            Effect::CorpseMoved {
                from: sq("c5"),
                to: sq("c3")
            },
        ]
    );
    assert_eq!(
        why(&p, "c3-e3@a2"),
        "e3: a Necromobile moves only to an empty square or onto a corpse (R5.2)"
    );
    assert_eq!(
        why(&p, "c3-c5@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
    assert_eq!(
        why(&p, "c3-c5"),
        "the turn needs a placement square (@square) (R10.1)"
    );
    // To an empty square it simply moves.
    assert_eq!(
        after(dpn, "c3-c4"),
        "8Cb/9/9/9/2X6/2Nr6/4Mb4/9/Cr8 b rb-- r 0 - 1 2"
    );
}

#[test]
fn r5_3_diplomat_and_necromobile_never_kill() {
    // Red's Diplomat c3 can displace the blue chief and Militant; its Necromobile g3 can move
    // the corpses g6 and e5; nothing they do kills.
    let p = pos("9/9/9/2Mb3X2/4X4/2Cb6/2Dr3Nr2/9/Cr8 r rb-- - 0 - 0 1");
    let turns: Vec<Turn> = p
        .legal_turns()
        .into_iter()
        .filter(|t| {
            let from = t.as_move().unwrap().from;
            from == sq("c3") || from == sq("g3")
        })
        .collect();
    assert!(turns.len() > 1000, "{}", turns.len());
    for t in turns {
        let mut q = p;
        let fx = q.play_with_effects(&t).unwrap();
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::Killed { .. })),
            "{t}: {fx:?}"
        );
        assert_eq!(q.board().corpses(), p.board().corpses(), "{t}");
        assert_eq!(
            q.board().pieces().count(),
            p.board().pieces().count(),
            "{t}"
        );
        assert_eq!(q.quiet(), p.quiet() + 1, "{t}");
    }
}

// ---------------------------------------------------------------------------------------------
// §6 Corpse and piece placement
// ---------------------------------------------------------------------------------------------

#[test]
fn r6_1_the_start_square_is_free_for_placement_the_destination_is_not() {
    // Red Chief a5 next to blue M b5; red Militant c1 next to blue M c2; red Diplomat e1 with
    // blue M e2; red Necromobile g1 with a corpse on g2.
    let p = pos("8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1");
    for (from, to) in [("a5", "b5"), ("c1", "c2"), ("e1", "e2"), ("g1", "g2")] {
        let at_start = format!("{from}-{to}@{from}");
        assert!(p.is_legal(&p.parse_turn(&at_start).unwrap()), "{at_start}");
        let at_dest = format!("{from}-{to}@{to}");
        assert_eq!(
            why(&p, &at_dest),
            format!("{to}: the placement square is not empty (R6.1)")
        );
    }
    let mut q = p;
    play(&mut q, "e1-e2@e1");
    assert_eq!(
        q.to_dpn(),
        "8Cb/9/9/9/CrMb7/9/9/2Mb1Dr1X2/2Mr1Mb1Nr2 b rb-- r 0 - 1 2"
    );
}

#[test]
fn r6_2_the_maze_is_never_a_placement_square_but_for_a_diplomats_chief() {
    let p = pos("8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1");
    for text in ["a5-b5@e5", "c1-c2@e5", "e1-e2@e5", "g1-g2@e5"] {
        let e = illegal(&p, text);
        assert_eq!(e.kind, IllegalKind::Choice, "{text}");
        assert_eq!(
            e.message, "e5: nothing may be placed on the maze here (R6.2, R5.1)",
            "{text}"
        );
    }
    assert!(legal(&p).iter().all(|t| !t.ends_with("@e5")));
    // The exception: a chief displaced from the field (R5.1 Decision).
    let q = pos("9/9/9/9/2Cb6/9/2Dr6/9/Cr7Cy r rby- - 0 - 0 1");
    assert_eq!(
        legal(&q)
            .into_iter()
            .filter(|t| t.ends_with("@e5"))
            .collect::<Vec<_>>(),
        ["c3-c5@e5"]
    );
}

#[test]
fn r6_2_a_chief_killing_from_the_maze_cannot_bury_on_its_start_square() {
    // R6.1 frees the start square, but the start square is the maze (R6.2).
    let p = pos("9/9/9/4Mb4/4Cr4/9/9/9/8Cb r rb-- b 2 - 0 9");
    assert_eq!(
        why(&p, "e5-e6@e5"),
        "e5: nothing may be placed on the maze here (R6.2, R5.1)"
    );
    let kills = legal_from(&p, "e5")
        .into_iter()
        .filter(|t| t.starts_with("e5-e6@"))
        .count();
    // 81 squares minus the two chiefs, minus the (now empty) maze.
    assert_eq!(kills, 78);
    assert_eq!(
        after("9/9/9/4Mb4/4Cr4/9/9/9/8Cb r rb-- b 2 - 0 9", "e5-e6@e4"),
        // Red left the maze on a bonus turn: blue is next (R8.5 Decision).
        "9/9/9/4Cr4/9/4X4/9/9/8Cb b rb-- r 0 - 0 10"
    );
}

#[test]
fn r6_3_a_killed_piece_is_a_corpse_at_once_and_its_army_keeps_its_controller() {
    // Blue's chief a9 has corpses on a8 and b9 and a blue Militant on b8; a red Reporter kills
    // that Militant: the new corpse completes the encirclement in the same turn (R9.3).
    let dpn = "CbX7/XMb7/9/9/9/9/9/1Rr7/Cr7Cy r rby- - 0 - 0 1";
    let mut p = pos(dpn);
    let fx = play_fx(&mut p, "b2-b7xb8");
    assert_eq!(p.to_dpn(), "XX7/XX7/1Rr7/9/9/9/9/9/Cr7Cy y r-y- r 0 - 0 2");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Reporter),
                from: sq("b2"),
                to: sq("b7")
            },
            Effect::Killed {
                piece: piece(Army::Blue, Role::Militant),
                at: sq("b8"),
                by: piece(Army::Red, Role::Reporter)
            },
            Effect::Encircled {
                player: Army::Blue,
                at: sq("a9")
            },
            Effect::Eliminated { player: Army::Blue },
            Effect::Orphaned {
                armies: [Army::Blue].into_iter().collect(),
                from: Army::Blue
            },
        ]
    );
}

#[test]
fn r6_3_killing_a_piece_does_not_change_who_controls_its_army() {
    let mut p = pos("8Cb/9/9/9/9/2Mb6/2Cr3Mb2/9/9 r rb-- - 0 - 0 1");
    play(&mut p, "c3-c4@a1");
    assert_eq!(p.control(Army::Blue), Controller::Player(Army::Blue));
    assert!(p.board()[sq("a1")].is_corpse());
    // Blue still moves its other Militant.
    assert!(!legal_from(&p, "g3").is_empty());
}

// ---------------------------------------------------------------------------------------------
// §10 Placement choices
// ---------------------------------------------------------------------------------------------

#[test]
fn r10_1_every_choice_makes_a_different_turn() {
    let p = pos("8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1");
    let turns = p.legal_turns();
    let distinct: HashSet<Turn> = turns.iter().copied().collect();
    assert_eq!(distinct.len(), turns.len());
    let texts: HashSet<String> = turns.iter().map(|t| t.to_string()).collect();
    assert_eq!(texts.len(), turns.len());
    for t in &turns {
        assert_eq!(p.parse_turn(&t.to_string()).unwrap(), *t);
    }
    // Two placements of the same kill: two turns, two positions.
    let a = after(
        "8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1",
        "a5-b5@a1",
    );
    let b = after(
        "8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1",
        "a5-b5@a2",
    );
    assert_ne!(a, b);
    assert_eq!(
        a,
        "8Cb/9/9/9/1Cr7/9/9/2Mb1Mb1X2/X1Mr1Dr1Nr2 b rb-- r 0 - 0 2"
    );
    assert_eq!(
        b,
        "8Cb/9/9/9/1Cr7/9/9/X1Mb1Mb1X2/2Mr1Dr1Nr2 b rb-- r 0 - 0 2"
    );
}

#[test]
fn r10_1_a_kill_offers_one_turn_per_placement_square() {
    let p = pos("8Cb/9/9/9/CrMb7/9/9/2Mb1Mb1X2/2Mr1Dr1Nr2 r rb-- - 0 - 0 1");
    let kills: Vec<String> = legal_from(&p, "a5")
        .into_iter()
        .filter(|t| t.starts_with("a5-b5@"))
        .collect();
    let empty_before = 81 - p.board().pieces().count() - p.board().corpses();
    // One turn per square where the corpse may go: the squares empty before the turn, plus a5
    // that the chief leaves, minus the maze.
    assert_eq!(kills.len(), empty_before + 1 - 1);
    assert_eq!(kills.len(), 72);
}
