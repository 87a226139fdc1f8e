//! A player's chance of winning, in [0, 1], from the engine's score.
//!
//! The engine scores a position for a player as its **share** of the game: its strength over
//! the sum of the living players' strengths ([`crate::eval`]), searched Paranoid-style. A share
//! is on the arena's scale (a win 1, a draw among m players 1/m), but it is not quite a
//! probability: measured on self-play games, a player ahead of a fair share wins more often
//! than its share says, and one behind less often. So the chance sharpens the share, by a
//! fitted power:
//!
//! ```text
//! r = share / ((1 − share) / (n − 1))      the player's strength over an average opponent's
//! chance = r^k / (r^k + n − 1)              n the living players, k = SHARPNESS
//! ```
//!
//! That is Luce's choice model (Bradley–Terry for n players, as the arena's Elo uses) with each
//! strength raised to the power `k`; equivalently a logistic of `k · ln r` whose midpoint is a
//! fair share: a player exactly as strong as the average opponent keeps `1/n` (0.25 at the
//! four-player start), and the chance rises with the share, from 0 to 1. A finished game is
//! what it is: 1 for its winner, `1/m` for each of m players sharing a draw, 0 for everyone
//! else; a forced win or loss the search found is 1 or 0; a player out of the game has 0.

use djambi_core::{Army, Outcome, Player, Position};

use crate::engine::Engine;
use crate::eval::{SHARE_SCALE, WIN_THRESHOLD, share};
use crate::time::Limits;

/// How sharply a lead in share becomes a chance of winning: the power `k` above. Fitted by
/// maximum likelihood (`examples/chance_fit.rs`) on every position of 200 seeded games, each
/// position valued by a 3 000-node Paranoid search for the player who had just moved, against
/// that player's final arena score: with four `medium` seats, k = 1.5 (95 % interval from
/// resampling games 1.0 to 2.0; 28 858 positions); with seats of mixed levels (`easy`,
/// `medium`, `hard`), 1.1 (0.9 to 1.5; 25 947 positions), since skill the board does not show
/// flattens the fit. An analysis asks what a position is worth between equal players: 1.5.
pub const SHARPNESS: f64 = 1.5;

/// `player`'s chance of winning in `pos`, given the engine's `score` for `player` there
/// ([`Engine::value`](crate::Engine::value) or [`Report::score`](crate::Report::score)): in
/// [0, 1], non-decreasing in `score`.
pub fn chance(pos: &Position, player: Player, score: i32) -> f64 {
    match pos.outcome() {
        Outcome::Winner(w) => return if w == player { 1.0 } else { 0.0 },
        Outcome::Draw(d) if d.contains(player) => return 1.0 / d.len() as f64,
        Outcome::Draw(_) => return 0.0,
        Outcome::Ongoing => {}
    }
    if !pos.is_alive(player) || score <= -WIN_THRESHOLD {
        return 0.0;
    }
    if score >= WIN_THRESHOLD {
        return 1.0;
    }
    chance_from_share(f64::from(score) / f64::from(SHARE_SCALE), pos.alive().len())
}

/// The chance of winning of a player whose share of the game is `share` (0 to 1) among
/// `living` players: the sharpened share of the module's formula. A fair share (`1/living`)
/// stays fair; 0 and 1 stay 0 and 1.
pub fn chance_from_share(share: f64, living: usize) -> f64 {
    let share = if share.is_nan() {
        0.0
    } else {
        share.clamp(0.0, 1.0)
    };
    if living <= 1 || share == 0.0 || share == 1.0 {
        return share;
    }
    let others = (living - 1) as f64;
    let r = share * others / (1.0 - share);
    let w = r.powf(SHARPNESS);
    (w / (w + others)).clamp(0.0, 1.0)
}

/// Every player's chance of winning in `pos` (indexed by army, 0 for an army that is not a
/// player in the game), when `mover`'s chance there is `mover_chance` (an analysis's `after`):
/// each other living player's own chance is searched within `limits` (the Paranoid search from
/// its point of view, [`Engine::value`]), and they share what is left, `1 − mover_chance`, in
/// proportion to those chances. So the chances of a game going on add up to 1 (unless the
/// search finds every other player lost) and `mover`'s is exactly the one given. A finished
/// game is what it is; a player out of the game has 0.
pub fn searched_chances(
    engine: &mut Engine,
    pos: &Position,
    mover: Player,
    mover_chance: f64,
    limits: &Limits,
) -> [f64; 4] {
    share_out(pos, mover, mover_chance, |p| {
        let score = engine.value(pos, p, limits);
        chance(pos, p, score)
    })
}

/// Every player's chance of winning in `pos` by the static evaluation alone (no search): each
/// living player's sharpened share over all of theirs (Luce's model for all the players at
/// once). The four-player start gives each 0.25.
pub fn static_chances(pos: &Position) -> [f64; 4] {
    if pos.is_game_over() {
        return Army::ALL.map(|p| chance(pos, p, 0));
    }
    let weights = Army::ALL.map(|p| static_weight(pos, p));
    let total: f64 = weights.iter().sum();
    weights.map(|w| if total > 0.0 { w / total } else { 0.0 })
}

/// A living player's sharpened static share (`share^k`); 0 for a player out of the game.
fn static_weight(pos: &Position, p: Player) -> f64 {
    if !pos.is_alive(p) {
        return 0.0;
    }
    (f64::from(share(pos, p)) / f64::from(SHARE_SCALE)).powf(SHARPNESS)
}

/// `mover_chance` for `mover`, and `1 − mover_chance` shared by the other living players in
/// proportion to `weight`; a finished game's outcome as it is.
fn share_out(
    pos: &Position,
    mover: Player,
    mover_chance: f64,
    mut weight: impl FnMut(Player) -> f64,
) -> [f64; 4] {
    if pos.is_game_over() {
        return Army::ALL.map(|p| chance(pos, p, 0));
    }
    let mover_chance = if pos.is_alive(mover) && !mover_chance.is_nan() {
        mover_chance.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let weights = Army::ALL.map(|p| {
        if p == mover || !pos.is_alive(p) {
            0.0
        } else {
            weight(p).max(0.0)
        }
    });
    let total: f64 = weights.iter().sum();
    let mut out = weights.map(|w| {
        if total > 0.0 {
            (1.0 - mover_chance) * w / total
        } else {
            0.0
        }
    });
    out[mover.index()] = mover_chance;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WIN;
    use djambi_core::Rules;

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    #[test]
    fn bounds_and_monotonic() {
        for living in 2..=4 {
            let mut last = -1.0;
            for i in 0..=1000 {
                let c = chance_from_share(f64::from(i) / 1000.0, living);
                assert!((0.0..=1.0).contains(&c), "{i} {living}: {c}");
                assert!(c >= last, "{i} {living}: {c} < {last}");
                last = c;
            }
            assert_eq!(chance_from_share(0.0, living), 0.0);
            assert_eq!(chance_from_share(1.0, living), 1.0);
            let fair = 1.0 / living as f64;
            assert!((chance_from_share(fair, living) - fair).abs() < 1e-12);
        }
        for weird in [-0.5, 1.5, f64::NAN, f64::INFINITY] {
            let c = chance_from_share(weird, 4);
            assert!((0.0..=1.0).contains(&c), "{weird}: {c}");
        }
    }

    #[test]
    fn the_start_is_a_fair_chance_and_scores_order_chances() {
        let start = Position::new();
        let fair = chance(&start, Army::Red, share(&start, Army::Red));
        assert!((fair - 0.25).abs() < 1e-9, "{fair}");
        let mut last = -1.0;
        for score in (-WIN..=WIN).step_by(997) {
            let c = chance(&start, Army::Red, score);
            assert!((0.0..=1.0).contains(&c) && c >= last, "{score}: {c}");
            last = c;
        }
        assert_eq!(chance(&start, Army::Red, WIN - 5), 1.0);
        assert_eq!(chance(&start, Army::Red, -WIN + 5), 0.0);
    }

    #[test]
    fn a_lead_is_sharpened() {
        // A lone red chief against blue's whole army: a share of 0.32, a chance of 0.25.
        let lonely = pos("Cr5MbRbCb/6MbDbAb/6NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5");
        let s = share(&lonely, Army::Red);
        let c = chance(&lonely, Army::Red, s);
        assert!((f64::from(s) / f64::from(SHARE_SCALE) - 0.32).abs() < 0.01);
        assert!((c - 0.25).abs() < 0.01, "{c}");
        // Below a fair share the chance is lower than the share, above it higher.
        assert!(chance_from_share(0.2, 4) < 0.2 && chance_from_share(0.3, 4) > 0.3);
        assert!((chance(&lonely, Army::Blue, share(&lonely, Army::Blue)) + c - 1.0).abs() < 0.01);
    }

    #[test]
    fn finished_games_and_players_out() {
        let won = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
        assert_eq!(chance(&won, Army::Red, 0), 1.0);
        assert_eq!(chance(&won, Army::Blue, SHARE_SCALE), 0.0);
        let draw = pos("Cr8/9/9/9/9/9/9/9/8Cy - r-y- r 0 - 0 9");
        assert_eq!(chance(&draw, Army::Yellow, 0), 0.5);
        assert_eq!(chance(&draw, Army::Red, WIN), 0.5);
        assert_eq!(chance(&draw, Army::Blue, WIN), 0.0);
        // Blue is out in a game still going on.
        let out = pos("Cr8/9/9/9/9/9/9/9/8Cy y r-y- r 0 - 0 9");
        assert_eq!(chance(&out, Army::Blue, SHARE_SCALE), 0.0);
    }

    #[test]
    fn every_players_chance_adds_up_and_keeps_the_movers() {
        let start = Position::new();
        let fair = static_chances(&start);
        for c in fair {
            assert!((c - 0.25).abs() < 1e-9, "{fair:?}");
        }
        let even = share_out(&start, Army::Blue, 0.4, |_| 0.3);
        assert_eq!(even[Army::Blue.index()], 0.4);
        assert!((even.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{even:?}");
        for p in [Army::Red, Army::Yellow, Army::Green] {
            assert!((even[p.index()] - 0.2).abs() < 1e-9, "{even:?}");
        }
        // A lone red chief against blue's whole army: blue has what red has not.
        let lonely = pos("Cr5MbRbCb/6MbDbAb/6NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5");
        let mut engine = Engine::new(crate::EngineConfig {
            tt_bytes: 1 << 20,
            seed: 1,
        });
        let c = searched_chances(&mut engine, &lonely, Army::Red, 0.25, &Limits::nodes(500));
        assert_eq!((c[0], c[2], c[3]), (0.25, 0.0, 0.0));
        assert!((c[1] - 0.75).abs() < 1e-12, "{c:?}");
        let s = static_chances(&lonely);
        assert!(s[0] < 0.5 && (s[0] + s[1] - 1.0).abs() < 1e-9, "{s:?}");
        // The others' searched chances share the rest in their proportions.
        let c = searched_chances(&mut engine, &start, Army::Red, 0.1, &Limits::nodes(500));
        assert_eq!(c[0], 0.1);
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
        // Finished: the outcome; a mover out of the game has nothing.
        let won = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
        assert_eq!(
            share_out(&won, Army::Blue, 0.7, |_| 1.0),
            [1.0, 0.0, 0.0, 0.0]
        );
        let out = pos("Cr8/9/9/9/9/9/9/9/8Cy y r-y- r 0 - 0 9");
        let c = share_out(&out, Army::Blue, 0.7, |_| 0.5);
        assert_eq!(c[Army::Blue.index()], 0.0);
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
    }
}
