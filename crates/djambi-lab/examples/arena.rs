//! The arena: a match of many 4-player games between a tested agent and three copies of
//! another, seats rotated, every game bounded by `turn_limit`; prints the tested agent's score
//! with a 95 % confidence interval, win/draw/loss counts, game length and time per move. Or a
//! ladder of such matches, one per pair of neighbouring levels, with an Elo estimate per level.
//!
//! ```text
//! cargo run --release -p djambi-lab --example arena -- \
//!     --games 100 --a hard --b maxn2 --movetime 1000 --turn-limit 60 --seed 1 --threads 1
//! cargo run --release -p djambi-lab --example arena -- \
//!     --ladder random,beginner,easy,medium,hard --games 200,200,100,60 --movetime 100 \
//!     --turn-limit 60 --seed 1 --threads 1
//! ```
//!
//! Options: `--games N` (default 40), `--a AGENT` (tested, default `hard`), `--b AGENT`
//! (the three others, default `maxn2`), `--movetime MS` (engine levels, as `djambi bot`
//! gets it; default 1000) or `--nodes N` (a node budget instead: deterministic games),
//! `--turn-limit N` (default 60), `--seed S` (default 1), `--jobs T` (games played in
//! parallel, default 1; `--threads` is the same), `--hash MB` (per searching engine seat,
//! default 16). AGENT is a level (`random`, `beginner`, `easy`, `medium`, `hard`), `maxn2`
//! (the Max-N-2 material baseline), `referee` (the outside referee's Max-N-2 player), `mcts`
//! (tree search with progressive bias, on the node budget, 100 000 without one) or an
//! experiment on `hard` (`src/experiments/`, e.g. `hard-stop`). Game `i` uses seed `S + i` and puts
//! the tested agent in seat `i mod 4`. `--b-nodes N` gives the three others a node budget of
//! their own (with `--nodes`: the tested agent's; the time-scaling match is `--a hard --b hard
//! --nodes 500000 --b-nodes 125000`); `--b-movetime MS` does the same on the clock
//! (`--movetime 1000 --b-movetime 250`). `--from G` starts at game `G` (to replay one game:
//! `--from G --games 1`); an elimination of the tested agent before turn 30 prints the game's
//! turns.
//!
//! `--ladder A,B,C,…` (weakest first) plays, for each neighbouring pair, the stronger agent in
//! one seat against three copies of the weaker (`B` vs 3 × `A`, `C` vs 3 × `B`, …), then one
//! check further apart (`C` vs 3 × `A`, with the first pair's number of games; `--check X:Y`
//! names another pair, `--check none` skips it). `--games` is then one number for every pair
//! or one per neighbouring pair (`200,200,100,60`). It prints each pair's score, its Elo
//! difference ([`elo_difference`]: a score s against three copies is a pairwise expected
//! score s / (s + (1 − s) / 3)), and each level's Elo with the first level at 0.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use djambi_core::Outcome;
use djambi_lab::agent::Agent;
use djambi_lab::arena::{GameResult, GameSetup, play_game, rotated_seats};
use djambi_lab::stats::{elo_difference, mean_ci95};

struct Options {
    games: Vec<usize>,
    from: usize,
    a: Agent,
    b: Agent,
    movetime: Option<Duration>,
    nodes: Option<u64>,
    /// The others' node budget, when it differs from the tested agent's (`--b-nodes`).
    b_nodes: Option<u64>,
    /// The others' move time, when it differs from the tested agent's (`--b-movetime`).
    b_movetime: Option<Duration>,
    turn_limit: u32,
    seed: u64,
    threads: usize,
    hash_mb: usize,
    ladder: Option<Vec<Agent>>,
    /// The ladder's check pair: `None` for the default, `Some(None)` for none.
    check: Option<Option<(Agent, Agent)>>,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        games: vec![40],
        from: 0,
        a: Agent::Level(djambi_engine::Level::Hard),
        b: Agent::MaxN2,
        movetime: Some(Duration::from_millis(1000)),
        nodes: None,
        b_nodes: None,
        b_movetime: None,
        turn_limit: 60,
        seed: 1,
        threads: 1,
        hash_mb: 16,
        ladder: None,
        check: None,
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
            "--games" => {
                o.games = value
                    .split(',')
                    .map(|g| num(g).map(|g| g as usize))
                    .collect::<Result<_, _>>()?;
            }
            "--from" => o.from = num(&value)? as usize,
            "--a" => o.a = value.parse()?,
            "--b" => o.b = value.parse()?,
            "--movetime" => o.movetime = Some(Duration::from_millis(num(&value)?)),
            "--nodes" => {
                o.nodes = Some(num(&value)?);
                o.movetime = None;
            }
            "--b-nodes" => o.b_nodes = Some(num(&value)?),
            "--b-movetime" => o.b_movetime = Some(Duration::from_millis(num(&value)?)),
            "--turn-limit" => o.turn_limit = num(&value)?.max(1) as u32,
            "--seed" => o.seed = num(&value)?,
            "--threads" | "--jobs" => o.threads = num(&value)?.max(1) as usize,
            "--hash" => o.hash_mb = num(&value)? as usize,
            "--ladder" => {
                let l = value
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<Vec<Agent>, _>>()?;
                if l.len() < 2 {
                    return Err("--ladder needs at least two agents".into());
                }
                o.ladder = Some(l);
            }
            "--check" if value == "none" => o.check = Some(None),
            "--check" => {
                let (x, y) = value
                    .split_once(':')
                    .ok_or("--check: TESTED:OTHER or none")?;
                o.check = Some(Some((x.parse()?, y.parse()?)));
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    let pairs = o.ladder.as_ref().map_or(1, |l| l.len() - 1);
    if o.games.len() != 1 && o.games.len() != pairs {
        return Err(format!(
            "--games: one number, or one per neighbouring pair ({pairs})"
        ));
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
        (_, Some(n)) => match o.b_nodes {
            Some(b) if b != n => format!("{n} nodes (the others {b})"),
            _ => format!("{n} nodes"),
        },
        (Some(m), None) => match o.b_movetime {
            Some(b) if b != m => format!(
                "movetime {} ms (the others {} ms)",
                m.as_millis(),
                b.as_millis()
            ),
            _ => format!("movetime {} ms", m.as_millis()),
        },
        (None, None) => "no limit".into(),
    };
    if let Some(ladder) = &o.ladder {
        let names: Vec<String> = ladder.iter().map(Agent::to_string).collect();
        println!(
            "arena ladder: {}, {limit}, turn_limit={}, seed {}, {} thread(s)",
            names.join(" < "),
            o.turn_limit,
            o.seed,
            o.threads
        );
        run_ladder(&o, ladder);
        return;
    }
    println!(
        "arena: {} (1 seat, rotated) vs {} (3 seats), {} games, {limit}, turn_limit={}, seed {}, {} thread(s)",
        o.a, o.b, o.games[0], o.turn_limit, o.seed, o.threads
    );
    let (all, wall) = play_match(&o, o.a, o.b, o.games[0], true);
    report(&o, &all, wall);
}

/// Plays `games` games of `a` (one seat, rotated) against three `b`, on `o.threads` threads.
/// Returns the results in game order and the wall time.
fn play_match(
    o: &Options,
    a: Agent,
    b: Agent,
    games: usize,
    progress: bool,
) -> (Vec<(usize, GameResult)>, Duration) {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, GameResult)>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                loop {
                    let g = o.from + next.fetch_add(1, Ordering::Relaxed);
                    if g >= o.from + games {
                        break;
                    }
                    let mut nodes = [o.b_nodes.or(o.nodes); 4];
                    nodes[g % 4] = o.nodes;
                    let mut movetime = [o.b_movetime.or(o.movetime); 4];
                    movetime[g % 4] = o.movetime;
                    let setup = GameSetup {
                        seats: rotated_seats(a, b, g),
                        movetime,
                        nodes,
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
                    if !progress {
                        continue;
                    }
                    eprintln!(
                        "game {g:>4} seat {seat}: {} score {:.3}, {} turns, {}/{} done, {:.0} s{}",
                        describe(&r.outcome),
                        r.scores[seat],
                        r.turns,
                        done,
                        games,
                        started.elapsed().as_secs_f64(),
                        if r.scores[seat] < 1.0 {
                            format!(", ended {}", r.last)
                        } else {
                            String::new()
                        }
                    );
                    if let Some(t) = r.eliminated_at[seat].filter(|t| *t < EARLY) {
                        let line: Vec<String> = r.line.iter().map(|t| t.to_string()).collect();
                        eprintln!("game {g:>4}: out at turn {t}: {}", line.join(" "));
                    }
                }
            });
        }
    });
    let mut all = results.into_inner().expect("threads finished");
    all.sort_by_key(|(g, _)| *g);
    (all, started.elapsed())
}

/// One match of the ladder, summed up.
struct Rung {
    a: Agent,
    b: Agent,
    games: usize,
    score: f64,
    ci: f64,
    wdl: (usize, usize, usize),
    turns: f64,
    a_ms: f64,
    wall: Duration,
}

impl Rung {
    /// The score clamped half a game away from 0 and 1, so that a clean sweep has a finite
    /// (lower-bound) rating difference.
    fn clamp(&self, s: f64) -> f64 {
        let eps = 0.5 / self.games.max(1) as f64;
        s.clamp(eps, 1.0 - eps)
    }

    /// The Elo difference and the ends of its 95 % interval (the score's interval, mapped).
    fn elo(&self) -> (f64, f64, f64) {
        let d = |s: f64| elo_difference(self.clamp(s), 3);
        (
            d(self.score),
            d(self.score - self.ci),
            d(self.score + self.ci),
        )
    }
}

fn rung(o: &Options, a: Agent, b: Agent, games: usize) -> Rung {
    let (all, wall) = play_match(o, a, b, games, false);
    let scores: Vec<f64> = all.iter().map(|(g, r)| r.scores[g % 4]).collect();
    let (score, ci) = mean_ci95(&scores);
    let mut wdl = (0, 0, 0);
    for &s in &scores {
        match s {
            s if s >= 1.0 => wdl.0 += 1,
            s if s > 0.0 => wdl.1 += 1,
            _ => wdl.2 += 1,
        }
    }
    let turns = all.iter().map(|(_, r)| f64::from(r.turns)).sum::<f64>() / games.max(1) as f64;
    let (mut moves, mut think) = (0u64, Duration::ZERO);
    for (g, r) in &all {
        moves += u64::from(r.moves[g % 4]);
        think += r.think[g % 4];
    }
    let r = Rung {
        a,
        b,
        games,
        score,
        ci,
        wdl,
        turns,
        a_ms: think.as_secs_f64() * 1000.0 / moves.max(1) as f64,
        wall,
    };
    eprintln!(
        "{a} vs 3 x {b}: {:.3} ± {:.3} over {games} games, {:.0} s",
        r.score,
        r.ci,
        wall.as_secs_f64()
    );
    r
}

fn run_ladder(o: &Options, ladder: &[Agent]) {
    let games = |i: usize| o.games[if o.games.len() == 1 { 0 } else { i }];
    let rungs: Vec<Rung> = ladder
        .windows(2)
        .enumerate()
        .map(|(i, w)| rung(o, w[1], w[0], games(i)))
        .collect();
    let check = match o.check {
        Some(c) => c,
        None if ladder.len() >= 3 => Some((ladder[2], ladder[0])),
        None => None,
    };
    let check = check.map(|(a, b)| rung(o, a, b, games(0)));
    let fmt_d = |d: f64, r: &Rung| {
        let clamped = r.score <= 0.0 || r.score >= 1.0;
        format!("{}{d:+.0}", if clamped { "≈" } else { "" })
    };
    println!();
    println!(
        "| match: tested vs 3 × other | games | score (95 % CI) | W / D / L | Elo difference (95 % CI) | turns per game | tested: ms per move | wall |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for r in rungs.iter().chain(check.iter()) {
        let (d, lo, hi) = r.elo();
        println!(
            "| {} vs {} | {} | {:.3} ({:.3} – {:.3}) | {} / {} / {} | {} ({lo:+.0} – {hi:+.0}) | {:.1} | {:.2} | {:.1} s |",
            r.a,
            r.b,
            r.games,
            r.score,
            (r.score - r.ci).max(0.0),
            (r.score + r.ci).min(1.0),
            r.wdl.0,
            r.wdl.1,
            r.wdl.2,
            fmt_d(d, r),
            r.turns,
            r.a_ms,
            r.wall.as_secs_f64()
        );
    }
    // Ratings: the first level at 0, each next one the sum of the differences below it; the
    // interval adds the steps' half-widths in quadrature (independent matches), on each side.
    println!();
    println!("| level | Elo (first = 0) | 95 % CI |");
    println!("|---|---|---|");
    println!("| {} | 0 | — |", ladder[0]);
    let (mut elo, mut lo2, mut hi2) = (0.0, 0.0, 0.0);
    for (r, agent) in rungs.iter().zip(&ladder[1..]) {
        let (d, lo, hi) = r.elo();
        elo += d;
        lo2 += (d - lo).powi(2);
        hi2 += (hi - d).powi(2);
        println!(
            "| {agent} | {elo:.0} | {:.0} – {:.0} |",
            elo - lo2.sqrt(),
            elo + hi2.sqrt()
        );
    }
    if let Some(c) = &check {
        let (d, lo, hi) = c.elo();
        let pos = |a: Agent| ladder.iter().position(|&x| x == a);
        if let (Some(i), Some(j)) = (pos(c.b), pos(c.a)) {
            let (i, j) = (i.min(j), i.max(j));
            let sum: f64 = rungs[i..j].iter().map(|r| r.elo().0).sum();
            let sign = if pos(c.a) > pos(c.b) { 1.0 } else { -1.0 };
            println!();
            println!(
                "check: {} vs 3 × {} measured {} ({lo:+.0} – {hi:+.0}); the ladder's steps between them add to {:+.0}",
                c.a,
                c.b,
                fmt_d(d, c),
                sign * sum
            );
        }
    }
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Winner(w) => format!("winner {w}"),
        Outcome::Draw(d) => format!("draw {d}"),
        Outcome::Ongoing => "unfinished".into(),
    }
}

/// An elimination before this many turns (all players' turns counted) is an early one: the
/// opening traps the issue counts.
const EARLY: u32 = 30;

fn report(o: &Options, all: &[(usize, GameResult)], wall: Duration) {
    let n = all.len();
    let mut a_scores = Vec::with_capacity(n);
    let mut b_scores = Vec::with_capacity(n);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut turns = 0u64;
    let (mut out, mut out_early) = (0usize, 0usize);
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
        if let Some(t) = r.eliminated_at[seat] {
            out += 1;
            out_early += usize::from(t < EARLY);
        }
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
    println!(
        "{}: eliminated in {out} of {n} games, {out_early} of them before turn {EARLY} ({:.1} %)",
        o.a,
        100.0 * out_early as f64 / n.max(1) as f64
    );
    println!("{}: longest think in {a_slowest}", o.a);
    println!(
        "{}: {b_moves} moves, {:.1} ms/move average, {:.1} ms longest",
        o.b,
        ms(b_time, b_moves),
        ms(b_max, 1)
    );
}
