//! Post-game analysis (`djambi_engine::analysis`): the chief rule on built positions, the
//! engine's own turn labelled `best`, chances in [0, 1] adding up to 1, one truth per position,
//! one judgement per turn of a game, and the same judgements every time.

mod common;

use common::pos;
use djambi_core::{Game, Player, Position};
use djambi_engine::analysis::{Label, Model, accuracy, chief_blunder, exposes_chief};
use djambi_engine::{analyse_game, judge};

const M: Model = Model::FITTED;

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
    for bad in ["a1-b2", "a1-a5", "a1-e1"] {
        let t = p.parse_turn(bad).unwrap();
        assert!(exposes_chief(&p, &t), "{bad}");
        assert!(chief_blunder(&p, &t, None), "{bad}");
        let a = judge(&M, &p, &t).unwrap();
        assert_eq!(a.label, Label::Blunder, "{bad}: {a:?}");
        assert!(a.chief_exposed, "{bad}");
        assert_ne!(a.best, t, "the engine does not leave its chief en prise");
        assert!(!exposes_chief(&p, &a.best), "{}", a.best);
    }
    for safe in ["a1-a2", "a1-b1"] {
        let t = p.parse_turn(safe).unwrap();
        assert!(!exposes_chief(&p, &t), "{safe}");
        let a = judge(&M, &p, &t).unwrap();
        assert!(!a.chief_exposed, "{safe}");
        assert_ne!(a.label, Label::Blunder, "{safe}: {a:?}");
    }
}

#[test]
fn when_every_turn_loses_the_chief_the_rule_does_not_apply() {
    let p = pos(LOST_ANYWAY);
    let turns = p.legal_turns();
    assert!(turns.len() > 2, "{turns:?}");
    for t in &turns {
        assert!(exposes_chief(&p, t), "{t}");
        assert!(!chief_blunder(&p, t, None), "{t}");
    }
    for t in [turns[0], turns[turns.len() - 1]] {
        let a = judge(&M, &p, &t).unwrap();
        assert!(!a.chief_exposed, "{t}");
        // Every turn loses the chief: red keeps next to nothing whatever it plays.
        assert!(a.after < 0.05, "{t}: {a:?}");
        assert_ne!(a.label, Label::Blunder, "{t}: {a:?}");
    }
}

#[test]
fn the_engines_own_turn_is_best_and_keeps_the_most() {
    for p in [
        Position::new(),
        pos(common::MIDDLE),
        pos(EN_PRISE),
        pos("9/9/9/9/1Cb7/9/9/Cr8/2Rr5Ab r rb-- - 0 - 0 3"),
    ] {
        let any = p.legal_turns()[0];
        let best = judge(&M, &p, &any).unwrap().best;
        let a = judge(&M, &p, &best).unwrap();
        assert_eq!(a.best, best);
        assert_eq!(a.label, Label::Best, "{p}: {a:?}");
        assert_eq!(a.kept, a.after);
        // A few of the others (each judgement values every turn: quadratic in turns).
        for t in p.legal_turns().into_iter().step_by(7).take(8) {
            let other = judge(&M, &p, &t).unwrap();
            assert!(
                other.after <= a.kept + 1e-12,
                "{t} keeps more than the best"
            );
            assert!((other.chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(other.chances.iter().all(|c| (0.0..=1.0).contains(c)));
        }
    }
}

#[test]
fn a_winning_turn_is_a_sure_chance() {
    // Red's Reporter c1-c5 kills blue's chief beside it on b5: the game is won.
    let p = pos("9/9/9/9/1Cb7/9/9/Cr8/2Rr5Ab r rb-- - 0 - 0 3");
    let win = p.parse_turn("c1-c5xb5").unwrap();
    let a = judge(&M, &p, &win).unwrap();
    assert_eq!((a.kept, a.after, a.label), (1.0, 1.0, Label::Best));
    assert_eq!(a.chances, [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn one_judgement_per_turn_the_same_every_time_with_one_truth_per_position() {
    let mut game = Game::new(Position::new());
    for t in ["b7-b5", "h7-h6", "g1-f1", "b3-b5@d4"] {
        game.play_text(t).unwrap();
    }
    game.resign(Player::Blue).unwrap();
    game.play_text("c7-d8").unwrap();
    game.agree_draw().unwrap();
    let a = analyse_game(&M, &game);
    let numbers: Vec<u32> = a.iter().map(|x| x.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    let players: Vec<char> = a.iter().map(|x| x.player.char()).collect();
    assert_eq!(players, ['r', 'b', 'y', 'g', 'r']);
    assert_eq!(a[4].played.to_string(), "c7-d8");
    // The chances after a turn are the next mover's before (no event between them).
    for w in a.windows(2).take(3) {
        assert_eq!(w[1].before, w[0].chances[w[1].player.index()]);
    }
    assert_eq!(analyse_game(&M, &game), a);
    let acc = accuracy(&a);
    assert!(acc[Player::Red.index()].is_some_and(|x| (0.0..=100.0).contains(&x)));
}

#[test]
fn the_start_is_fair_and_quiet_opening_turns_keep_the_curves_steady() {
    // No tempo term: every player a fair share at the start, whoever is to move.
    let start = M.chances(&Position::new());
    for c in start {
        assert!((0.24..0.26).contains(&c), "{start:?}");
    }
    // Quiet turns (nothing killed): each player's chance moves by little.
    let mut game = Game::new(Position::new());
    let mut last = start;
    for t in [
        "b7-b6", "g8-e6", "g2-f3", "c2-e4", "b6-a6", "h7-h6", "g1-f1", "c3-d3",
    ] {
        game.play_text(t).unwrap();
        let now = M.chances(game.position());
        for (a, b) in last.iter().zip(&now) {
            assert!((a - b).abs() < 0.05, "after {t}: {last:?} → {now:?}");
        }
        last = now;
    }
}
