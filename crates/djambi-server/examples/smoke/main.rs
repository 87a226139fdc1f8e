//! A smoke-test client for a running `djambi-server`, used by `scripts/container-check.sh`
//! (through the containers' published ports).
//!
//! It creates a four-player game over HTTP and plays it over WebSocket with every seat and a
//! spectator connected, each turn chosen from the `legal` message the server sends the seat to
//! move; it can signal the server in the middle of a turn (SIGTERM, SIGINT or SIGKILL, to a
//! process or through a command such as `docker compose restart server`) and check what the
//! connections saw; after a restart it checks the server still has the game exactly as it was
//! seen; with several nodes it kills one mid-turn and plays on as the browser would.
//!
//! ```text
//! smoke play   --url http://127.0.0.1:PORT --state FILE [--new] [--turns N]
//!              [--metrics-out FILE] [--signal TERM|INT|KILL --pid PID]
//! smoke verify --url http://127.0.0.1:PORT --state FILE [--allow-unacked N]
//! smoke failover --url http://127.0.0.1:PORT --state FILE --kill-cmd CMD
//!              [--turns-before N] [--turns-after N] [--max-recovery-secs S]
//! ```
//!
//! The state file holds the game id, the seat tokens and every turn seen. It only talks to a
//! server on the loopback interface. Any mismatch is printed and exits non-zero.
//!
//! One file per concept: `http` (requests over a plain TCP stream), `ws` (one WebSocket
//! connection), `state` (the state file and choosing a turn), `seats` (every seat and a
//! spectator at the table, playing a turn), `checks` (a refused commit, /metrics), `signal`
//! (signalling the server mid-turn), `commands` (`play` and `verify`) and `failover` (a node
//! killed mid-turn).

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
mod failover;
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
    /// Kills a node of several mid-turn and plays on through the load balancer.
    Failover(FailoverArgs),
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
    /// After the turns, send one more and signal the server at once (with --pid or
    /// --signal-cmd).
    #[arg(long, value_parser = ["TERM", "INT", "KILL"])]
    pub(crate) signal: Option<String>,
    /// The server's process id, for --signal.
    #[arg(long, conflicts_with = "signal_cmd")]
    pub(crate) pid: Option<u32>,
    /// For --signal: a shell command that delivers it, run in the background, e.g.
    /// `docker compose restart server` (TERM) or `docker compose kill -s SIGKILL server` (KILL).
    #[arg(long)]
    pub(crate) signal_cmd: Option<String>,
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

#[derive(Args)]
pub(crate) struct FailoverArgs {
    /// The load balancer's base URL (http://127.0.0.1:PORT).
    #[arg(long)]
    pub(crate) url: String,
    /// The state file (of a game `play --new` created).
    #[arg(long)]
    pub(crate) state: PathBuf,
    /// Turns played before the kill.
    #[arg(long, default_value_t = 2)]
    pub(crate) turns_before: usize,
    /// The shell command that kills a node, run right after a move is sent (e.g.
    /// `docker compose kill -s SIGKILL node2`).
    #[arg(long)]
    pub(crate) kill_cmd: String,
    /// Turns played after the move in flight was acknowledged.
    #[arg(long, default_value_t = 3)]
    pub(crate) turns_after: usize,
    /// The longest the game may take to move on after the kill (the lease and a margin).
    #[arg(long, default_value_t = 30)]
    pub(crate) max_recovery_secs: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => commands::play(args).await,
        Command::Verify(args) => commands::verify(args).await,
        Command::Failover(args) => failover::failover(args).await,
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("smoke: FAIL: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
