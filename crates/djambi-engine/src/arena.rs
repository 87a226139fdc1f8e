//! The arena: whole games between bots, for measuring strength (`examples/arena.rs` runs
//! matches of many games with seats rotated and prints scores with confidence intervals).
//!
//! A game starts from the 4-player start position under a ruleset with `turn_limit`, so every
//! game ends (R12.4). Scores: a winner gets 1, a draw shared by k living players gives each 1/k,
//! an eliminated player 0.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use djambi_core::{Army, Outcome, Position, Rules};

use crate::engine::{Engine, EngineConfig};
use crate::eval::Weights;
use crate::level::Level;
use crate::rng::Rng;
use crate::search::maxn::{MaxnScratch, maxn2};
use crate::search::mcts::Mcts;
use crate::search::referee::referee2;
use crate::search::{Reductions, Style};
use crate::time::{Limits, process_budget};

/// A player in the arena: a level of the engine, or the Max-N-2 baseline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Agent {
    /// The engine at a level.
    Level(Level),
    /// The Max-N-2 material baseline ([`crate::search::maxn`]).
    MaxN2,
    /// The outside referee's Max-N-2 player ([`crate::search::referee`]).
    Referee,
    /// Best-Reply Search+ (Schadd & Winands 2011; Esser et al. 2013) over `hard`'s evaluation,
    /// ordering and node budget: between two of its own turns one opponent searches all its
    /// turns and the others play their first ordered turn.
    Brs,
    /// `hard` with late-move reductions (issue 24; measured, not landed): late quiet turns
    /// searched one ply shallower first.
    HardLmr,
    /// `hard-lmr` without reducing the turns that bear on its own chief (issue 24): the chief's
    /// moves, and opponents' pieces coming near it or onto its lines.
    HardLmrG,
    /// `hard` full-width to depth 4 and with late-move reductions beyond, a deeper iteration's
    /// turn played only if the full-width search finds it no clearly worse (issue 24).
    HardLmrV,
    /// `hard` whose quiescence search lets an opponent kill only the searching player's pieces
    /// and chiefs (issue 24; measured, not landed): the kills among opponents were nine tenths
    /// of depth 5's nodes.
    HardQ,
    /// `hard` as released before issue 24: an opponent's placements chosen without the square
    /// beside the searching player's chief or where its displaced chief is most exposed, so it
    /// falls into the two-opponent opening trap (the "old `hard`" the issue asks to be
    /// measured against).
    HardOld,
    /// `hard` up to a completed fourth ply, then Best-Reply Search+ iterations with the rest of
    /// its budget, a Best-Reply turn played only if the full-width fourth ply finds it no
    /// clearly worse (issue 24; `search/beyond.rs`).
    HardBrs,
    /// `hard` up to a completed fourth ply, then, when the budget leaves no room for a fifth,
    /// the same four plies searched wider: more placements, longer exchanges of kills (issue
    /// 24; `search/wide.rs`).
    HardWide,
    /// `hard-brs` whose non-branching opponents try their first two ordered turns instead of
    /// one (after Baier & Kaisers' Opponent-Pruning Paranoid Search, 2020; issue 24).
    HardOpps,
    /// `hard` up to a completed fourth ply, then, when the budget leaves no room for a fifth,
    /// Monte-Carlo Tree Search among the turns the fourth ply cannot rank below its best, MCTS's
    /// choice played only if the full-width fourth ply finds it no clearly worse (issue 24;
    /// `search/mcts_beyond.rs`).
    HardMcts,
    /// `hard` stopping at a completed fourth ply where no fifth fits the limits, instead of
    /// starting a fifth it will not finish and playing that partial iteration's turn when one
    /// beats the fourth ply's best (issue 24; `search/fifth.rs`).
    HardStop,
    /// `hard` evaluating with the weights fitted on its own games ([`Weights::FITTED`],
    /// `examples/eval_fit.rs`; issue 24).
    HardFit,
    /// Monte-Carlo Tree Search with progressive bias ([`crate::search::mcts`]), on the node
    /// budget (100 000 positions when the match gives only a move time).
    Mcts,
}

/// The agents that are not a level of the engine, by name: one table for printing and parsing.
const NAMED: [(&str, Agent); 15] = [
    ("maxn2", Agent::MaxN2),
    ("referee", Agent::Referee),
    ("brs", Agent::Brs),
    ("hard-lmr", Agent::HardLmr),
    ("hard-lmrg", Agent::HardLmrG),
    ("hard-lmrv", Agent::HardLmrV),
    ("hard-q", Agent::HardQ),
    ("hard-old", Agent::HardOld),
    ("hard-brs", Agent::HardBrs),
    ("hard-wide", Agent::HardWide),
    ("hard-opps", Agent::HardOpps),
    ("hard-mcts", Agent::HardMcts),
    ("hard-stop", Agent::HardStop),
    ("hard-fit", Agent::HardFit),
    ("mcts", Agent::Mcts),
];

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Level(l) => l.fmt(f),
            other => {
                let (name, _) = NAMED
                    .iter()
                    .find(|(_, a)| a == other)
                    .expect("every agent but a level is named");
                f.write_str(name)
            }
        }
    }
}

impl FromStr for Agent {
    type Err = String;

    /// `random`, `beginner`, `easy`, `medium`, `hard`, `maxn2`, `referee`, `brs`, `hard-lmr`,
    /// `hard-lmrg`, `hard-lmrv`, `hard-q`, `hard-old`, `hard-brs`, `hard-wide`, `hard-opps`,
    /// `hard-mcts`, `hard-stop`, `hard-fit` or `mcts`.
    fn from_str(s: &str) -> Result<Agent, String> {
        if let Some((_, agent)) = NAMED.iter().find(|(name, _)| *name == s) {
            return Ok(*agent);
        }
        s.parse().map(Agent::Level).map_err(|e| {
            let names: Vec<&str> = NAMED.iter().map(|(name, _)| *name).collect();
            let (last, rest) = names.split_last().expect("named agents");
            format!("{e}, {} or {last}", rest.join(", "))
        })
    }
}

impl Agent {
    /// The level an engine seat thinks at (`brs` and `hard-lmr` search as `hard` does, in their
    /// own way), or
    /// `None` for the agents that are not the engine.
    fn engine_level(self) -> Option<Level> {
        match self {
            Agent::Level(level) => Some(level),
            Agent::Brs
            | Agent::HardLmr
            | Agent::HardLmrG
            | Agent::HardLmrV
            | Agent::HardQ
            | Agent::HardOld
            | Agent::HardBrs
            | Agent::HardWide
            | Agent::HardOpps
            | Agent::HardMcts
            | Agent::HardStop
            | Agent::HardFit => Some(Level::Hard),
            Agent::MaxN2 | Agent::Referee | Agent::Mcts => None,
        }
    }
}

/// The turns a non-branching opponent of `hard-opps` tries.
const OPPS_KEEP: usize = 2;

/// The node budget of the `mcts` agent in a match timed by move time only.
pub const MCTS_NODES: u64 = 100_000;

/// How one game is played.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Who sits in each seat, in base order (red, blue, yellow, green).
    pub seats: [Agent; 4],
    /// The move time of the engine's levels, per seat, as the `djambi bot` command would get
    /// it: the search uses [`process_budget`] of it. A tested agent may think longer than the
    /// others (the time-scaling match on the clock).
    pub movetime: [Option<Duration>; 4],
    /// A node budget for the engine's levels instead (deterministic games), per seat: a tested
    /// agent may think longer than the others (the time-scaling match).
    pub nodes: [Option<u64>; 4],
    /// The ruleset's `turn_limit` (R12.4).
    pub turn_limit: u32,
    /// The game's seed: each seat's engine and generator is seeded from it.
    pub seed: u64,
    /// Transposition-table size of each engine seat.
    pub tt_bytes: usize,
}

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Each seat's score (1 win, 1/k for a draw among k, 0 eliminated).
    pub scores: [f64; 4],
    /// The outcome.
    pub outcome: Outcome,
    /// Turns played.
    pub turns: u32,
    /// Per seat: moves chosen, total thinking time, longest think.
    pub moves: [u32; 4],
    /// Per seat: total thinking time.
    pub think: [Duration; 4],
    /// Per seat: the longest think.
    pub max_think: [Duration; 4],
    /// Per seat: the sum of completed search depths (engine levels only).
    pub depth_sum: [u64; 4],
    /// Per seat: thinks longer than 90 % of the move time (the margin the command keeps).
    pub slow: [u32; 4],
    /// Per seat: the position of its longest think, in DPN.
    pub slowest: [String; 4],
    /// The final position, in DPN (to look at a game that went wrong).
    pub last: String,
    /// Per seat: the number of turns played when it was eliminated (R2.5), if it was.
    pub eliminated_at: [Option<u32>; 4],
    /// The turns played, in order (to replay a game that went wrong).
    pub line: Vec<djambi_core::Turn>,
}

/// Plays one game to its end.
pub fn play_game(setup: &GameSetup) -> GameResult {
    let rules = Rules {
        turn_limit: std::num::NonZeroU32::new(setup.turn_limit.max(1)),
        ..Rules::default()
    };
    let mut pos = Position::start(rules);
    let mut engines: Vec<Option<Engine>> = setup
        .seats
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let level = a.engine_level()?;
            let mut engine = Engine::new(EngineConfig {
                // The one-ply levels never touch the table: do not zero megabytes for them.
                tt_bytes: if searches(level) { setup.tt_bytes } else { 0 },
                seed: crate::rng::mix(setup.seed.wrapping_mul(8).wrapping_add(i as u64)),
            });
            match a {
                Agent::Brs => engine.set_style(Style::BestReply),
                Agent::HardLmr => engine.set_reductions(Reductions::Late),
                Agent::HardLmrG => engine.set_reductions(Reductions::Guarded),
                Agent::HardLmrV => engine.set_reductions(Reductions::Verified),
                Agent::HardQ => engine.set_paranoid_kills(true),
                Agent::HardOld => engine.set_old_placements(true),
                Agent::HardBrs => engine.set_brs_beyond(true),
                Agent::HardWide => engine.set_wide_beyond(true),
                Agent::HardMcts => engine.set_mcts_beyond(true),
                Agent::HardStop => engine.set_stop_at_fourth(true),
                Agent::HardFit => engine.set_weights(Weights::FITTED),
                Agent::HardOpps => {
                    engine.set_brs_beyond(true);
                    engine.set_opponent_keep(OPPS_KEEP);
                }
                _ => {}
            }
            Some(engine)
        })
        .collect();
    let mut rngs: Vec<Rng> = (0..4)
        .map(|i| Rng::new(setup.seed ^ (0x5151 + i as u64)))
        .collect();
    let mut scratch = MaxnScratch::default();
    let mut mcts = Mcts::default();
    let mut result = GameResult {
        scores: [0.0; 4],
        outcome: Outcome::Ongoing,
        turns: 0,
        moves: [0; 4],
        think: [Duration::ZERO; 4],
        max_think: [Duration::ZERO; 4],
        depth_sum: [0; 4],
        slow: [0; 4],
        slowest: Default::default(),
        last: String::new(),
        eliminated_at: [None; 4],
        line: Vec::new(),
    };
    while let Some(p) = pos.to_move() {
        let seat = p.index();
        let start = Instant::now();
        let turn = match setup.seats[seat] {
            Agent::MaxN2 => maxn2(&pos, &mut rngs[seat], &mut scratch),
            Agent::Referee => referee2(&pos, &mut rngs[seat], &mut scratch),
            Agent::Mcts => mcts.choose(&pos, setup.nodes[seat].unwrap_or(MCTS_NODES)),
            agent => {
                let level = agent.engine_level().expect("an engine seat");
                let limits = Limits {
                    movetime: setup.movetime[seat].map(|m| process_budget(m, Duration::ZERO)),
                    nodes: setup.nodes[seat],
                    stop: None,
                };
                let engine = engines[seat].as_mut().expect("an engine seat");
                engine.think(&pos, level, &limits).ok().map(|r| {
                    result.depth_sum[seat] += u64::from(r.depth);
                    r.best
                })
            }
        };
        let spent = start.elapsed();
        result.moves[seat] += 1;
        result.think[seat] += spent;
        if spent > result.max_think[seat] {
            result.max_think[seat] = spent;
            result.slowest[seat] = pos.to_dpn();
        }
        if setup.movetime[seat].is_some_and(|m| spent > m.mul_f64(0.9)) {
            result.slow[seat] += 1;
        }
        let Some(turn) = turn else { break };
        pos.play(&turn).expect("bots play legal turns");
        result.line.push(turn);
        result.turns += 1;
        let alive = pos.alive();
        for a in Army::ALL {
            let out = &mut result.eliminated_at[a.index()];
            if out.is_none() && !alive.contains(a) {
                *out = Some(result.turns);
            }
        }
    }
    result.outcome = pos.outcome();
    result.last = pos.to_dpn();
    result.scores = outcome_scores(result.outcome);
    result
}

/// Each army's arena score for a game that ended with `outcome`: 1 for the winner, 1/k for each
/// of k players sharing a draw, 0 otherwise (every army 0 while the game is open).
pub fn outcome_scores(outcome: Outcome) -> [f64; 4] {
    let mut scores = [0.0; 4];
    match outcome {
        Outcome::Winner(w) => scores[w.index()] = 1.0,
        Outcome::Draw(d) => {
            for p in d.iter() {
                scores[p.index()] = 1.0 / d.len() as f64;
            }
        }
        Outcome::Ongoing => {}
    }
    scores
}

/// The seats of game `game` of a match: `tested` in seat `game % 4`, `other` elsewhere, so
/// over every four games the tested agent plays each seat once.
pub fn rotated_seats(tested: Agent, other: Agent, game: usize) -> [Agent; 4] {
    let mut seats = [other; 4];
    seats[game % 4] = tested;
    seats
}

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

/// Whether a level uses the search (and so its transposition table and the move time).
pub fn searches(level: Level) -> bool {
    matches!(level, Level::Medium | Level::Hard)
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

/// The army sitting in seat `i`.
pub fn seat_army(i: usize) -> Army {
    Army::from_index(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_parse_and_seats_rotate() {
        assert_eq!("maxn2".parse::<Agent>(), Ok(Agent::MaxN2));
        assert_eq!("referee".parse::<Agent>(), Ok(Agent::Referee));
        assert_eq!("brs".parse::<Agent>(), Ok(Agent::Brs));
        assert_eq!(Agent::Brs.to_string(), "brs");
        assert_eq!("hard-lmr".parse::<Agent>(), Ok(Agent::HardLmr));
        assert_eq!(Agent::HardLmr.to_string(), "hard-lmr");
        assert_eq!("hard-lmrg".parse::<Agent>(), Ok(Agent::HardLmrG));
        assert_eq!(Agent::HardLmrG.to_string(), "hard-lmrg");
        assert_eq!("hard-lmrv".parse::<Agent>(), Ok(Agent::HardLmrV));
        assert_eq!(Agent::HardLmrV.to_string(), "hard-lmrv");
        assert_eq!("hard-q".parse::<Agent>(), Ok(Agent::HardQ));
        assert_eq!(Agent::HardQ.to_string(), "hard-q");
        assert_eq!("hard-brs".parse::<Agent>(), Ok(Agent::HardBrs));
        assert_eq!(Agent::HardBrs.to_string(), "hard-brs");
        assert_eq!("hard-wide".parse::<Agent>(), Ok(Agent::HardWide));
        assert_eq!(Agent::HardWide.to_string(), "hard-wide");
        assert_eq!("hard-mcts".parse::<Agent>(), Ok(Agent::HardMcts));
        assert_eq!(Agent::HardMcts.to_string(), "hard-mcts");
        assert_eq!("hard-stop".parse::<Agent>(), Ok(Agent::HardStop));
        assert_eq!(Agent::HardStop.to_string(), "hard-stop");
        assert_eq!("hard-fit".parse::<Agent>(), Ok(Agent::HardFit));
        assert_eq!(Agent::HardFit.to_string(), "hard-fit");
        assert_eq!("hard-opps".parse::<Agent>(), Ok(Agent::HardOpps));
        assert_eq!(Agent::HardOpps.to_string(), "hard-opps");
        assert_eq!("mcts".parse::<Agent>(), Ok(Agent::Mcts));
        assert_eq!("hard".parse::<Agent>(), Ok(Agent::Level(Level::Hard)));
        assert!("strong".parse::<Agent>().is_err());
        let s = rotated_seats(Agent::MaxN2, Agent::Level(Level::Easy), 6);
        assert_eq!(s[2], Agent::MaxN2);
        assert_eq!(s.iter().filter(|a| **a == Agent::MaxN2).count(), 1);
        let (m, h) = mean_ci95(&[1.0, 0.0, 1.0, 0.0]);
        assert!((m - 0.5).abs() < 1e-12 && h > 0.5);
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

    #[test]
    fn a_short_game_ends() {
        let r = play_game(&GameSetup {
            seats: [
                Agent::Level(Level::Random),
                Agent::Level(Level::Easy),
                // The baseline is slow unoptimised; the debug run keeps the game quick.
                if cfg!(debug_assertions) {
                    Agent::Level(Level::Medium)
                } else {
                    Agent::MaxN2
                },
                Agent::Level(Level::Random),
            ],
            movetime: [None; 4],
            nodes: [Some(500); 4],
            turn_limit: 10,
            seed: 3,
            tt_bytes: 1 << 16,
        });
        assert_ne!(r.outcome, Outcome::Ongoing);
        assert!((r.scores.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
