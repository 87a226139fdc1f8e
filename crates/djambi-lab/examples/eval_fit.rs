//! Fits the evaluation's weights (`djambi_engine::eval::Weights`, each with its reason in the
//! engine's `eval/weights.rs`) on games the engine plays itself, Texel's way: the weights whose
//! shares best predict how the games ended. The weights it found in issue 24 predicted held-out
//! games better and did not play better (`docs/lab/strength.md`, "The evaluation fitted on the
//! engine's games"): a tool for the next attempt, not a part of `hard`.
//!
//! ```text
//! cargo run --release -p djambi-lab --example eval_fit -- play --games 400 --seed 1 > games.txt
//! cargo run --release -p djambi-lab --example eval_fit -- fit games.txt
//! ```
//!
//! `play` seats `hard` on a node budget (`--nodes`, 6 000 by default; repeatable) in every seat
//! from the 4-player start with `turn_limit=100` and prints, for every position after a turn
//! while the game is open, its DPN and the four armies' arena scores at the end (1 a win, 1/k a
//! draw among k, 0 out), tab-separated, one game after another.
//!
//! `fit` reads those lines, keeps the living players of each position, turns each player's
//! terms ([`djambi_engine::eval::terms`]) into a share under the weights being tried and the
//! share into a chance of the game's outcome (the analysis' sharpening, its power fitted too),
//! and minimises the cross-entropy against the scores by coordinate descent on the whole-number
//! weights, a Militant staying 100. It prints the loss of the crate's weights, the fitted ones,
//! and the loss of both on the games it held out (every fifth).

use std::io::{BufRead, Write};
use std::num::NonZeroU32;

use djambi_core::{Army, Position, Role, Rules, Turn};
use djambi_engine::eval::{Terms, Weights, terms};
use djambi_engine::{Engine, EngineConfig, Level, Limits};
use djambi_lab::arena::outcome_scores;

#[path = "common/flags.rs"]
mod flags;
use flags::arg;

fn rules() -> Rules {
    Rules {
        turn_limit: NonZeroU32::new(100),
        ..Rules::default()
    }
}

/// Plays one game of four `hard` seats and prints its positions with the final scores.
fn play(seed: u64, nodes: u64, out: &mut impl Write) {
    let mut seats: Vec<Engine> = (0..4)
        .map(|i| {
            Engine::new(EngineConfig {
                tt_bytes: 4 << 20,
                seed: seed * 8 + i,
            })
        })
        .collect();
    let mut pos = Position::start(rules());
    let mut seen = Vec::new();
    while let Some(p) = pos.to_move() {
        let Ok(report) = seats[p.index()].think(&pos, Level::Hard, &Limits::nodes(nodes)) else {
            break;
        };
        pos.play(&report.best)
            .expect("the engine plays legal turns");
        if !pos.is_game_over() {
            seen.push(pos.to_dpn());
        }
    }
    let scores = outcome_scores(pos.outcome())
        .map(|x| format!("{x}"))
        .join(" ");
    for dpn in seen {
        writeln!(out, "{dpn}\t{scores}").expect("stdout");
    }
}

/// One position: its living players' terms and final scores.
struct Sample {
    players: Vec<(Terms, f64)>,
}

/// Whether `t` kills a piece: a Reporter's victim, or a Chief, Assassin or Militant moving
/// onto a living piece.
fn kills(pos: &Position, t: &Turn) -> bool {
    let Turn::Move(m) = t else {
        return false;
    };
    let board = pos.board();
    let killer = matches!(
        board[m.from].role(),
        Some(Role::Chief | Role::Assassin | Role::Militant)
    );
    m.victim.is_some() || (killer && board[m.to].role().is_some())
}

/// Reads `play`'s lines into games of samples (a game ends where the turn count goes down).
fn read(path: &str, quiet: bool) -> Vec<Vec<Sample>> {
    let file = std::fs::File::open(path).expect("the games file");
    let mut games: Vec<Vec<Sample>> = Vec::new();
    let mut last_turn = u64::MAX;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.expect("a line");
        let Some((dpn, scores)) = line.split_once('\t') else {
            continue;
        };
        let turn: u64 = dpn
            .rsplit(' ')
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        let Ok(pos) = Position::from_dpn(dpn, rules()) else {
            continue;
        };
        if quiet && pos.legal_turns().iter().any(|t| kills(&pos, t)) {
            continue; // the mover can kill: not quiet, its material about to change
        }
        if turn <= last_turn {
            games.push(Vec::new());
        }
        last_turn = turn;
        let scores: Vec<f64> = scores.split(' ').filter_map(|v| v.parse().ok()).collect();
        let all = terms(&pos);
        let players = Army::ALL
            .into_iter()
            .filter_map(|a| Some((all[a.index()]?, *scores.get(a.index())?)))
            .collect();
        games.last_mut().expect("a game").push(Sample { players });
    }
    games
}

/// The chance a share gives among `n` living players at power `k` (the analysis' sharpening).
fn sharpen(share: f64, n: usize, k: f64) -> f64 {
    let x = share.clamp(1e-9, 1.0 - 1e-9);
    let others = (n.max(2) - 1) as f64;
    let v = (x * others / (1.0 - x)).powf(k);
    v / (v + others)
}

/// Cross-entropy per player-sample of the weights `w` at power `k`.
fn loss(samples: &[&Sample], w: &Weights, k: f64) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for s in samples {
        let strengths: Vec<f64> = s
            .players
            .iter()
            .map(|(t, _)| f64::from(t.strength(w)))
            .collect();
        let total: f64 = strengths.iter().sum();
        for ((_, y), v) in s.players.iter().zip(&strengths) {
            let c = sharpen(v / total, s.players.len(), k).clamp(1e-6, 1.0 - 1e-6);
            sum -= y * c.ln() + (1.0 - y) * (1.0 - c).ln();
            count += 1;
        }
    }
    sum / count.max(1) as f64
}

/// The weights as a vector of the fitted ones (a Militant stays 100).
fn get(w: &Weights) -> [i32; 11] {
    [
        w.role[1],
        w.role[2],
        w.role[3],
        w.role[4],
        w.alive,
        w.ruler,
        w.chief_attacker,
        w.corpse_neighbour,
        w.corpse_neighbour_no_necro,
        w.one_corpse_from_encircled,
        w.chief_room,
    ]
}

fn set(v: &[i32; 11]) -> Weights {
    Weights {
        role: [0, v[0], v[1], v[2], v[3], 100],
        alive: v[4],
        ruler: v[5],
        chief_attacker: v[6],
        corpse_neighbour: v[7],
        corpse_neighbour_no_necro: v[8],
        one_corpse_from_encircled: v[9],
        chief_room: v[10],
    }
}

/// The pull back towards the crate's weights: `prior` times the sum of each weight's squared
/// change relative to the crate's (at least 50), so that weights the games say little about stay.
fn penalty(v: &[i32; 11], prior: f64) -> f64 {
    let d = get(&Weights::DEFAULT);
    v.iter()
        .zip(&d)
        .map(|(&x, &y)| (f64::from(x - y) / f64::from(y.max(50))).powi(2))
        .sum::<f64>()
        * prior
}

/// The best power for `w`, to a tenth.
fn best_k(samples: &[&Sample], w: &Weights) -> f64 {
    (5..=60)
        .map(|i| f64::from(i) / 10.0)
        .min_by(|a, b| loss(samples, w, *a).total_cmp(&loss(samples, w, *b)))
        .expect("powers to try")
}

fn fit(path: &str, quiet: bool, prior: f64) {
    let games = read(path, quiet);
    let train: Vec<&Sample> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 != 0)
        .flat_map(|(_, g)| g)
        .collect();
    let held: Vec<&Sample> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 == 0)
        .flat_map(|(_, g)| g)
        .collect();
    println!(
        "{} games, {} positions to fit, {} held out",
        games.len(),
        train.len(),
        held.len()
    );
    let start = Weights::DEFAULT;
    let mut k = best_k(&train, &start);
    let mut best = loss(&train, &start, k);
    println!(
        "crate's weights {:?} k {k:.1}: loss {best:.5}, held out {:.5}",
        get(&start),
        loss(&held, &start, k)
    );
    let mut v = get(&start);
    let mut steps: Vec<i32> = v.iter().map(|x| (x.abs() / 5).max(10)).collect();
    while steps.iter().any(|&s| s > 2) {
        let mut better = false;
        for i in 0..v.len() {
            if steps[i] <= 2 {
                continue;
            }
            for d in [steps[i], -steps[i]] {
                let mut t = v;
                t[i] = (t[i] + d).max(0);
                let l = loss(&train, &set(&t), k) + penalty(&t, prior);
                if l < best - 1e-7 {
                    (v, best, better) = (t, l, true);
                    break;
                }
            }
        }
        if !better {
            steps.iter_mut().for_each(|s| *s /= 2);
            k = best_k(&train, &set(&v));
            best = loss(&train, &set(&v), k) + penalty(&v, prior);
        }
        eprintln!("{v:?} k {k:.1} loss {best:.5} steps {steps:?}");
    }
    let w = set(&v);
    println!(
        "fitted {v:?} k {k:.1}: loss {:.5}, held out {:.5}",
        loss(&train, &w, k),
        loss(&held, &w, k)
    );
    println!("{w:#?}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("play") => {
            let games: u64 = arg("--games", 400);
            let seed: u64 = arg("--seed", 1);
            let nodes: u64 = arg("--nodes", 6_000);
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for g in 0..games {
                play(seed + g, nodes, &mut out);
                if (g + 1) % 20 == 0 {
                    eprintln!("{} games", g + 1);
                }
            }
        }
        Some("fit") => fit(
            args.get(2).map_or("games.txt", String::as_str),
            args.iter().any(|a| a == "--quiet"),
            arg("--prior", 0.0),
        ),
        _ => eprintln!("usage: eval_fit play [--games N --seed S --nodes N] | fit FILE"),
    }
}
