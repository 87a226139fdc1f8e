//! The arena: whole games between bots, for measuring strength (`examples/arena.rs` runs
//! matches of many games with seats rotated and prints scores with confidence intervals, using
//! [`crate::stats`]).
//!
//! A game starts from the 4-player start position under a ruleset with `turn_limit`, so every
//! game ends (R12.4). Scores: a winner gets 1, a draw shared by k living players gives each 1/k,
//! an eliminated player 0.

use std::time::{Duration, Instant};

use djambi_core::{Army, Outcome, Position, Rules};
use djambi_engine::{Engine, EngineConfig, Level, Limits, Rng, mix, process_budget};

use crate::agent::Agent;
use crate::experiments;
use crate::maxn::{MaxnScratch, maxn2};
use crate::mcts::Mcts;
use crate::referee::referee2;

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
            let config = EngineConfig {
                // The one-ply levels never touch the table: do not zero megabytes for them.
                tt_bytes: if searches(level) { setup.tt_bytes } else { 0 },
                seed: mix(setup.seed.wrapping_mul(8).wrapping_add(i as u64)),
            };
            let engine = match a {
                Agent::Experiment(e) => Engine::with_hook(config, (experiments::ALL[*e].hook)()),
                _ => Engine::new(config),
            };
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

/// Whether a level uses the search (and so its transposition table and the move time).
pub fn searches(level: Level) -> bool {
    matches!(level, Level::Medium | Level::Hard)
}

/// The army sitting in seat `i`.
pub fn seat_army(i: usize) -> Army {
    Army::from_index(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate() {
        let s = rotated_seats(Agent::MaxN2, Agent::Level(Level::Easy), 6);
        assert_eq!(s[2], Agent::MaxN2);
        assert_eq!(s.iter().filter(|a| **a == Agent::MaxN2).count(), 1);
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
