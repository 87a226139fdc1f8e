//! Command-line parsing, exactly as NOTATION §5 states it: the subcommand first, then options
//! (`--opt VALUE` or `--opt=VALUE`, anywhere, every occurrence valid, the last one counts) and
//! positional arguments.

use std::fmt;

use djambi_core::{Position, Rules, parse_setup};
use djambi_engine::Level;

/// The usage text printed after a usage error.
pub const USAGE: &str = "usage: djambi <legal|play TOKEN...|perft DEPTH|status|show> [--position DPN] [--rules LIST]
       djambi bot [--position DPN] [--rules LIST] [--level random|beginner|easy|medium|hard] [--movetime MS] [--seed N] [--nodes N] [--hash MB]
       djambi analyse --record FILE [--movetime MS] [--json] [--seed N] [--nodes N] [--hash MB]
       djambi puzzles [--count N] [--seed N] [--depth D] [--nodes N] [--out FILE]";

/// What `djambi --help` (or `djambi help`) prints.
pub const HELP: &str = "djambi: the rules of Djambi (Machiavelli's chessboard) on the command line.
Positions are DPN and turns canonical turn text (docs/NOTATION.md); the rules are docs/RULES.md.

usage: djambi SUBCOMMAND [ARGS] [--position DPN] [--rules LIST] [OPTIONS]

subcommands:
  legal              every legal turn, one per line, sorted
  play TOKEN...      the DPN after playing the tokens: turns, resign:P, draw
  perft DEPTH        the number of turn sequences of DEPTH turns
  status             ongoing, winner P, or draw followed by the players sharing it
  show               the board drawn for people
  bot                one legal turn chosen by the engine:
                       --level random|beginner|easy|medium|hard (default hard)
                       --movetime MS (default 1000; the whole command answers within it)
                       --seed N (repeatable choices with a node budget)
                       --nodes N (a node budget), --hash MB (the table's size)
  analyse            each turn of a game record: the engine's choice, the mover's
                     chance of winning before and after, best/good/inaccuracy/
                     mistake/blunder; takes no --position or --rules:
                       --record FILE (the game record, JSON; required)
                       --movetime MS (per search, default 100; one or two a turn)
                       --json (one JSON object per turn)
                       --seed N, --nodes N (a node budget per search instead of
                       the move time: a repeatable analysis), --hash MB
  puzzles            puzzles from engine play, each with one answer the engine
                     verified as clearly best (JSON, docs/ENGINE.md 'Puzzles'); takes
                     no --position or --rules; progress on stderr:
                       --count N (default 120, at most 999), --seed N (default 1)
                       --depth D (the verification's plies, default 4, 1 to 6)
                       --nodes N (each verification's node budget, default 400000)
                       --out FILE (default: stdout)
  help               this text

options (every subcommand but analyse and puzzles):
  --position DPN     the position (default: the 4-player start)
  --rules LIST       comma-separated: own_kills, diplomat_to_maze=false, turn_limit=N

exit status: 0 done; 1 an illegal token (play), a finished game (bot) or fewer puzzles
than asked (puzzles: the file is still written); 2 bad input (a bad record included).
djambi --version prints the version.";

/// The engine's options, of `djambi bot` (NOTATION §5: level, move time, seed; and two extras,
/// a node budget for repeatable choices and the transposition table's size) and of
/// `djambi analyse` (all but the level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotOptions {
    /// `--level`, default `hard`.
    pub level: Level,
    /// `--movetime MS`, if given (`bot`: default 1000, the whole command answers within it;
    /// `analyse`: default 100, per search).
    pub movetime_ms: Option<u64>,
    /// `--seed N`, default 0.
    pub seed: u64,
    /// `--nodes N`: a node budget (the search also stops at the move time).
    pub nodes: Option<u64>,
    /// `--hash MB`: the transposition table's size (default: 16, less for short move times).
    pub hash_mb: Option<u64>,
}

impl Default for BotOptions {
    fn default() -> BotOptions {
        BotOptions {
            level: Level::Hard,
            movetime_ms: None,
            seed: 0,
            nodes: None,
            hash_mb: None,
        }
    }
}

/// `djambi puzzles`' own options (its seed and node budget are [`BotOptions`]').
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleOptions {
    /// `--count N`: the puzzles wanted, 1 to [`MAX_PUZZLES`].
    pub count: usize,
    /// `--depth D`: the verification depth, 1 to [`MAX_PUZZLE_DEPTH`].
    pub depth: u32,
    /// `--out FILE`: where the JSON goes (stdout without it).
    pub out: Option<String>,
}

/// The most puzzles one file holds (ids have three digits).
pub const MAX_PUZZLES: u64 = 999;

/// The deepest verification `--depth` accepts (deeper ones take minutes a position).
pub const MAX_PUZZLE_DEPTH: u64 = 6;

/// `djambi puzzles`' seed when `--seed` is not given.
pub const PUZZLE_SEED: u64 = 1;

impl Default for PuzzleOptions {
    fn default() -> PuzzleOptions {
        PuzzleOptions {
            count: 120,
            depth: djambi_engine::puzzle::DEFAULT_DEPTH,
            out: None,
        }
    }
}

/// The options that take a value, per subcommand.
fn takes_value(command: Command, opt: &str) -> bool {
    match command {
        Command::Puzzles => matches!(opt, "count" | "seed" | "depth" | "nodes" | "out"),
        Command::Analyse => matches!(opt, "record" | "movetime" | "seed" | "nodes" | "hash"),
        Command::Bot => matches!(
            opt,
            "position" | "rules" | "level" | "movetime" | "seed" | "nodes" | "hash"
        ),
        _ => matches!(opt, "position" | "rules"),
    }
}

/// The options that take no value (flags), per subcommand.
fn is_flag(command: Command, opt: &str) -> bool {
    command == Command::Analyse && opt == "json"
}

/// A whole number as NOTATION §2 writes them (digits only, no sign, no leading zero), here up
/// to 20 digits and within `u64`.
fn parse_u64(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty()
        || b.len() > 20
        || !b.iter().all(u8::is_ascii_digit)
        || (b[0] == b'0' && b.len() > 1)
    {
        return None;
    }
    s.parse().ok()
}

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
    /// Choose a turn with the engine.
    Bot,
    /// Analyse the turns of a game record.
    Analyse,
    /// Generate puzzles.
    Puzzles,
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
    /// The engine's options, of `bot` and `analyse` (defaults for the other subcommands).
    pub bot: BotOptions,
    /// `analyse --record FILE`: the game record's path.
    pub record: Option<String>,
    /// `analyse --json`: one JSON object per turn.
    pub json: bool,
    /// `puzzles`' options.
    pub puzzles: PuzzleOptions,
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
            "bot" => Command::Bot,
            "analyse" => Command::Analyse,
            "puzzles" => Command::Puzzles,
            other => return err(format!("unknown subcommand {other:?}")),
        };
        let mut dpn: Option<String> = None;
        let mut rules = Rules::default();
        let mut args = Vec::new();
        let mut bot = BotOptions::default();
        let mut record = None;
        let mut json = false;
        let mut puzzles = PuzzleOptions::default();
        if command == Command::Puzzles {
            bot.seed = PUZZLE_SEED;
        }
        let mut i = 1;
        while i < argv.len() {
            let arg = &argv[i];
            i += 1;
            let Some(opt) = arg.strip_prefix("--") else {
                args.push(arg.clone());
                continue;
            };
            let (name, value) = match opt.split_once('=') {
                Some((name, _)) if is_flag(command, name) => {
                    return err(format!("--{name} takes no value"));
                }
                Some((name, value)) => (name, value.to_string()),
                None if is_flag(command, opt) => {
                    json = true;
                    continue;
                }
                None => {
                    if !takes_value(command, opt) {
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
                _ if !takes_value(command, name) => {
                    return err(format!("unknown option --{name}"));
                }
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
                "level" => {
                    bot.level = value
                        .parse()
                        .map_err(|e| UsageError(format!("bad --level: {e}")))?;
                }
                "record" => record = Some(value),
                "out" => puzzles.out = Some(value),
                "count" | "depth" => {
                    let (max, what) = match name {
                        "count" => (MAX_PUZZLES, "1 to 999"),
                        _ => (MAX_PUZZLE_DEPTH, "1 to 6"),
                    };
                    match parse_u64(&value) {
                        Some(n) if (1..=max).contains(&n) => {
                            if name == "count" {
                                puzzles.count = n as usize;
                            } else {
                                puzzles.depth = n as u32;
                            }
                        }
                        _ => return err(format!("bad --{name}: {value:?} (expected {what})")),
                    }
                }
                "movetime" | "seed" | "nodes" | "hash" => {
                    let Some(n) = parse_u64(&value) else {
                        return err(format!("bad --{name}: {value:?} is not a whole number"));
                    };
                    match name {
                        "movetime" => bot.movetime_ms = Some(n),
                        "seed" => bot.seed = n,
                        "nodes" if n >= 1 => bot.nodes = Some(n),
                        "hash" if (1..=4096).contains(&n) => bot.hash_mb = Some(n),
                        _ => return err(format!("bad --{name}: {value:?} is out of range")),
                    }
                }
                _ => return err(format!("unknown option --{name}")),
            }
        }
        let position = match dpn {
            Some(dpn) => Position::from_dpn(&dpn, rules)
                .map_err(|e| UsageError(format!("bad position: {e}")))?,
            None => Position::start(rules),
        };
        if command == Command::Analyse && record.is_none() {
            return err("analyse needs --record FILE".into());
        }
        Ok(Invocation {
            command,
            position,
            args,
            bot,
            record,
            json,
            puzzles,
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
    fn bot_options() {
        let inv = parse(&[
            "bot",
            "--level=easy",
            "--movetime",
            "50",
            "--seed=18446744073709551615",
        ])
        .unwrap();
        assert_eq!(inv.command, Command::Bot);
        assert_eq!(inv.bot.level, Level::Easy);
        assert_eq!(inv.bot.movetime_ms, Some(50));
        assert_eq!(inv.bot.seed, u64::MAX);
        let inv = parse(&["bot", "--level", "random", "--level", "medium"]).unwrap();
        assert_eq!(inv.bot.level, Level::Medium);
        let inv = parse(&["bot", "--level", "beginner"]).unwrap();
        assert_eq!(inv.bot.level, Level::Beginner);
        assert_eq!(parse(&["bot"]).unwrap().bot, BotOptions::default());
    }

    #[test]
    fn analyse_options() {
        let inv = parse(&[
            "analyse",
            "--record",
            "a.json",
            "--json",
            "--movetime=20",
            "--record=b.json",
            "--nodes",
            "500",
            "--json",
        ])
        .unwrap();
        assert_eq!(inv.command, Command::Analyse);
        assert_eq!(inv.record.as_deref(), Some("b.json"));
        assert!(inv.json);
        assert_eq!(inv.bot.movetime_ms, Some(20));
        assert_eq!(inv.bot.nodes, Some(500));
        let inv = parse(&["analyse", "--record", "a.json"]).unwrap();
        assert!(!inv.json);
        assert_eq!(inv.bot.movetime_ms, None);
        for bad in [
            &["analyse"][..],
            &["analyse", "--json"],
            &["analyse", "--record"],
            &["analyse", "--record=a.json", "--json=true"],
            &["analyse", "--record=a.json", "--level", "easy"],
            &[
                "analyse",
                "--record=a.json",
                "--position",
                djambi_core::START_DPN,
            ],
            &["analyse", "--record=a.json", "--rules=own_kills"],
            &["analyse", "--record=a.json", "--movetime", "x"],
            &["analyse", "--record=a.json", "--depth", "3"],
            &["bot", "--json"],
            &["legal", "--record", "a.json"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn puzzles_options() {
        let inv = parse(&["puzzles"]).unwrap();
        assert_eq!(inv.command, Command::Puzzles);
        assert_eq!(inv.puzzles, PuzzleOptions::default());
        assert_eq!((inv.bot.seed, inv.bot.nodes), (PUZZLE_SEED, None));
        let inv = parse(&[
            "puzzles",
            "--count=7",
            "--depth",
            "2",
            "--seed",
            "9",
            "--out",
            "a.json",
            "--count",
            "999",
            "--nodes=5000",
        ])
        .unwrap();
        assert_eq!(inv.puzzles.count, 999);
        assert_eq!(inv.puzzles.depth, 2);
        assert_eq!(inv.puzzles.out.as_deref(), Some("a.json"));
        assert_eq!((inv.bot.seed, inv.bot.nodes), (9, Some(5000)));
        for bad in [
            &["puzzles", "--count", "0"][..],
            &["puzzles", "--count", "1000"],
            &["puzzles", "--count", "012"],
            &["puzzles", "--depth", "0"],
            &["puzzles", "--depth", "7"],
            &["puzzles", "--out"],
            &["puzzles", "--record", "a.json"],
            &["puzzles", "--hash", "4"],
            &["puzzles", "--movetime", "4"],
            &["bot", "--count", "3"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
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
            &["legal", "--level", "hard"],
            &["bot", "--level", "expert"],
            &["bot", "--level=hard", "--level=Hard"],
            &["bot", "--level", "Beginner"],
            &["bot", "--movetime", "-1"],
            &["bot", "--movetime", "01"],
            &["bot", "--movetime"],
            &["bot", "--seed", "x"],
            &["bot", "--seed", "99999999999999999999"],
            &["bot", "--nodes", "0"],
            &["bot", "--hash", "0"],
            &["bot", "--depth", "3"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
