//! RULES.md §11 (the three-player game and its hostage army): one or more tests per clause,
//! each named after its clause id.

mod rules_support;

use djambi_core::{
    Army, ArmySet, Controller, Effect, Game, IllegalKind, Outcome, Piece, Position, Role,
};
use rules_support::*;

fn piece(army: Army, role: Role) -> Piece {
    Piece { army, role }
}

fn set(armies: &[Army]) -> ArmySet {
    armies.iter().copied().collect()
}

#[test]
fn r11_1_the_hostage_army_never_takes_a_turn() {
    let mut p = Position::start_hostage(Army::Green, Default::default());
    assert_eq!(p.control(Army::Green), Controller::Hostage);
    assert_eq!(
        p.to_dpn(),
        "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyh - 0 - 0 1"
    );
    // Nobody may move green pieces.
    assert_eq!(why(&p, "a3-a4"), "a3: r does not control army g (R2.4)");
    script(
        &mut p,
        "rbyrby",
        &["b7-b6", "h7-h6", "h3-h4", "b6-b5", "h6-h5", "i3-i4"],
    );
    assert_eq!(to_move(&p), 'r');
    // Another army may be the hostage: with blue held, the order is red, yellow, green.
    let mut p = Position::start_hostage(Army::Blue, Default::default());
    assert_eq!(p.to_dpn().split(' ').nth(2), Some("rhyg"));
    script(&mut p, "rygr", &["b7-b6", "h3-h4", "b3-b4", "b6-b5"]);
}

#[test]
fn r11_2_hostage_pieces_are_enemy_pieces_for_every_player() {
    // Red: chief c3, Assassin e1, Reporter g1, Diplomat a5, facing green (hostage) pieces.
    let dpn = "Cg7Cb/9/9/9/DrDg6Cy/2Mg6/2Cr1Ng4/7Rg1/4Ar1Rr2 r rbyh - 0 - 0 1";
    let p = pos(dpn);
    for text in ["c3-c4@c3", "e1-e3", "g1-g2xh2", "a5-b5@a4"] {
        assert!(p.is_legal(&p.parse_turn(text).unwrap()), "{text}");
    }
    assert_eq!(
        after(dpn, "c3-c4@c3"),
        "Cg7Cb/9/9/9/DrDg6Cy/2Cr6/2X1Ng4/7Rg1/4Ar1Rr2 b rbyh r 0 - 0 2"
    );
    assert_eq!(
        after(dpn, "a5-b5@a4"),
        "Cg7Cb/9/9/9/1Dr6Cy/Dg1Mg6/2Cr1Ng4/7Rg1/4Ar1Rr2 b rbyh r 0 - 1 2"
    );
    // Blue, too, may kill hostage pieces: its chief takes the green chief a9 … from afar.
    let p = pos("Cg7Cb/9/9/9/DrDg6Cy/2Mg6/2Cr1Ng4/7Rg1/4Ar1Rr2 b rbyh r 0 - 0 2");
    assert!(p.is_legal(&p.parse_turn("i9-a9@i9").unwrap()));
}

#[test]
fn r11_3_killing_the_hostage_chief_makes_its_army_a_vassal() {
    let mut p = pos("Cr7Cb/9/9/9/8Cy/9/4Cg4/Mg8/4Ar4 r rbyh - 0 - 0 1");
    let fx = play_fx(&mut p, "e1-e3");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Assassin),
                from: sq("e1"),
                to: sq("e3")
            },
            Effect::Killed {
                piece: piece(Army::Green, Role::Chief),
                at: sq("e3"),
                by: piece(Army::Red, Role::Assassin)
            },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Green]),
                from: None
            },
            Effect::CorpseMoved {
                from: sq("e3"),
                to: sq("e1")
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "Cr7Cb/9/9/9/8Cy/9/4Ar4/Mg8/4X4 b rbyr r 0 - 0 2"
    );
    assert_eq!(p.alive().to_string(), "rby");
    script(&mut p, "by", &["i9-h9", "i5-i4"]);
    assert!(
        !legal_from(&p, "a2").is_empty(),
        "the green Militant is red's"
    );
}

#[test]
fn r11_4_a_hostage_chief_on_the_maze_confers_no_power_and_only_blocks() {
    let p = pos("8Cb/4Ar4/6Cr2/9/4Cg4/5Mr3/2Dr6/4Rr4/8Cy r rbyh - 0 - 0 1");
    assert_eq!(p.ruler(), None);
    // Red's chief g7 cannot pass it to d4.
    assert_eq!(
        why(&p, "g7-d4"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
    let e = illegal(&p, "f4-e5@a2");
    assert_eq!(e.kind, IllegalKind::Maze);
    assert_eq!(
        e.message,
        "e5: a Militant may not act on what occupies the maze (R7.3)"
    );
}

#[test]
fn r11_4_a_hostage_chief_on_the_maze_can_be_killed_by_a_reporter() {
    let mut p = pos("8Cb/4Ar4/6Cr2/9/4Cg4/5Mr3/2Dr6/4Rr4/8Cy r rbyh - 0 - 0 1");
    let fx = play_fx(&mut p, "e2-e4xe5");
    assert_eq!(
        fx[1..],
        [
            Effect::Killed {
                piece: piece(Army::Green, Role::Chief),
                at: sq("e5"),
                by: piece(Army::Red, Role::Reporter)
            },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Green]),
                from: None
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "8Cb/4Ar4/6Cr2/9/4X4/4RrMr3/2Dr6/9/8Cy b rbyr r 0 - 0 2"
    );
}

#[test]
fn r11_4_a_hostage_chief_on_the_maze_can_be_killed_by_an_assassin() {
    let dpn = "8Cb/4Ar4/6Cr2/9/4Cg4/5Mr3/2Dr6/4Rr4/8Cy r rbyh - 0 - 0 1";
    assert_eq!(
        after(dpn, "e8-e5>e9"),
        "4Ar3Cb/4X4/6Cr2/9/9/5Mr3/2Dr6/4Rr4/8Cy b rbyr r 0 - 0 2"
    );
}

#[test]
fn r11_4_a_hostage_chief_on_the_maze_can_be_displaced_by_a_diplomat() {
    let dpn = "8Cb/4Ar4/6Cr2/9/4Cg4/5Mr3/2Dr6/4Rr4/8Cy r rbyh - 0 - 0 1";
    assert_eq!(
        after(dpn, "c3-e5>c3@a1"),
        "8Cb/4Ar4/6Cr2/9/9/5Mr3/2Dr6/4Rr4/Cg7Cy b rbyh r 0 - 1 2"
    );
}

#[test]
fn r11_4_a_chief_killing_the_hostage_chief_on_the_maze_takes_power() {
    let mut p = pos("8Cb/4Ar4/6Cr2/9/4Cg4/5Mr3/2Dr6/4Rr4/8Cy r rbyh - 0 - 0 1");
    let fx = play_fx(&mut p, "g7-e5@g7");
    assert_eq!(
        p.to_dpn(),
        "8Cb/4Ar4/6X2/9/4Cr4/5Mr3/2Dr6/4Rr4/8Cy b rbyr r 0 - 0 2"
    );
    assert_eq!(p.ruler(), Some(Army::Red));
    assert!(fx.contains(&Effect::TookPower { player: Army::Red }));
}

#[test]
fn r11_5_the_hostage_is_never_encircled() {
    // Green's chief a1 is surrounded by corpses and green has no Necromobile.
    let mut p = pos("Cr1Mr5Cb/9/9/9/9/9/9/XX7/CgX6Cy r rbyh - 0 - 0 1");
    play(&mut p, "c9-c8");
    assert_eq!(
        p.to_dpn(),
        "Cr7Cb/2Mr6/9/9/9/9/9/XX7/CgX6Cy b rbyh r 0 - 1 2"
    );
}

#[test]
fn r11_5_the_hostage_is_never_ranked_and_cannot_win() {
    let mut g = Game::new(pos("Cr1Mr5Cb/9/9/9/9/9/9/XX7/CgX6Cy r rbyh - 0 - 0 1"));
    g.resign(Army::Blue).unwrap();
    g.resign(Army::Yellow).unwrap();
    // The green chief is still alive, but red is the only player left.
    assert!(g.position().board().chief(Army::Green).is_some());
    assert_eq!(g.outcome(), Outcome::Winner(Army::Red));
    assert_eq!(
        g.ranking(),
        vec![vec![Army::Red], vec![Army::Yellow], vec![Army::Blue]]
    );
}
