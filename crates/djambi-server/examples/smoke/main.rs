//! A smoke-test client for a running `djambi-server`, used by `scripts/compose-check.sh`.
//!
//! It creates a four-player game over HTTP and plays it over WebSocket with every seat and a
//! spectator connected; it can signal the server in the middle of a turn (SIGTERM, SIGINT or
//! SIGKILL) and check what the connections saw; after a restart it checks the server still
//! has the game exactly as it was seen.
//!
//! ```text
//! smoke play   --url http://127.0.0.1:PORT --state FILE [--new] [--turns N]
//!              [--metrics-out FILE] [--signal TERM|INT|KILL --pid PID]
//! smoke verify --url http://127.0.0.1:PORT --state FILE [--allow-unacked N]
//! ```
//!
//! The state file holds the game id, the seat tokens and every turn seen. It only talks to a
//! server on the loopback interface. Any mismatch is printed and exits non-zero.
//!
//! One file per concept: `http` (requests over a plain TCP stream), `ws` (one WebSocket
//! connection), `state` (the state file and choosing a turn), `seats` (every seat and a
//! spectator at the table, playing a turn), `checks` (a refused commit, /metrics), `signal`
//! (signalling the server mid-turn) and `commands` (`play` and `verify`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

/// How long any one answer may take.
const WAIT: Duration = Duration::from_secs(15);

/// The seats of a four-player game, and their names.
const SEATS: [(&str, &str); 4] = [("r", "Ann"), ("b", "Bea"), ("y", "Cy"), ("g", "Dee")];

type Res<T> = Result<T, String>;

macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

mod checks;
mod commands;
mod http;
mod seats;
mod signal;
mod state;
mod ws;

#[derive(Parser)]
#[command(about = "Smoke-test client for a running djambi-server (loopback only)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays turns with every seat and a spectator connected (creates the game with --new).
    Play(PlayArgs),
    /// Checks the server has the game as the state file saw it.
    Verify(VerifyArgs),
}

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// The server's base URL (http://127.0.0.1:PORT).
    #[arg(long)]
    pub(crate) url: String,
    /// The state file (written after every turn).
    #[arg(long)]
    pub(crate) state: PathBuf,
    /// Create a new game (and check that a turn out of order is refused).
    #[arg(long)]
    pub(crate) new: bool,
    /// Turns to play.
    #[arg(long, default_value_t = 6)]
    pub(crate) turns: usize,
    /// Check /metrics while connected and write it to this file.
    #[arg(long)]
    pub(crate) metrics_out: Option<PathBuf>,
    /// After the turns, send one more and signal the server at once.
    #[arg(long, value_parser = ["TERM", "INT", "KILL"], requires = "pid")]
    pub(crate) signal: Option<String>,
    /// The server's process id, for --signal.
    #[arg(long)]
    pub(crate) pid: Option<u32>,
    /// How long the sockets may stay open after the signal.
    #[arg(long, default_value_t = 40)]
    pub(crate) close_wait_secs: u64,
    /// Before the turns, send one that the database will refuse (the check script made it
    /// fail with an error containing MARKER): it must be answered `internal` without the
    /// database's text, change nothing, and count in /metrics.
    #[arg(long, value_name = "MARKER")]
    pub(crate) expect_db_failure: Option<String>,
}

#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// The server's base URL (http://127.0.0.1:PORT).
    #[arg(long)]
    pub(crate) url: String,
    /// The state file.
    #[arg(long)]
    pub(crate) state: PathBuf,
    /// Turns the server may have beyond those seen (the move in flight when it was killed).
    #[arg(long, default_value_t = 0)]
    pub(crate) allow_unacked: usize,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => commands::play(args).await,
        Command::Verify(args) => commands::verify(args).await,
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("smoke: FAIL: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
