//! The arena: a match of many 4-player games between a tested agent and three copies of
//! another, seats rotated, every game bounded by `turn_limit`; prints the tested agent's score
//! with a 95 % confidence interval, win/draw/loss counts, game length and time per move.
//!
//! ```text
//! cargo run --release -p djambi-engine --example arena -- \
//!     --games 100 --a hard --b maxn2 --movetime 1000 --turn-limit 60 --seed 1 --threads 1
//! ```
//!
//! Options: `--games N` (default 40), `--a AGENT` (tested, default `hard`), `--b AGENT`
//! (the three others, default `maxn2`), `--movetime MS` (engine levels, as `djambi bot`
//! gets it; default 1000) or `--nodes N` (a node budget instead: deterministic games),
//! `--turn-limit N` (default 60), `--seed S` (default 1), `--threads T` (default 1),
//! `--hash MB` (per engine seat, default 16). AGENT is `random`, `easy`, `medium`, `hard` or
//! `maxn2`. Game `i` uses seed `S + i` and puts the tested agent in seat `i mod 4`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use djambi_core::Outcome;
use djambi_engine::arena::{Agent, GameResult, GameSetup, mean_ci95, play_game, rotated_seats};

struct Options {
    games: usize,
    a: Agent,
    b: Agent,
    movetime: Option<Duration>,
    nodes: Option<u64>,
    turn_limit: u32,
    seed: u64,
    threads: usize,
    hash_mb: usize,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        games: 40,
        a: Agent::Level(djambi_engine::Level::Hard),
        b: Agent::MaxN2,
        movetime: Some(Duration::from_millis(1000)),
        nodes: None,
        turn_limit: 60,
        seed: 1,
        threads: 1,
        hash_mb: 16,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let (name, value) = match args[i].split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => {
                let v = args
                    .get(i + 1)
                    .ok_or(format!("{} needs a value", args[i]))?;
                i += 1;
                (args[i - 1].clone(), v.clone())
            }
        };
        i += 1;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{name}: {e}"));
        match name.as_str() {
            "--games" => o.games = num(&value)? as usize,
            "--a" => o.a = value.parse()?,
            "--b" => o.b = value.parse()?,
            "--movetime" => o.movetime = Some(Duration::from_millis(num(&value)?)),
            "--nodes" => {
                o.nodes = Some(num(&value)?);
                o.movetime = None;
            }
            "--turn-limit" => o.turn_limit = num(&value)?.max(1) as u32,
            "--seed" => o.seed = num(&value)?,
            "--threads" => o.threads = num(&value)?.max(1) as usize,
            "--hash" => o.hash_mb = num(&value)? as usize,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    };
    let limit = match (o.movetime, o.nodes) {
        (_, Some(n)) => format!("{n} nodes"),
        (Some(m), None) => format!("movetime {} ms", m.as_millis()),
        (None, None) => "no limit".into(),
    };
    println!(
        "arena: {} (1 seat, rotated) vs {} (3 seats), {} games, {limit}, turn_limit={}, seed {}, {} thread(s)",
        o.a, o.b, o.games, o.turn_limit, o.seed, o.threads
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, GameResult)>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= o.games {
                        break;
                    }
                    let setup = GameSetup {
                        seats: rotated_seats(o.a, o.b, g),
                        movetime: o.movetime,
                        nodes: o.nodes,
                        turn_limit: o.turn_limit,
                        seed: o.seed + g as u64,
                        tt_bytes: o.hash_mb << 20,
                    };
                    let r = play_game(&setup);
                    let seat = g % 4;
                    let mut all = results.lock().expect("no panics while holding it");
                    all.push((g, r.clone()));
                    let done = all.len();
                    drop(all);
                    eprintln!(
                        "game {g:>4} seat {seat}: {} score {:.3}, {} turns, {}/{} done, {:.0} s{}",
                        describe(&r.outcome),
                        r.scores[seat],
                        r.turns,
                        done,
                        o.games,
                        started.elapsed().as_secs_f64(),
                        if r.scores[seat] < 1.0 {
                            format!(", ended {}", r.last)
                        } else {
                            String::new()
                        }
                    );
                }
            });
        }
    });
    let mut all = results.into_inner().expect("threads finished");
    all.sort_by_key(|(g, _)| *g);
    report(&o, &all, started.elapsed());
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Winner(w) => format!("winner {w}"),
        Outcome::Draw(d) => format!("draw {d}"),
        Outcome::Ongoing => "unfinished".into(),
    }
}

fn report(o: &Options, all: &[(usize, GameResult)], wall: Duration) {
    let n = all.len();
    let mut a_scores = Vec::with_capacity(n);
    let mut b_scores = Vec::with_capacity(n);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut turns = 0u64;
    let mut a_slow = 0u64;
    let mut a_slowest = String::new();
    let (mut a_moves, mut a_time, mut a_max, mut a_depth) =
        (0u64, Duration::ZERO, Duration::ZERO, 0u64);
    let (mut b_moves, mut b_time, mut b_max) = (0u64, Duration::ZERO, Duration::ZERO);
    for (g, r) in all {
        let seat = g % 4;
        let s = r.scores[seat];
        a_scores.push(s);
        // The three others' average, per game: their mean seat score.
        b_scores.push((1.0 - s - (1.0 - r.scores.iter().sum::<f64>())) / 3.0);
        if s >= 1.0 {
            wins += 1;
        } else if s > 0.0 {
            draws += 1;
        } else {
            losses += 1;
        }
        turns += u64::from(r.turns);
        for i in 0..4 {
            if i == seat {
                a_moves += u64::from(r.moves[i]);
                a_time += r.think[i];
                if r.max_think[i] > a_max {
                    a_max = r.max_think[i];
                    a_slowest.clone_from(&r.slowest[i]);
                }
                a_depth += r.depth_sum[i];
                a_slow += u64::from(r.slow[i]);
            } else {
                b_moves += u64::from(r.moves[i]);
                b_time += r.think[i];
                b_max = b_max.max(r.max_think[i]);
            }
        }
    }
    let (mean, ci) = mean_ci95(&a_scores);
    let (bmean, bci) = mean_ci95(&b_scores);
    let ms = |d: Duration, k: u64| d.as_secs_f64() * 1000.0 / k.max(1) as f64;
    println!();
    println!("| agent | seats | score per game | 95 % CI | wins | draws (shared) | losses |");
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| {} | 1 | {:.3} | {:.3} – {:.3} | {wins} | {draws} | {losses} |",
        o.a,
        mean,
        (mean - ci).max(0.0),
        (mean + ci).min(1.0)
    );
    println!(
        "| {} | 3 (per seat) | {:.3} | {:.3} – {:.3} | | | |",
        o.b,
        bmean,
        (bmean - bci).max(0.0),
        (bmean + bci).min(1.0)
    );
    println!();
    println!(
        "games {n}, average length {:.1} turns, wall {:.0} s",
        turns as f64 / n.max(1) as f64,
        wall.as_secs_f64()
    );
    println!(
        "{}: {a_moves} moves, {:.1} ms/move average, {:.1} ms longest, {a_slow} over 90 % of the move time, average depth {:.2}",
        o.a,
        ms(a_time, a_moves),
        ms(a_max, 1),
        a_depth as f64 / a_moves.max(1) as f64
    );
    println!("{}: longest think in {a_slowest}", o.a);
    println!(
        "{}: {b_moves} moves, {:.1} ms/move average, {:.1} ms longest",
        o.b,
        ms(b_time, b_moves),
        ms(b_max, 1)
    );
}
