//! The players of the low levels: `random` (a uniformly random legal turn) and `easy` (one ply
//! of the evaluation, blurred by noise, and now and then a random turn).

use djambi_core::{Position, Turn};

use crate::eval;
use crate::rng::Rng;

/// How much noise `easy` adds to each turn's share (in 1/100 000 of the game): about a
/// Militant's worth at the start, so it picks among the turns that look roughly as good.
pub const EASY_NOISE: i32 = 1200;

/// How often (in percent) `easy` plays a random turn instead: beginners' opponents must blunder.
pub const EASY_RANDOM_PERCENT: u32 = 10;

/// A uniformly random legal turn, or `None` when the game is over.
pub fn random_turn(pos: &Position, rng: &mut Rng, buf: &mut Vec<Turn>) -> Option<Turn> {
    pos.legal_turns_into(buf);
    if buf.is_empty() {
        return None;
    }
    Some(buf[rng.below(buf.len())])
}

/// The `easy` choice: the legal turn with the best one-ply share plus noise, or (rarely) a
/// random turn. Returns the turn and its noiseless one-ply score.
pub fn easy_turn(pos: &Position, rng: &mut Rng, buf: &mut Vec<Turn>) -> Option<(Turn, i32)> {
    let me = pos.to_move()?;
    pos.legal_turns_into(buf);
    if buf.is_empty() {
        return None;
    }
    let score = |t: &Turn| {
        let mut child = *pos;
        child.play_unchecked(t);
        eval::terminal(&child, me, 1)
    };
    if rng.percent(EASY_RANDOM_PERCENT) {
        let t = buf[rng.below(buf.len())];
        return Some((t, score(&t)));
    }
    let mut best: Option<(Turn, i32, i32)> = None;
    for t in buf.iter() {
        let s = score(t);
        let noisy = s.saturating_add(rng.noise(EASY_NOISE));
        if best.is_none_or(|(_, _, b)| noisy > b) {
            best = Some((*t, s, noisy));
        }
    }
    best.map(|(t, s, _)| (t, s))
}
