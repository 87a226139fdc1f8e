//! The analysis's calibration (issue 45, docs/ENGINE.md "Analysis"): games between players the
//! engine's analysis does not model (the arena's Max-N-2 referee with seeded randomness, and
//! the engine's levels), the fit of the value model ([`Model`]) on them, and the benchmark of
//! what the analysis says of held-out games.
//!
//! ```text
//! cargo build --release -p djambi-lab --example calibrate
//! C=target/release/examples/calibrate
//! $C play --games 600 --seed 1 --out games.jsonl       # the games (about 5 min on 2 cores)
//! $C fit games.jsonl                                     # the weights, fitted on 4 games in 5
//! $C report games.jsonl                                  # held-out figures of the analysis
//! $C report games.jsonl --model paranoid --nodes 3000    # the same for the search-based analysis
//! ```
//!
//! `play`: each game seats, by its seed, a mix of the referee (Max-N-2 over material, with its
//! seeded random choices among equal turns) and the levels `easy`, `medium`, `hard` (on node
//! budgets, so a game is repeatable), from the four-player start, `turn_limit=300`; one JSON
//! line per game: its seats, turns (text) and each army's arena score. `fit`: Newton's method
//! on the cross-entropy of the model's chances against those scores over every position of the
//! training games (every fifth game held out), three rounds (the model's one ply of play
//! depends on the weights). `report`: on the held-out games (every fifth), the Brier score
//! against "every living player equally likely" (Brier skill), by third of the game, the
//! reliability table, how much the chances move on quiet turns, how often each label comes
//! out on the referee's turns and on `hard`'s, and the time of a 100-turn game's analysis.

mod fit;
mod games;
mod paranoid;
mod report;

#[path = "../common/flags.rs"]
mod flags;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("play") => games::play_command(),
        Some("fit") => fit::fit_command(file(&args)),
        Some("report") => report::report_command(file(&args)),
        Some("record") => games::record_command(file(&args)),
        _ => {
            eprintln!(
                "usage: calibrate play|fit FILE|report FILE|record FILE [options] (see the source's header)"
            );
            std::process::exit(2);
        }
    }
}

/// The games file named after the subcommand.
fn file(args: &[String]) -> String {
    match args.get(2) {
        Some(f) if !f.starts_with("--") => f.clone(),
        _ => {
            eprintln!("a games file is needed after the subcommand");
            std::process::exit(2);
        }
    }
}
