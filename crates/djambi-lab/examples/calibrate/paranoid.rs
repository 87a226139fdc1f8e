//! The search-based analysis the value model replaced (the server's and `djambi analyse`'s
//! until issue 45), kept here only to measure it on the same games: the mover's chance from a
//! Paranoid search's score sharpened by a fitted power (`before`: the engine's own choice,
//! `after`: a search of the position after the turn), and every other living player's own
//! Paranoid value sharing what is left.

use djambi_core::{Army, Outcome, Player, Position, Turn};
use djambi_engine::analysis::{Label, chief_blunder};
use djambi_engine::eval::{SHARE_SCALE, WIN_THRESHOLD};
use djambi_engine::{Engine, Level, Limits};

/// The old sharpening power.
const SHARPNESS: f64 = 1.5;

/// A player's chance from the engine's score for it.
fn chance(pos: &Position, player: Player, score: i32) -> f64 {
    match pos.outcome() {
        Outcome::Winner(w) => return f64::from(u8::from(w == player)),
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
    let share = (f64::from(score) / f64::from(SHARE_SCALE)).clamp(0.0, 1.0);
    let living = pos.alive().len();
    if living <= 1 || share == 0.0 || share == 1.0 {
        return share;
    }
    let others = (living - 1) as f64;
    let w = (share * others / (1.0 - share)).powf(SHARPNESS);
    w / (w + others)
}

/// The old analysis of one turn: the mover's chance before it (with the engine's choice),
/// every player's chance after it, and its label.
pub fn judge(
    engine: &mut Engine,
    pos: &Position,
    turn: &Turn,
    limits: &Limits,
) -> Option<(f64, [f64; 4], Label)> {
    let mover = pos.to_move()?;
    let report = engine.think(pos, Level::Hard, limits).ok()?;
    let mut after_best = *pos;
    after_best.play_unchecked(&report.best);
    let before = chance(&after_best, mover, report.score);
    let mut child = *pos;
    child.play_unchecked(turn);
    let after = if report.best == *turn {
        before
    } else {
        let score = engine.value(&child, mover, limits);
        chance(&child, mover, score)
    };
    let label = if chief_blunder(pos, turn, Some(&report.best)) {
        Label::Blunder
    } else if report.best == *turn {
        Label::Best
    } else {
        Label::from_drop(before - after)
    };
    if child.is_game_over() {
        return Some((before, Army::ALL.map(|p| chance(&child, p, 0)), label));
    }
    let weights = Army::ALL.map(|p| {
        if p == mover || !child.is_alive(p) {
            0.0
        } else {
            chance(&child, p, engine.value(&child, p, limits))
        }
    });
    let total: f64 = weights.iter().sum();
    let mut out = weights.map(|w| {
        if total > 0.0 {
            (1.0 - after) * w / total
        } else {
            0.0
        }
    });
    out[mover.index()] = if child.is_alive(mover) { after } else { 0.0 };
    Some((before, out, label))
}
