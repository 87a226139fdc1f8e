//! Command-line parsing, exactly as NOTATION §5 states it: the subcommand first, then options
//! (`--opt VALUE` or `--opt=VALUE`, anywhere, every occurrence valid, the last one counts) and
//! positional arguments.

use std::fmt;

use djambi_core::{Position, Rules, parse_setup};

/// The usage text printed after a usage error.
pub const USAGE: &str =
    "usage: djambi <legal|play TOKEN...|perft DEPTH|status|show> [--position DPN] [--rules LIST]";

/// A subcommand of NOTATION §5.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Command {
    /// Print every legal turn.
    Legal,
    /// Play tokens and print the resulting DPN.
    Play,
    /// Count turn sequences.
    Perft,
    /// Print the outcome.
    Status,
    /// Draw the board for people.
    Show,
}

/// A parsed command line.
#[derive(Debug)]
pub struct Invocation {
    /// The subcommand.
    pub command: Command,
    /// The position (the 4-player start by default), under `rules`.
    pub position: Position,
    /// The positional arguments after the subcommand.
    pub args: Vec<String>,
}

/// A usage error (exit status 2).
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Invocation {
    /// Parses the arguments after the program name.
    pub fn parse(argv: &[String]) -> Result<Invocation, UsageError> {
        let err = |m: String| Err(UsageError(m));
        let Some(sub) = argv.first() else {
            return err("missing subcommand".into());
        };
        let command = match sub.as_str() {
            "legal" => Command::Legal,
            "play" => Command::Play,
            "perft" => Command::Perft,
            "status" => Command::Status,
            "show" => Command::Show,
            other => return err(format!("unknown subcommand {other:?}")),
        };
        let mut dpn: Option<String> = None;
        let mut rules = Rules::default();
        let mut args = Vec::new();
        let mut i = 1;
        while i < argv.len() {
            let arg = &argv[i];
            i += 1;
            let Some(opt) = arg.strip_prefix("--") else {
                args.push(arg.clone());
                continue;
            };
            let (name, value) = match opt.split_once('=') {
                Some((name, value)) => (name, value.to_string()),
                None => {
                    if !matches!(opt, "position" | "rules") {
                        return err(format!("unknown option --{opt}"));
                    }
                    let Some(value) = argv.get(i) else {
                        return err(format!("--{opt} needs a value"));
                    };
                    i += 1;
                    (opt, value.clone())
                }
            };
            match name {
                "position" => {
                    // Every occurrence must be valid, whatever the ruleset.
                    parse_setup(&value)
                        .and_then(|s| Position::from_setup(s, Rules::default()))
                        .map_err(|e| UsageError(format!("bad position: {e}")))?;
                    dpn = Some(value);
                }
                "rules" => {
                    rules = value
                        .parse()
                        .map_err(|e| UsageError(format!("bad --rules: {e}")))?;
                }
                _ => return err(format!("unknown option --{name}")),
            }
        }
        let position = match dpn {
            Some(dpn) => Position::from_dpn(&dpn, rules)
                .map_err(|e| UsageError(format!("bad position: {e}")))?,
            None => Position::start(rules),
        };
        Ok(Invocation {
            command,
            position,
            args,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Invocation, UsageError> {
        Invocation::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options_anywhere_last_wins() {
        let inv = parse(&[
            "play",
            "b7-b5",
            "--rules",
            "own_kills",
            "g7-g5",
            "--rules=turn_limit=3",
        ])
        .unwrap();
        assert_eq!(inv.command, Command::Play);
        assert_eq!(inv.args, ["b7-b5", "g7-g5"]);
        assert!(!inv.position.rules().own_kills);
        assert_eq!(inv.position.rules().turn_limit.map(|n| n.get()), Some(3));
    }

    #[test]
    fn usage_errors() {
        for bad in [
            &[][..],
            &["nope"],
            &["legal", "--depth", "3"],
            &["legal", "--position"],
            &["legal", "--rules=bogus"],
            &["legal", "--rules=own_kills", "--rules=bogus"],
            &[
                "legal",
                "--position=bad",
                "--position",
                djambi_core::START_DPN,
            ],
            &["legal", "--", "x"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
