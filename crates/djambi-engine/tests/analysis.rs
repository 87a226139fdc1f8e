//! Post-game analysis (`djambi_engine::analysis`): the chief rule on built positions, the
//! engine's own turn labelled `best`, chances in [0, 1], one analysis per turn of a game, and
//! repeatable results on a node budget.

mod common;

use common::pos;
use djambi_core::{Game, Player, Position};
use djambi_engine::analysis::{Label, chief_blunder, exposes_chief};
use djambi_engine::{Engine, EngineConfig, Level, Limits, analyse_game, analyse_turn};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        tt_bytes: 1 << 20,
        seed: 5,
    })
}

/// Small node budgets: the debug build searches slowly.
fn limits() -> Limits {
    Limits::nodes(600)
}

/// Red's lone chief on a1 against blue's Assassin on i9, which holds the long diagonal through
/// the empty maze and rank 9, and blue's chief on i5, which holds rank 5 and the diagonal to e1.
/// a1-a2 and a1-b1 are safe; a1-b2, a1-a5 and a1-e1 step into a line of fire.
const EN_PRISE: &str = "8Ab/9/9/9/8Cb/9/9/9/Cr8 r rb-- - 0 - 0 3";

/// Red's chief on a1 is boxed in by corpses on a2 and b2; blue's Assassin on i1 holds rank 1,
/// and a blue Militant on h2 guards i1. Every red turn loses the chief: stay on rank 1 and the
/// Assassin takes it, take the Assassin and the Militant does.
const LOST_ANYWAY: &str = "8Cb/9/9/9/9/9/9/XX5Mb1/Cr7Ab r rb-- - 0 - 0 3";

#[test]
fn leaving_the_chief_en_prise_when_a_safe_turn_exists_is_a_blunder() {
    let p = pos(EN_PRISE);
    let mut e = engine();
    for bad in ["a1-b2", "a1-a5", "a1-e1"] {
        let t = p.parse_turn(bad).unwrap();
        assert!(exposes_chief(&p, &t), "{bad}");
        assert!(chief_blunder(&p, &t, None), "{bad}");
        let a = analyse_turn(&mut e, &p, &t, &limits()).unwrap();
        assert_eq!(a.label, Label::Blunder, "{bad}: {a:?}");
        assert!(a.chief_exposed, "{bad}");
        assert_ne!(a.best, t, "the engine does not leave its chief en prise");
        assert!(!exposes_chief(&p, &a.best), "{}", a.best);
    }
    for safe in ["a1-a2", "a1-b1"] {
        let t = p.parse_turn(safe).unwrap();
        assert!(!exposes_chief(&p, &t), "{safe}");
        let a = analyse_turn(&mut e, &p, &t, &limits()).unwrap();
        assert!(!a.chief_exposed, "{safe}");
        assert_ne!(a.label, Label::Blunder, "{safe}: {a:?}");
    }
}

#[test]
fn when_every_turn_loses_the_chief_the_rule_does_not_apply() {
    let p = pos(LOST_ANYWAY);
    let turns = p.legal_turns();
    assert!(turns.len() > 2, "{turns:?}");
    let mut e = engine();
    for t in &turns {
        assert!(exposes_chief(&p, t), "{t}");
        assert!(!chief_blunder(&p, t, None), "{t}");
    }
    for t in [turns[0], turns[turns.len() - 1]] {
        let a = analyse_turn(&mut e, &p, &t, &limits()).unwrap();
        assert!(!a.chief_exposed, "{t}");
        // Every turn loses: the engine sees no difference worth a label.
        assert_eq!(a.after, 0.0, "{t}: {a:?}");
        assert_eq!(a.label, Label::Best, "{t}: {a:?}");
    }
}

#[test]
fn the_engines_own_turn_is_best() {
    let mut e = engine();
    for p in [
        Position::new(),
        pos(common::MIDDLE),
        pos(EN_PRISE),
        pos("9/9/9/9/1Cb7/9/9/Cr8/2Rr5Ab r rb-- - 0 - 0 3"),
    ] {
        let chosen = e.think(&p, Level::Hard, &limits()).unwrap().best;
        let a = analyse_turn(&mut e, &p, &chosen, &limits()).unwrap();
        assert_eq!(a.best, chosen);
        assert_eq!(a.label, Label::Best, "{p}: {a:?}");
        assert_eq!(a.before, a.after);
        assert!((0.0..=1.0).contains(&a.before));
    }
}

#[test]
fn a_winning_turn_is_a_sure_chance() {
    // Red's Reporter c1-c5 kills blue's chief beside it on b5: the game is won.
    let p = pos("9/9/9/9/1Cb7/9/9/Cr8/2Rr5Ab r rb-- - 0 - 0 3");
    let win = p.parse_turn("c1-c5xb5").unwrap();
    let a = analyse_turn(&mut engine(), &p, &win, &limits()).unwrap();
    assert_eq!((a.before, a.after, a.label), (1.0, 1.0, Label::Best));
}

#[test]
fn one_analysis_per_turn_repeatable_on_a_node_budget() {
    let mut game = Game::new(Position::new());
    for t in ["b7-b5", "h7-h6", "g1-f1", "b3-b5@d4"] {
        game.play_text(t).unwrap();
    }
    game.resign(Player::Blue).unwrap();
    game.play_text("c7-d8").unwrap();
    game.agree_draw().unwrap();
    let a = analyse_game(&mut engine(), &game, &limits());
    let numbers: Vec<u32> = a.iter().map(|x| x.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    let players: Vec<char> = a.iter().map(|x| x.player.char()).collect();
    assert_eq!(players, ['r', 'b', 'y', 'g', 'r']);
    assert_eq!(a[4].played.to_string(), "c7-d8");
    for x in &a {
        assert!((0.0..=1.0).contains(&x.before) && (0.0..=1.0).contains(&x.after));
    }
    // The same game, budget and seed: the same analysis, on a fresh engine or a used one.
    let mut used = engine();
    assert_eq!(analyse_game(&mut used, &game, &limits()), a);
    assert_eq!(analyse_game(&mut used, &game, &limits()), a);
}
