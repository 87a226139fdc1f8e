//! The benchmark of the analysis on held-out games: what it says of each turn, against how the
//! games ended.

use std::time::Instant;

use djambi_core::{Army, Position, Turn};
use djambi_engine::analysis::Label;
use djambi_engine::analysis::model::Model;
use djambi_engine::{Engine, EngineConfig, Limits};

use super::flags::arg;
use super::games::{Record, load};

/// What the analysis says of one turn.
struct Said {
    /// The mover's chance before the turn, as the analysis gives it.
    before: Option<f64>,
    /// Every player's chance after the turn.
    after: [f64; 4],
    /// The label.
    label: Label,
}

/// An analysis to measure: the value model, or the search-based one it replaced.
enum Analyst {
    Model(Model),
    Paranoid(Box<Engine>, Limits),
}

impl Analyst {
    fn judge(&mut self, pos: &Position, turn: &Turn) -> Option<Said> {
        match self {
            Analyst::Model(model) => {
                let a = djambi_engine::analysis::judge(model, pos, turn)?;
                Some(Said {
                    before: Some(a.before),
                    after: a.chances,
                    label: a.label,
                })
            }
            Analyst::Paranoid(engine, limits) => {
                let (before, after, label) = super::paranoid::judge(engine, pos, turn, limits)?;
                Some(Said {
                    before: Some(before),
                    after,
                    label,
                })
            }
        }
    }
}

/// The Brier score of `c` against `y` over the players.
fn brier(c: &[f64; 4], y: &[f64; 4]) -> f64 {
    c.iter().zip(y).map(|(c, y)| (c - y) * (c - y)).sum()
}

/// Every living player equally likely.
fn uniform(pos: &Position) -> [f64; 4] {
    let alive = pos.alive();
    let n = alive.len().max(1) as f64;
    Army::ALL.map(|p| if alive.contains(p) { 1.0 / n } else { 0.0 })
}

fn percentile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// `report FILE [--model fitted|paranoid] [--nodes N] [--movetime MS] [--games N]`.
pub fn report_command(path: String) {
    let which: String = arg("--model", "fitted".to_string());
    let nodes: u64 = arg("--nodes", 0);
    let movetime: u64 = arg("--movetime", 100);
    let max_games: usize = arg("--games", usize::MAX);
    let limits = if nodes > 0 {
        Limits::nodes(nodes)
    } else {
        Limits::movetime(std::time::Duration::from_millis(movetime))
    };
    let mut analyst = match which.as_str() {
        "fitted" => Analyst::Model(Model::FITTED),
        "paranoid" => Analyst::Paranoid(
            Box::new(Engine::new(EngineConfig {
                tt_bytes: 16 << 20,
                seed: 0,
            })),
            limits,
        ),
        other => {
            eprintln!("--model {other}: fitted or paranoid");
            std::process::exit(2)
        }
    };
    let games = load(&path);
    let held: Vec<&Record> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| Record::held_out(*i))
        .map(|(_, g)| g)
        .take(max_games)
        .collect();
    let mut thirds = [(0.0, 0.0, 0usize); 3];
    let mut buckets = [(0.0, 0.0, 0usize); 10];
    let mut quiet = Vec::new();
    let mut labels: std::collections::BTreeMap<&str, [usize; 6]> = Default::default();
    let mut turns = 0usize;
    // A turn's `before` more than a point from the chance the turn before left the mover (one
    // truth per position).
    let mut incoherent = 0usize;
    // Living players given under 1 %, and how many of them went on to win or share a draw.
    let (mut low, mut low_scored) = (0usize, 0usize);
    let started = Instant::now();
    for game in &held {
        let (positions, _) = game.replay();
        let len = positions.len().max(1);
        let mut before = Model::FITTED.chances(&Record::start());
        if let Analyst::Paranoid(..) = analyst {
            before = uniform(&Record::start());
        }
        for (i, (pos, turn)) in positions.iter().enumerate() {
            let Some(said) = analyst.judge(pos, turn) else {
                continue;
            };
            turns += 1;
            let mut child = *pos;
            child.play_unchecked(turn);
            let mover = pos.to_move().expect("a turn was played");
            if said
                .before
                .is_some_and(|b| (b - before[mover.index()]).abs() > 0.01)
            {
                incoherent += 1;
            }
            // Labels by who played.
            let who = game.seats[mover.index()].as_str();
            let row = labels
                .entry(if who == "referee" { "referee" } else { who })
                .or_default();
            row[Label::ALL
                .iter()
                .position(|l| *l == said.label)
                .unwrap_or(0)] += 1;
            row[5] += 1;
            // Quiet turns: nothing killed, nobody out.
            if child.quiet() == pos.quiet() + 1 && child.alive() == pos.alive() {
                for p in child.alive().iter() {
                    quiet.push((said.after[p.index()] - before[p.index()]).abs());
                }
            }
            before = said.after;
            if child.is_game_over() {
                continue;
            }
            let third = (3 * i / len).min(2);
            let t = &mut thirds[third];
            t.0 += brier(&said.after, &game.scores);
            t.1 += brier(&uniform(&child), &game.scores);
            t.2 += 1;
            for p in child.alive().iter() {
                let c = said.after[p.index()];
                if c < 0.01 {
                    low += 1;
                    low_scored += usize::from(game.scores[p.index()] > 0.0);
                }
                let b = &mut buckets[((c * 10.0) as usize).min(9)];
                b.0 += c;
                b.1 += game.scores[p.index()];
                b.2 += 1;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let total = thirds
        .iter()
        .fold((0.0, 0.0, 0), |a, t| (a.0 + t.0, a.1 + t.1, a.2 + t.2));
    println!(
        "analysis `{which}` on {} held-out games ({turns} turns) of {path}",
        held.len()
    );
    println!(
        "Brier skill against every living player equally likely: {:.3} ({} positions)",
        1.0 - total.0 / total.1,
        total.2
    );
    for (name, t) in ["first", "second", "last"].iter().zip(&thirds) {
        println!("  {name} third: {:.3} ({} positions)", 1.0 - t.0 / t.1, t.2);
    }
    println!("reliability (predicted → observed, count):");
    for (i, b) in buckets.iter().enumerate() {
        if b.2 > 0 {
            println!(
                "  {:>3}-{:>3} %: mean {:.3} → {:.3} ({})",
                i * 10,
                i * 10 + 10,
                b.0 / b.2 as f64,
                b.1 / b.2 as f64,
                b.2
            );
        }
    }
    let mean = quiet.iter().sum::<f64>() / quiet.len().max(1) as f64;
    let big = quiet.iter().filter(|d| **d > 0.25).count();
    let p95 = percentile(&mut quiet, 0.95);
    println!(
        "quiet turns: |Δchance| per player mean {mean:.4}, p95 {p95:.4}, over 0.25 in {:.2} % ({} values)",
        100.0 * big as f64 / quiet.len().max(1) as f64,
        quiet.len()
    );
    println!(
        "one truth per position: {incoherent} turns whose `before` is more than 0.01 from the turn before's chance"
    );
    println!(
        "living players under 1 %: {low}, of whom {low_scored} went on to win or share a draw"
    );
    println!("labels (best, good, inaccuracy, mistake, blunder), by who played:");
    for (who, row) in &labels {
        let n = row[5].max(1) as f64;
        println!(
            "  {who:8} {:5.1} % {:5.1} % {:5.1} % {:5.1} % {:5.1} % ({} turns)",
            100.0 * row[0] as f64 / n,
            100.0 * row[1] as f64 / n,
            100.0 * row[2] as f64 / n,
            100.0 * row[3] as f64 / n,
            100.0 * row[4] as f64 / n,
            row[5]
        );
    }
    println!(
        "time: {seconds:.1} s for {turns} turns, {:.2} s per 100 turns (one thread)",
        100.0 * seconds / turns.max(1) as f64
    );
}
