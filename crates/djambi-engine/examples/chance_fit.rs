//! Fits [`SHARPNESS`](djambi_engine::analysis::SHARPNESS), the power that turns the engine's
//! share into a chance of winning (`analysis/chance.rs`), on games the engine plays itself.
//!
//! ```text
//! cargo run --release -p djambi-engine --example chance_fit -- --games 200 --seed 1
//! cargo run --release -p djambi-engine --example chance_fit -- --games 200 --seed 1001 --level medium
//! ```
//!
//! Each game seats a seeded mix of `easy`, `medium` and `hard` (or `--level L` in every seat)
//! on a node budget (so games are repeatable), from the 4-player start with `turn_limit=120`.
//! After every turn, the player who played it gets its value from a 3 000-node search of the
//! position ([`Engine::value`], as the analysis computes `after`); when the game ends, every
//! such sample gets the player's arena score (1 a win, 1/m a draw among m, 0 out). It prints the
//! cross-entropy of the predicted chances against those scores for each power from 0.5 to 6,
//! and the best one, with a 95 % interval from resampling whole games.

use std::num::NonZeroU32;

use djambi_core::{Player, Position, Rules};
use djambi_engine::analysis::SHARPNESS;
use djambi_engine::arena::outcome_scores;
use djambi_engine::eval::{SHARE_SCALE, WIN_THRESHOLD};
use djambi_engine::{Engine, EngineConfig, Level, Limits, Rng};

#[path = "common/flags.rs"]
mod flags;
use flags::arg;

/// `--level L`: one level in every seat; absent, the seeded mix.
struct OneLevel(Option<Level>);

impl std::str::FromStr for OneLevel {
    type Err = djambi_engine::ParseLevelError;
    fn from_str(s: &str) -> Result<OneLevel, Self::Err> {
        s.parse().map(|l| OneLevel(Some(l)))
    }
}

/// One sample: the player's share as searched, the living players, the player's final score.
type Sample = (f64, usize, f64);

fn play(seed: u64, only: Option<Level>, value_engine: &mut Engine) -> Vec<Sample> {
    let rules = Rules {
        turn_limit: NonZeroU32::new(120),
        ..Rules::default()
    };
    let mut rng = Rng::new(seed);
    let levels = [Level::Easy, Level::Medium, Level::Medium, Level::Hard];
    let mut seats: Vec<(Engine, Level)> = (0..4)
        .map(|i| {
            let engine = Engine::new(EngineConfig {
                tt_bytes: 1 << 20,
                seed: seed * 8 + i,
            });
            let mixed = levels[rng.below(levels.len())];
            (engine, only.unwrap_or(mixed))
        })
        .collect();
    let mut pos = Position::start(rules);
    let mut open: Vec<(Player, f64, usize)> = Vec::new();
    while let Some(p) = pos.to_move() {
        let (engine, level) = &mut seats[p.index()];
        let Ok(report) = engine.think(&pos, *level, &Limits::nodes(8_000)) else {
            break;
        };
        pos.play(&report.best)
            .expect("the engine plays legal turns");
        if pos.is_game_over() || !pos.is_alive(p) {
            continue; // a finished game or a player out: the chance is known, nothing to fit
        }
        let v = value_engine.value(&pos, p, &Limits::nodes(3_000));
        if v.abs() < WIN_THRESHOLD {
            open.push((p, f64::from(v) / f64::from(SHARE_SCALE), pos.alive().len()));
        }
    }
    let scores = outcome_scores(pos.outcome());
    open.into_iter()
        .map(|(p, share, n): (Player, _, _)| (share, n, scores[p.index()]))
        .collect()
}

/// Cross-entropy per sample of the chances at power `k`.
fn loss(samples: &[&Sample], k: f64) -> f64 {
    let eps = 1e-6;
    samples
        .iter()
        .map(|&&(share, n, y)| {
            let c = sharpen(share, n, k).clamp(eps, 1.0 - eps);
            -(y * c.ln() + (1.0 - y) * (1.0 - c).ln())
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// `chance_from_share` at another power than the crate's.
fn sharpen(share: f64, n: usize, k: f64) -> f64 {
    let x = share.clamp(1e-9, 1.0 - 1e-9);
    let others = (n.max(2) - 1) as f64;
    let w = (x * others / (1.0 - x)).powf(k);
    w / (w + others)
}

fn best_k(samples: &[&Sample]) -> f64 {
    (5..=60)
        .map(|i| f64::from(i) / 10.0)
        .min_by(|a, b| loss(samples, *a).total_cmp(&loss(samples, *b)))
        .expect("powers to try")
}

fn main() {
    let games: u64 = arg("--games", 200);
    let seed: u64 = arg("--seed", 1);
    let only: Option<Level> = arg::<OneLevel>("--level", OneLevel(None)).0;
    let mut value_engine = Engine::new(EngineConfig {
        tt_bytes: 4 << 20,
        seed: 0,
    });
    let mut per_game: Vec<Vec<Sample>> = Vec::new();
    for g in 0..games {
        per_game.push(play(seed + g, only, &mut value_engine));
        if (g + 1) % 20 == 0 {
            eprintln!("{} games", g + 1);
        }
    }
    let all: Vec<&Sample> = per_game.iter().flatten().collect();
    println!("{} samples from {games} games", all.len());
    for i in [5, 10, 15, 20, 25, 30, 35, 40, 50, 60] {
        let k = f64::from(i) / 10.0;
        println!("k {k:.1}  cross-entropy {:.5}", loss(&all, k));
    }
    let k = best_k(&all);
    // Resample whole games (positions of one game are not independent).
    let mut rng = Rng::new(seed ^ 0xC4A7);
    let mut ks: Vec<f64> = (0..200)
        .map(|_| {
            let pick: Vec<&Sample> = (0..per_game.len())
                .flat_map(|_| per_game[rng.below(per_game.len())].iter())
                .collect();
            best_k(&pick)
        })
        .collect();
    ks.sort_by(f64::total_cmp);
    println!(
        "best k {k:.1} (95 % interval {:.1} to {:.1}); the crate's SHARPNESS is {}",
        ks[5], ks[194], SHARPNESS
    );
}
