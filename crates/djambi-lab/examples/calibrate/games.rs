//! The calibration games: played by the arena's players, kept as JSON lines, replayed.

use std::io::{BufRead, Write};
use std::time::Instant;

use djambi_core::{Position, Rules, Turn};
use djambi_engine::{Level, Rng};
use djambi_lab::agent::Agent;
use djambi_lab::arena::{GameSetup, play_game};
use serde::{Deserialize, Serialize};

use super::flags::arg;

/// One game as kept.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The game's seed.
    pub seed: u64,
    /// Who sat in each seat (red, blue, yellow, green): `referee`, `easy`, `medium`, `hard`.
    pub seats: [String; 4],
    /// The turns played, as text.
    pub turns: Vec<String>,
    /// Each army's arena score (1 the winner, 1/k each of k sharing a draw, 0 the others).
    pub scores: [f64; 4],
}

/// The turn limit of the games (R12.4): long enough that few games end on it.
pub const TURN_LIMIT: u32 = 300;

impl Record {
    /// The start position of the games.
    pub fn start() -> Position {
        Position::start(Rules {
            turn_limit: std::num::NonZeroU32::new(TURN_LIMIT),
            ..Rules::default()
        })
    }

    /// Every position of the game with the turn played in it (the last position after them).
    pub fn replay(&self) -> (Vec<(Position, Turn)>, Position) {
        let mut pos = Self::start();
        let mut out = Vec::new();
        for text in &self.turns {
            let turn = pos.parse_turn(text).expect("a kept game replays");
            out.push((pos, turn));
            pos.play(&turn).expect("a kept game replays");
        }
        (out, pos)
    }

    /// The game as a record (NOTATION §4), for `djambi analyse`.
    pub fn record(&self) -> djambi_core::GameRecord {
        let mut game = djambi_core::Game::new(Self::start());
        for text in &self.turns {
            let turn = game
                .position()
                .parse_turn(text)
                .expect("a kept game replays");
            game.play(&turn).expect("a kept game replays");
        }
        game.record()
    }

    /// Whether every fifth game (held out of the fit) is this one.
    pub fn held_out(index: usize) -> bool {
        index.is_multiple_of(5)
    }
}

/// Reads a games file.
pub fn load(path: &str) -> Vec<Record> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    std::io::BufReader::new(file)
        .lines()
        .map(|l| serde_json::from_str(&l.expect("a line")).expect("a game record"))
        .collect()
}

/// The seats of game `seed`: referees and the levels mixed, by the seed (`mixed`), or four
/// referees.
fn seats(seed: u64, mixed: bool) -> [Agent; 4] {
    if !mixed {
        return [Agent::Referee; 4];
    }
    let mut rng = Rng::new(seed ^ 0xca11_b4a7);
    let pool = [
        Agent::Referee,
        Agent::Referee,
        Agent::Level(Level::Easy),
        Agent::Level(Level::Medium),
        Agent::Level(Level::Hard),
    ];
    [(); 4].map(|_| pool[rng.below(pool.len())])
}

fn name(agent: Agent) -> String {
    match agent {
        Agent::Referee => "referee".into(),
        Agent::Level(level) => level.to_string(),
        other => format!("{other:?}"),
    }
}

/// `play --games N --seed S --nodes N --out FILE [--seats mixed|referee]`.
pub fn play_command() {
    let games: usize = arg("--games", 600);
    let seed: u64 = arg("--seed", 1);
    let nodes: u64 = arg("--nodes", 3000);
    let out: String = arg("--out", "games.jsonl".to_string());
    let mixed = arg("--seats", "mixed".to_string()) != "referee";
    let mut file = std::fs::File::create(&out).expect("the output file");
    let started = Instant::now();
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
        let seats = seats(game_seed, mixed);
        let setup = GameSetup {
            seats,
            movetime: [None; 4],
            nodes: [Some(nodes); 4],
            turn_limit: TURN_LIMIT,
            seed: game_seed,
            tt_bytes: 1 << 20,
        };
        let result = play_game(&setup);
        let record = Record {
            seed: game_seed,
            seats: seats.map(name),
            turns: result.line.iter().map(|t| t.to_string()).collect(),
            scores: result.scores,
        };
        writeln!(
            file,
            "{}",
            serde_json::to_string(&record).expect("serialises")
        )
        .expect("written");
        if (g + 1) % 50 == 0 {
            eprintln!(
                "{} games in {:.0} s",
                g + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// `record FILE --game N`: game `N` (from 0) of a games file as a record (NOTATION §4) on
/// stdout, for `djambi analyse --record`.
pub fn record_command(path: String) {
    let n: usize = arg("--game", 0);
    let games = load(&path);
    let Some(game) = games.get(n) else {
        eprintln!("{path} has {} games", games.len());
        std::process::exit(2)
    };
    println!(
        "{}",
        serde_json::to_string(&game.record()).expect("serialises")
    );
}
