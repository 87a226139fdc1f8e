//! RULES.md §9 (elimination and control), second part: orphaned armies (R9.4), the order of events
//! inside a turn (R9.4a), control passing with the vassals (R9.5), resignations (R9.6) and the
//! ranking (R9.7). One or more tests per clause, each named after its clause id. Killed chiefs and
//! encirclement (R9.1–R9.3) are in `rules_elimination.rs`.

mod rules_support;

use djambi_core::{Army, Controller, Effect, Game, Outcome, Position, Role, StateError};
use rules_support::*;

// ---------------------------------------------------------------------------------------------
// R9.4 Orphans, R9.4a order inside a turn, R9.5 control passes with everything
// ---------------------------------------------------------------------------------------------

#[test]
fn r9_4_an_encircled_players_armies_go_to_the_ruler_if_there_is_one() {
    // Yellow rules; red's turn encircles blue: blue's army goes to yellow at once. Two players
    // are left, so yellow plays two bonus turns (R8.4).
    let mut p = pos("1Mb5XCb/7X1/9/4Mr1My2/4Cy4/9/9/9/Cr8 r rby- b 0 - 0 9");
    let fx = play_fx(&mut p, "e6-g6@i8");
    assert_eq!(
        p.to_dpn(),
        "1Mb5XX/7XX/9/6Mr2/4Cy4/9/9/9/Cr8 y ryy- r 2 - 0 10"
    );
    assert_eq!(
        fx.last(),
        Some(&Effect::TookControl {
            player: Army::Yellow,
            armies: set(&[Army::Blue]),
            from: Some(Army::Blue)
        })
    );
}

#[test]
fn r9_4_orphans_stay_untouchable_until_a_chief_enters_the_maze_by_its_own_move() {
    // Blue and green are orphaned (blue has pieces, green too).
    let mut p = pos("9/9/7NbMb/9/9/3Cr5/9/Mg8/8Cy r r-y- - 0 - 0 1");
    assert_eq!(why(&p, "i7-i6"), "i7: r does not control army b (R2.4)");
    let fx = play_fx(&mut p, "d4-e5");
    assert_eq!(
        fx[1..],
        [
            Effect::TookPower { player: Army::Red },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Blue, Army::Green]),
                from: None
            },
        ]
    );
    assert_eq!(p.to_dpn(), "9/9/7NbMb/9/4Cr4/9/9/Mg8/8Cy y rryr r 0 - 1 2");
    play(&mut p, "i1-i2");
    assert_eq!((to_move(&p), p.bonus()), ('r', 2));
    // Red's bonus turn: the blue and green pieces are red's now.
    for from in ["i7", "h7", "a2"] {
        assert!(!legal_from(&p, from).is_empty(), "{from}");
    }
    // Control once gained is kept after leaving the maze.
    play(&mut p, "e5-d4");
    assert_eq!(p.ruler(), None);
    // (Red's second bonus turn is forfeited, R8.5 Decision: yellow is next.)
    assert_eq!(p.to_dpn(), "9/9/7NbMb/9/9/3Cr5/9/Mg7Cy/9 y rryr r 0 - 3 4");
}

#[test]
fn r9_4_orphans_go_to_a_chief_entering_the_maze_by_a_kill() {
    // Three-player game (green hostage on the maze); yellow is orphaned. Red's chief kills the
    // hostage chief on the maze: it takes the hostage army (R11.3) and the orphans.
    let mut p = pos("8Cb/9/9/9/4Cg4/9/2Cr6/9/6My2 r rb-h y 0 - 0 7");
    let fx = play_fx(&mut p, "c3-e5@c3");
    assert_eq!(
        fx,
        [
            Effect::Moved {
                piece: piece(Army::Red, Role::Chief),
                from: sq("c3"),
                to: sq("e5")
            },
            Effect::Killed {
                piece: piece(Army::Green, Role::Chief),
                at: sq("e5"),
                by: piece(Army::Red, Role::Chief)
            },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Green]),
                from: None
            },
            Effect::CorpseMoved {
                from: sq("e5"),
                to: sq("c3")
            },
            Effect::TookPower { player: Army::Red },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Yellow]),
                from: None
            },
        ]
    );
    assert_eq!(p.to_dpn(), "8Cb/9/9/9/4Cr4/9/2X6/9/6My2 b rbrr r 0 - 0 8");
}

#[test]
fn r9_4_orphans_go_to_a_chief_placed_on_the_maze_by_a_diplomat() {
    // Blue's Diplomat sets red's chief on the maze: red takes the orphaned yellow and green.
    let mut p = pos("8Cb/9/9/9/2Cr6/9/2Db6/9/6My2 b rb-- r 0 - 0 4");
    let fx = play_fx(&mut p, "c3-c5@e5");
    assert_eq!(
        fx[2..],
        [
            Effect::TookPower { player: Army::Red },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Yellow, Army::Green]),
                from: None
            },
        ]
    );
    assert_eq!(p.to_dpn(), "8Cb/9/9/9/2Db1Cr4/9/9/9/6My2 r rbrr b 2 - 1 5");
}

#[test]
fn r9_4_a_hostage_chief_on_the_maze_takes_nothing() {
    let mut p = pos("8Cb/9/9/9/2Cg6/9/2Dr6/9/Cr5My2 r rb-h - 0 - 0 4");
    play(&mut p, "c3-c5@e5");
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/9/9/2Dr1Cg4/9/9/9/Cr5My2 b rb-h r 0 - 1 5"
    );
    assert_eq!(p.control(Army::Yellow), Controller::Orphaned);
}

#[test]
fn r9_4_a_ruler_who_resigns_leaves_no_ruler_and_its_armies_orphaned() {
    let mut p = pos("8Cb/9/8Mb/9/Mr3Cr4/9/9/9/6My1Cy b rby- y 0 - 0 9");
    let fx = p.resign(Army::Red).unwrap();
    assert_eq!(
        fx,
        [
            Effect::Resigned {
                player: Army::Red,
                at: sq("e5")
            },
            Effect::Eliminated { player: Army::Red },
            Effect::LostPower { player: Army::Red },
            Effect::Orphaned {
                armies: set(&[Army::Red]),
                from: Army::Red
            },
        ]
    );
    assert_eq!(
        p.to_dpn(),
        "8Cb/9/8Mb/9/Mr3X4/9/9/9/6My1Cy b -by- y 0 - 0 9"
    );
    assert_eq!(p.ruler(), None);
    // The corpse blocks the maze (R9.6, R7.5).
    assert_eq!(
        why(&p, "i9-a1"),
        "e5: the path is blocked, no piece jumps (R3.3, R3.4)"
    );
}

#[test]
fn r9_4a_order_inside_a_turn() {
    // Blue rules; green is orphaned (a Militant on a5); yellow's chief i1 lacks one corpse.
    // Red's chief kills blue's on the maze and buries it on i2:
    // 1) the kill, 2) blue's army to red, 3) red entered the maze: it takes green,
    // 4) yellow is encircled, its army goes to the ruler, red, 5) red alone: it wins.
    let mut p = pos("Mb8/9/9/9/Mg3Cb4/9/2Cr6/7X1/7XCy r rby- y 0 - 0 9");
    let fx = play_fx(&mut p, "c3-e5@i2");
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
                to: sq("i2")
            },
            Effect::LostPower { player: Army::Blue },
            Effect::TookPower { player: Army::Red },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Green]),
                from: None
            },
            Effect::Encircled {
                player: Army::Yellow,
                at: sq("i1")
            },
            Effect::Eliminated {
                player: Army::Yellow
            },
            Effect::TookControl {
                player: Army::Red,
                armies: set(&[Army::Yellow]),
                from: Some(Army::Yellow)
            },
            Effect::GameOver {
                outcome: Outcome::Winner(Army::Red)
            },
        ]
    );
    assert_eq!(p.to_dpn(), "Mb8/9/9/9/Mg3Cr4/9/9/7XX/7XX - rrrr r 0 - 0 10");
}

#[test]
fn r9_5_control_passes_with_the_vassals() {
    // Blue controls green; red kills blue's chief and takes both.
    let mut p = pos("Cr8/9/2Cb5Mb/9/2Mr6/9/9/9/6Mg1Cy r rbyb - 0 - 0 1");
    let fx = play_fx(&mut p, "c5-c7@c5");
    assert!(fx.contains(&Effect::TookControl {
        player: Army::Red,
        armies: set(&[Army::Blue, Army::Green]),
        from: Some(Army::Blue)
    }));
    assert_eq!(
        p.to_dpn(),
        "Cr8/9/2Mr5Mb/9/2X6/9/9/9/6Mg1Cy y rryr r 0 - 0 2"
    );
}

// ---------------------------------------------------------------------------------------------
// R9.6 Resignation, R9.7 ranking
// ---------------------------------------------------------------------------------------------

#[test]
fn r9_6_a_resignation_leaves_the_chief_as_a_corpse_and_orphans_its_armies() {
    let mut p = pos("8Cb/9/8Mb/9/Mr8/9/9/9/Cr5My1Cy r rby- - 0 - 0 1");
    let fx = p.resign(Army::Blue).unwrap();
    assert_eq!(
        fx,
        [
            Effect::Resigned {
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
    // Not a turn: the turn counter and the count of quiet turns stay.
    assert_eq!(p.to_dpn(), "8X/9/8Mb/9/Mr8/9/9/9/Cr5My1Cy r r-y- - 0 - 0 1");
}

#[test]
fn r9_6_a_resignation_is_followed_by_the_encirclement_examination() {
    // Blue's chief i9 is the last living neighbour of yellow's chief h9: when blue resigns,
    // yellow is encircled by the same resignation, and both share a rank.
    let mut g = Game::new(pos("Cg5XCyCb/6XXX/9/9/9/9/9/9/Cr8 r rbyg - 0 - 0 1"));
    let fx = g.resign(Army::Blue).unwrap();
    assert_eq!(
        fx[3..],
        [
            Effect::Encircled {
                player: Army::Yellow,
                at: sq("h9")
            },
            Effect::Eliminated {
                player: Army::Yellow
            },
            Effect::Orphaned {
                armies: set(&[Army::Yellow]),
                from: Army::Yellow
            },
        ]
    );
    assert_eq!(
        g.position().to_dpn(),
        "Cg5XXX/6XXX/9/9/9/9/9/9/Cr8 r r--g - 0 - 0 1"
    );
    assert_eq!(ranking(&g), "rg by");
}

#[test]
fn r9_6_the_last_opponent_resigning_ends_the_game() {
    let mut p = pos("8Cb/9/8Mb/9/Mr8/9/9/9/Cr8 b rb-- r 0 - 3 5");
    let fx = p.resign(Army::Blue).unwrap();
    assert_eq!(
        fx.last(),
        Some(&Effect::GameOver {
            outcome: Outcome::Winner(Army::Red)
        })
    );
    assert_eq!(p.to_dpn(), "8X/9/8Mb/9/Mr8/9/9/9/Cr8 - r--- r 0 - 3 5");
    assert_eq!(p.outcome().to_string(), "winner r");
}

#[test]
fn r9_6_only_a_living_player_may_resign() {
    let mut p = Position::start_hostage(Army::Green, Default::default());
    assert_eq!(
        p.resign(Army::Green),
        Err(StateError::NotAlive(Army::Green))
    );
    assert_eq!(
        StateError::NotAlive(Army::Green).to_string(),
        "g: not a living player"
    );
    p.resign(Army::Yellow).unwrap();
    assert_eq!(
        p.resign(Army::Yellow),
        Err(StateError::NotAlive(Army::Yellow))
    );
    p.resign(Army::Blue).unwrap();
    assert_eq!(p.outcome(), Outcome::Winner(Army::Red));
    assert_eq!(p.resign(Army::Red), Err(StateError::GameOver));
    assert_eq!(StateError::GameOver.to_string(), "the game is over");
}

#[test]
fn r9_7_later_eliminations_rank_higher_same_turn_shares_a_rank() {
    // Yellow resigns first; then red's chief kills blue's, and the corpse buried on b1
    // encircles green: blue and green go out on the same turn.
    let start = pos("9/9/9/9/9/2Cb6/2Cr6/XX7/Cg7Cy r rbyg - 0 - 0 1");
    let mut g = Game::new(start);
    g.resign(Army::Yellow).unwrap();
    assert_eq!(ranking(&g), "rbg y");
    g.play_text("c3-c4@b1").unwrap();
    assert_eq!(
        g.position().to_dpn(),
        "9/9/9/9/9/2Cr6/9/XX7/XX6X - rr-- r 0 - 0 2"
    );
    assert_eq!(g.outcome(), Outcome::Winner(Army::Red));
    assert_eq!(ranking(&g), "r bg y");
    let record = g.record();
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        json["ranking"],
        serde_json::json!([["r"], ["b", "g"], ["y"]])
    );
    assert_eq!(json["result"], serde_json::json!({"winner": "r"}));
}

#[test]
fn r9_7_in_a_draw_the_living_players_share_the_first_rank() {
    let start = pos("9/9/9/9/9/2Cb6/2Cr6/XX7/Cg7Cy r rbyg - 0 - 0 1");
    let mut g = Game::new(start);
    g.resign(Army::Yellow).unwrap();
    g.agree_draw().unwrap();
    assert_eq!(
        g.outcome(),
        Outcome::Draw(set(&[Army::Red, Army::Blue, Army::Green]))
    );
    assert_eq!(ranking(&g), "rbg y");
}
