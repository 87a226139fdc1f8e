//! The fit of the value model: Newton's method on the cross-entropy of its chances against
//! the games' outcomes (a conditional logit: one weight vector shared by the players, a softmax
//! over the living ones), with a small ridge so that features that never vary stay at 0.

use djambi_engine::analysis::model::{FEATURE_NAMES, FEATURES, Model};

use super::games::{Record, load};

/// One position as the fit sees it: each living player's features and its final score.
pub struct Sample {
    players: Vec<([f64; FEATURES], f64)>,
}

/// The samples of `games` under `model`: for every position with a player to move, the
/// position the model reads its chances from (after the mover's best turn by the model), each
/// living player's features there and the player's score.
pub fn samples(games: &[&Record], model: &Model) -> Vec<Sample> {
    let mut out = Vec::new();
    for game in games {
        let (positions, _) = game.replay();
        for (pos, _) in positions {
            let (_, chosen) = model.chances_with(&pos);
            let mut at = pos;
            if let Some(t) = chosen {
                at.play_unchecked(&t);
            }
            if at.is_game_over() {
                continue;
            }
            let players: Vec<_> = Model::features_of(&at)
                .iter()
                .enumerate()
                .filter_map(|(i, f)| f.map(|f| (f, game.scores[i])))
                .collect();
            if players.len() >= 2 {
                out.push(Sample { players });
            }
        }
    }
    out
}

/// The mean cross-entropy of `w` on `samples` (nats per position).
pub fn cross_entropy(samples: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let p = probabilities(s, w);
        for ((_, y), p) in s.players.iter().zip(&p) {
            if *y > 0.0 {
                total -= y * p.max(1e-12).ln();
            }
        }
    }
    total / samples.len().max(1) as f64
}

fn probabilities(s: &Sample, w: &[f64; FEATURES]) -> Vec<f64> {
    let logits: Vec<f64> = s
        .players
        .iter()
        .map(|(f, _)| f.iter().zip(w).map(|(a, b)| a * b).sum())
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.iter().map(|x| x / sum).collect()
}

/// Newton's method from `start`, with ridge `lambda`.
pub fn newton(samples: &[Sample], start: [f64; FEATURES], lambda: f64) -> [f64; FEATURES] {
    let mut w = start;
    for _ in 0..25 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for s in samples {
            let p = probabilities(s, &w);
            let ysum: f64 = s.players.iter().map(|(_, y)| y).sum();
            let mut mean = [0.0; FEATURES];
            for ((f, _), p) in s.players.iter().zip(&p) {
                for k in 0..FEATURES {
                    mean[k] += p * f[k];
                }
            }
            for ((f, y), p) in s.players.iter().zip(&p) {
                for k in 0..FEATURES {
                    grad[k] += (p * ysum - y) * f[k];
                    let dk = f[k] - mean[k];
                    for j in 0..FEATURES {
                        hess[k][j] += ysum * p * dk * (f[j] - mean[j]);
                    }
                }
            }
        }
        let n = samples.len().max(1) as f64;
        for k in 0..FEATURES {
            grad[k] = grad[k] / n + lambda * w[k];
            for h in &mut hess[k] {
                *h /= n;
            }
            hess[k][k] += lambda;
        }
        let step = solve(hess, grad);
        // Backtracking: Newton's step, halved until the cross-entropy falls.
        let now = cross_entropy(samples, &w) + ridge(&w, lambda);
        let mut alpha = 1.0;
        let mut next = w;
        loop {
            for k in 0..FEATURES {
                next[k] = w[k] - alpha * step[k];
            }
            if cross_entropy(samples, &next) + ridge(&next, lambda) <= now || alpha < 1e-4 {
                break;
            }
            alpha /= 2.0;
        }
        let change = (0..FEATURES)
            .map(|k| (next[k] - w[k]).abs())
            .fold(0.0, f64::max);
        w = next;
        if change < 1e-6 {
            break;
        }
    }
    w
}

fn ridge(w: &[f64; FEATURES], lambda: f64) -> f64 {
    lambda / 2.0 * w.iter().map(|x| x * x).sum::<f64>()
}

/// Solves `a x = b` (Gaussian elimination with partial pivoting).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        for row in 0..FEATURES {
            if row != col {
                let f = a[row][col] / d;
                let pivot_row = a[col];
                for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for k in 0..FEATURES {
        if a[k][k].abs() >= 1e-12 {
            x[k] = b[k] / a[k][k];
        }
    }
    x
}

/// `fit FILE [--lambda L] [--rounds R]`.
pub fn fit_command(path: String) {
    let lambda: f64 = super::flags::arg("--lambda", 1e-3);
    let rounds: usize = super::flags::arg("--rounds", 3);
    let games = load(&path);
    let (held, train): (Vec<_>, Vec<_>) = games
        .iter()
        .enumerate()
        .partition(|(i, _)| Record::held_out(*i));
    let train: Vec<&Record> = train.into_iter().map(|(_, g)| g).collect();
    let held: Vec<&Record> = held.into_iter().map(|(_, g)| g).collect();
    let mut model = Model::FITTED;
    println!(
        "{} games: {} to fit, {} held out; ridge {lambda}",
        games.len(),
        train.len(),
        held.len()
    );
    for round in 1..=rounds {
        let data = samples(&train, &model);
        let w = newton(&data, model.weights, lambda);
        model = Model { weights: w };
        let check = samples(&held, &model);
        println!(
            "round {round}: {} positions, cross-entropy {:.4} fitted, {:.4} held out",
            data.len(),
            cross_entropy(&data, &w),
            cross_entropy(&check, &w)
        );
    }
    println!("weights:");
    for (name, w) in FEATURE_NAMES.iter().zip(model.weights) {
        println!("  {name:28} {w:+.4}");
    }
    let list: Vec<String> = model.weights.iter().map(|w| format!("{w:.4}")).collect();
    println!("Model {{ weights: [{}] }}", list.join(", "));
}
