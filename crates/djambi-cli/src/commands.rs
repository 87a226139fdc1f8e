//! The subcommands (NOTATION §5); `analyse` and `puzzles` have their own files.

use std::io::Write;
use std::time::{Duration, Instant};

use djambi_engine::{Engine, EngineConfig, Limits, process_budget};

use djambi_core::{Army, Cell, Controller, Game, GameError, Position, Square, perft};

use crate::args::{BotOptions, Command, Invocation};
use crate::exit::Exit;

/// Runs a parsed invocation, writing its output to `out`; `started` is when the process
/// started (`bot` answers within its move time of it).
pub fn run(inv: &Invocation, out: &mut impl Write, started: Instant) -> Exit {
    let no_args = || {
        if let Some(extra) = inv.args.first() {
            eprintln!("djambi: unexpected argument {extra:?}");
            Err(Exit::Usage)
        } else {
            Ok(())
        }
    };
    let result = match inv.command {
        Command::Legal => no_args().map(|()| legal(&inv.position, out)),
        Command::Status => no_args().map(|()| {
            let _ = writeln!(out, "{}", inv.position.outcome());
        }),
        Command::Show => no_args().map(|()| show(&inv.position, out)),
        Command::Perft => perft_cmd(inv, out),
        Command::Play => play(inv, out),
        Command::Bot => no_args().and_then(|()| bot(inv, out, started)),
        Command::Analyse => no_args().and_then(|()| crate::analyse::analyse(inv, out)),
        Command::Puzzles => no_args().and_then(|()| crate::puzzles::puzzles(inv, out)),
    };
    result.map_or_else(|e| e, |()| Exit::Ok)
}

fn legal(pos: &Position, out: &mut impl Write) {
    let mut texts: Vec<String> = pos.legal_turns().iter().map(ToString::to_string).collect();
    texts.sort_unstable();
    for t in texts {
        let _ = writeln!(out, "{t}");
    }
}

/// `djambi bot`: one turn chosen by the engine, on stdout; what it thought, on stderr.
fn bot(inv: &Invocation, out: &mut impl Write, started: Instant) -> Result<(), Exit> {
    let pos = &inv.position;
    if pos.is_game_over() {
        eprintln!("djambi: the game is over");
        return Err(Exit::Illegal);
    }
    let o = inv.bot;
    let movetime_ms = o.movetime_ms.unwrap_or(BOT_MOVETIME_MS);
    let movetime = Duration::from_millis(movetime_ms);
    let mut engine = engine(&o, movetime_ms);
    let limits = Limits {
        movetime: Some(process_budget(movetime, started.elapsed())),
        nodes: o.nodes,
        stop: None,
    };
    let Ok(report) = engine.think(pos, o.level, &limits) else {
        return Err(Exit::Illegal);
    };
    let _ = writeln!(out, "{}", report.best);
    let pv: Vec<String> = report.pv.iter().map(ToString::to_string).collect();
    eprintln!(
        "info level {} depth {} nodes {} score {} time {} ms pv {}",
        o.level,
        report.depth,
        report.nodes,
        report.score,
        report.elapsed.as_millis(),
        pv.join(" ")
    );
    Ok(())
}

/// `djambi bot`'s move time when `--movetime` is not given.
const BOT_MOVETIME_MS: u64 = 1000;

/// An engine for `o`, with a table the search can fill in `movetime_ms`: short move times get a
/// small one (its pages are touched as they are used, but a small table is also faster to
/// walk); `--hash MB` overrides.
pub fn engine(o: &BotOptions, movetime_ms: u64) -> Engine {
    let hash_mb = o.hash_mb.unwrap_or(match movetime_ms {
        0..100 => 1,
        100..500 => 4,
        _ => 16,
    });
    Engine::new(EngineConfig {
        tt_bytes: (hash_mb as usize) << 20,
        seed: o.seed,
    })
}

fn perft_cmd(inv: &Invocation, out: &mut impl Write) -> Result<(), Exit> {
    let depth = match inv.args.as_slice() {
        [d] => parse_depth(d),
        _ => None,
    };
    let Some(depth) = depth else {
        eprintln!("djambi: perft needs one DEPTH, a whole number ≥ 0");
        return Err(Exit::Usage);
    };
    let _ = writeln!(out, "{}", perft(&inv.position, depth));
    Ok(())
}

/// A DEPTH as NOTATION §2 writes numbers: digits only, no leading zero, at most 9 digits.
fn parse_depth(s: &str) -> Option<u32> {
    let ok = !s.is_empty()
        && s.len() <= 9
        && s.bytes().all(|b| b.is_ascii_digit())
        && !(s.len() > 1 && s.starts_with('0'));
    if ok { s.parse().ok() } else { None }
}

fn play(inv: &Invocation, out: &mut impl Write) -> Result<(), Exit> {
    let mut game = Game::new(inv.position);
    for (i, token) in inv.args.iter().enumerate() {
        if let Err(reason) = play_token(&mut game, token) {
            eprintln!("illegal turn {} ({token}): {reason}", i + 1);
            return Err(Exit::Illegal);
        }
    }
    let _ = writeln!(out, "{}", game.position().to_dpn());
    Ok(())
}

/// Plays one token: a turn, `resign:P` or `draw`, in any letter case.
fn play_token(game: &mut Game, token: &str) -> Result<(), GameError> {
    let lower = token.to_ascii_lowercase();
    if lower == "draw" {
        return game.agree_draw();
    }
    if let Some(p) = lower.strip_prefix("resign:") {
        let mut chars = p.chars();
        return match (chars.next().and_then(Army::from_char), chars.next()) {
            (Some(player), None) => game.resign(player).map(drop),
            _ => Err(GameError::Illegal(djambi_core::IllegalTurn {
                kind: djambi_core::IllegalKind::Malformed,
                message: format!("resign: {p:?} is not a player (r, b, y or g)"),
            })),
        };
    }
    game.play_text(token).map(drop)
}

fn show(pos: &Position, out: &mut impl Write) {
    let mut s = String::new();
    for rank in (0..9u8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..9u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let cell: Cell = pos.board()[sq];
            let text = match cell.piece() {
                Some(p) => p.to_string(),
                None if cell.is_corpse() => "XX".to_string(),
                None if sq.is_maze() => "[]".to_string(),
                None => " .".to_string(),
            };
            s.push_str(&format!(" {text}"));
        }
        s.push('\n');
    }
    s.push_str("   ");
    for f in 'a'..='i' {
        s.push_str(&format!("  {f}"));
    }
    s.push('\n');
    let to_move = match pos.to_move() {
        Some(p) if pos.bonus() > 0 => format!("{} (bonus turn, {} left)", p.name(), pos.bonus()),
        Some(p) => p.name().to_string(),
        None => "nobody (game over)".to_string(),
    };
    s.push_str(&format!("to move: {to_move}\n"));
    s.push_str(&format!("status:  {}\n", pos.outcome()));
    s.push_str(&format!(
        "ruler:   {}\n",
        pos.ruler()
            .map_or("none".to_string(), |r| r.name().to_string())
    ));
    for army in Army::ALL {
        let who = match pos.control(army) {
            Controller::Player(p) => format!("controlled by {}", p.name()),
            Controller::Orphaned => "orphaned".to_string(),
            Controller::Hostage => "hostage".to_string(),
        };
        s.push_str(&format!("army {:<7} {who}\n", army.name()));
    }
    s.push_str(&format!(
        "turn {}, quiet {}, passed {}, last regular {}, rules [{}]\n",
        pos.turn(),
        pos.quiet(),
        pos.passed(),
        pos.last_regular().map_or('-', |p| p.char()),
        pos.rules()
    ));
    let _ = out.write_all(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths() {
        assert_eq!(parse_depth("0"), Some(0));
        assert_eq!(parse_depth("12"), Some(12));
        for bad in ["", "01", "-1", "+1", "1.0", "x", "1234567890"] {
            assert_eq!(parse_depth(bad), None, "{bad}");
        }
    }
}
