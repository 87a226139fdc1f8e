//! `djambi`: the command-line interface to `djambi-core` (NOTATION §5).
//!
//! ```text
//! djambi legal  [--position DPN] [--rules LIST]
//! djambi play   TOKEN... [--position DPN] [--rules LIST]
//! djambi perft  DEPTH [--position DPN] [--rules LIST]
//! djambi status [--position DPN] [--rules LIST]
//! djambi show   [--position DPN] [--rules LIST]
//! djambi bot    [--position DPN] [--rules LIST] [--level random|beginner|easy|medium|hard]
//!               [--movetime MS] [--seed N] [--nodes N] [--hash MB]
//! djambi analyse --record FILE [--movetime MS] [--json] [--seed N] [--nodes N] [--hash MB]
//! djambi puzzles [--count N] [--seed N] [--depth D] [--nodes N] [--out FILE]
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

mod analyse;
mod args;
mod commands;
mod exit;
mod puzzles;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    // `djambi --help`, `djambi help`, `djambi --version`: before any subcommand only (after
    // one, every `--option` is the subcommand's, as NOTATION §5 fixes them).
    match argv.first().map(String::as_str) {
        Some("--help" | "-h" | "help") => {
            let _ = writeln!(out, "{}", args::HELP);
            let _ = out.flush();
            return ExitCode::SUCCESS;
        }
        // No subcommand at all: someone trying the command out; the whole help, still exit 2
        // (NOTATION §5: a missing subcommand is a usage error).
        None => {
            eprintln!("{}", args::HELP);
            return ExitCode::from(exit::Exit::Usage as u8);
        }
        Some("--version" | "-V") => {
            let _ = writeln!(out, "djambi {}", env!("CARGO_PKG_VERSION"));
            let _ = out.flush();
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    let code = match args::Invocation::parse(&argv) {
        Ok(inv) => commands::run(&inv, &mut out, started),
        Err(e) => {
            eprintln!("djambi: {e}");
            eprintln!("{}", args::USAGE);
            exit::Exit::Usage
        }
    };
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    ExitCode::from(code as u8)
}
