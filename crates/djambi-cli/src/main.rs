//! `djambi`: the command-line interface to `djambi-core` (NOTATION §5).
//!
//! ```text
//! djambi legal  [--position DPN] [--rules LIST]
//! djambi play   TOKEN... [--position DPN] [--rules LIST]
//! djambi perft  DEPTH [--position DPN] [--rules LIST]
//! djambi status [--position DPN] [--rules LIST]
//! djambi show   [--position DPN] [--rules LIST]
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

mod args;
mod commands;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let code = match args::Invocation::parse(&argv) {
        Ok(inv) => commands::run(&inv, &mut out),
        Err(e) => {
            eprintln!("djambi: {e}");
            eprintln!("{}", args::USAGE);
            commands::Exit::Usage
        }
    };
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    ExitCode::from(code as u8)
}
