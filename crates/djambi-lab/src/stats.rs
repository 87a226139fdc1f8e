//! The arena's statistics: a mean score with its 95 % confidence interval, and the Elo
//! difference a score against three copies of another agent stands for.

/// Mean and the half-width of its 95 % confidence interval (normal approximation, sample
/// standard deviation) of per-game scores.
pub fn mean_ci95(scores: &[f64]) -> (f64, f64) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return (0.0, 0.0);
    }
    let mean = scores.iter().sum::<f64>() / n;
    if scores.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The rating difference, in Elo points, of an agent that scores `s` per game (0 to 1) in
/// games against `others` copies of another agent (an equal agent scores 1 / (others + 1)).
///
/// The model (Luce's choice axiom, the Bradley–Terry model for more than two): each agent has a
/// strength γ, and a game goes to each seat in proportion to it, so s = γa / (γa + others · γb).
/// Then γa / γb = others · s / (1 − s), the pairwise expected score of `a` against one `b` is
/// p = γa / (γa + γb) = s / (s + (1 − s) / others), and the Elo difference is
/// 400 · log10(γa / γb) = 400 · log10(p / (1 − p)). Infinite at s = 0 or 1: clamp first.
pub fn elo_difference(s: f64, others: usize) -> f64 {
    400.0 * (others as f64 * s / (1.0 - s)).log10()
}

/// The score per game that [`elo_difference`] turns into `elo` (its inverse).
pub fn expected_score(elo: f64, others: usize) -> f64 {
    let ratio = 10f64.powf(elo / 400.0);
    ratio / (ratio + others as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_and_its_interval() {
        let (m, h) = mean_ci95(&[1.0, 0.0, 1.0, 0.0]);
        assert!((m - 0.5).abs() < 1e-12 && h > 0.5);
        assert_eq!(mean_ci95(&[]), (0.0, 0.0));
        assert!(mean_ci95(&[0.25]).1.is_nan());
    }

    #[test]
    fn elo_from_a_four_player_score() {
        // An equal agent scores 1/4 against three: no difference.
        assert!(elo_difference(0.25, 3).abs() < 1e-9);
        // Half the games against three: three times as strong, 400·log10(3) ≈ 191.
        assert!((elo_difference(0.5, 3) - 190.85).abs() < 0.01);
        // The model is symmetric: b tested against three copies of a gives the negative.
        for d in [-300.0, -50.0, 0.0, 120.0, 419.0] {
            let s = expected_score(d, 3);
            assert!((elo_difference(s, 3) - d).abs() < 1e-9);
            let ratio = 10f64.powf(d / 400.0);
            let reverse = 1.0 / (1.0 + 3.0 * ratio);
            assert!((elo_difference(reverse, 3) + d).abs() < 1e-9);
        }
        // Two players: the usual Elo curve.
        assert!((expected_score(400.0, 1) - 10.0 / 11.0).abs() < 1e-12);
        assert!(elo_difference(1.0, 3).is_infinite());
    }
}
