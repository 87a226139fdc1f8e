//! Judging one turn by the value model ([`Model`]): every turn the mover could have played is
//! valued by the chances it leaves ([`Model::chances`] of the position after it: one ply of
//! the next player's answer), the best of them is the engine's choice, and the turn played is
//! labelled by the mover's expected loss of chance against it.

use djambi_core::{Army, Player, Position, Turn};

use super::chief::chief_blunder;
use super::label::Label;
use super::model::Model;

/// What the analysis says of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The turn's number (the record's; DPN field 8 before it).
    pub number: u32,
    /// Who played it.
    pub player: Player,
    /// The turn played.
    pub played: Turn,
    /// The engine's choice: the turn that keeps the mover the most chance.
    pub best: Turn,
    /// The mover's chance before its turn: the position's ([`Model::chances`]), the same
    /// number the turn before left it.
    pub before: f64,
    /// The mover's chance after the turn played.
    pub after: f64,
    /// The mover's chance after the engine's choice (what the best turn would have kept).
    pub kept: f64,
    /// Every player's chance after the turn played (indexed by army; 0 for a player out; they
    /// add up to 1).
    pub chances: [f64; 4],
    /// The verdict.
    pub label: Label,
    /// The turn let the mover's chief be killed on the next turn while another turn would not
    /// have (the chief rule): the label is then `blunder`.
    pub chief_exposed: bool,
}

impl Judgement {
    /// The mover's expected loss of chance against the engine's choice, `kept − after` (0
    /// when the turn played is as good).
    pub fn loss(&self) -> f64 {
        (self.kept - self.after).max(0.0)
    }
}

/// Judges `played` in `pos`; none when the game is over there or `played` is not legal.
pub fn judge(model: &Model, pos: &Position, played: &Turn) -> Option<Judgement> {
    let mover = pos.to_move()?;
    if !pos.is_legal(played) {
        return None;
    }
    let before = model.chances(pos)[mover.index()];
    let mut best: Option<(f64, Turn)> = None;
    let mut chances = [0.0; 4];
    for turn in pos.legal_turns() {
        let mut child = *pos;
        child.play_unchecked(&turn);
        let c = model.chances(&child);
        if turn == *played {
            chances = c;
        }
        let mine = c[mover.index()];
        if best.is_none_or(|(b, _)| mine > b) {
            best = Some((mine, turn));
        }
    }
    let (kept, best) = best?;
    let after = chances[mover.index()];
    let chief_exposed = chief_blunder(pos, played, Some(&best));
    let label = if chief_exposed {
        Label::Blunder
    } else if *played == best {
        Label::Best
    } else {
        Label::from_drop(kept - after)
    };
    Some(Judgement {
        number: pos.turn(),
        player: mover,
        played: *played,
        best,
        before,
        after,
        kept,
        chances,
        label,
        chief_exposed,
    })
}

/// A turn's accuracy, 0 to 100, from the mover's loss of chance (0 to 1), on lichess's curve
/// (its accuracy from win percentages): 100 for no loss, about 65 for a loss of 0.10, about 15
/// for 0.40.
pub fn turn_accuracy(loss: f64) -> f64 {
    let points = 100.0 * loss.clamp(0.0, 1.0);
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Each player's accuracy over its turns among `judged` (indexed by army; none for a player
/// who played no turn): the mean of its turns' accuracies.
pub fn accuracy(judged: &[Judgement]) -> [Option<f64>; 4] {
    Army::ALL.map(|p| {
        let mine: Vec<f64> = judged
            .iter()
            .filter(|j| j.player == p)
            .map(|j| turn_accuracy(j.loss()))
            .collect();
        (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accuracy_curve() {
        assert!((turn_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((60.0..70.0).contains(&turn_accuracy(0.10)));
        assert!(turn_accuracy(1.0) < 1.0);
        let mut last = 101.0;
        for i in 0..=100 {
            let a = turn_accuracy(f64::from(i) / 100.0);
            assert!(a <= last && (0.0..=100.0).contains(&a));
            last = a;
        }
    }

    #[test]
    fn judging_the_opening() {
        let pos = Position::new();
        let model = Model::FITTED;
        for turn in pos.legal_turns() {
            let j = judge(&model, &pos, &turn).unwrap();
            assert!(j.kept >= j.after - 1e-12);
            assert!((j.chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert_eq!(j.after, j.chances[j.player.index()]);
            assert!((j.before - model.chances(&pos)[0]).abs() < 1e-12);
        }
    }

    #[test]
    fn one_truth_per_position() {
        // The chances after a turn are the chances before the next.
        let mut pos = Position::new();
        let model = Model::FITTED;
        for _ in 0..8 {
            let turn = pos.legal_turns()[3];
            let j = judge(&model, &pos, &turn).unwrap();
            pos.play(&turn).unwrap();
            let next = judge(&model, &pos, &pos.legal_turns()[0]).unwrap();
            assert_eq!(next.before, j.chances[next.player.index()]);
        }
    }
}
