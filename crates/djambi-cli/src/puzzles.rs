//! `djambi puzzles [--count N] [--seed N] [--depth D] [--nodes N] [--out FILE]`: puzzles from
//! engine play (`djambi_engine::puzzle`), written as the puzzle file's JSON (`data/puzzles.json`
//! is made by this command), with progress on stderr.

use std::io::Write;

use djambi_engine::puzzle::{self, Progress, PuzzleFile, Settings, Theme};

use crate::args::Invocation;
use crate::exit::Exit;

/// Runs `djambi puzzles`: the file on `out` (or `--out FILE`); exit 1 (the file still written)
/// when fewer puzzles than asked were found or, with room for every theme (a count of at least
/// six), a theme is missing; 2 when the file cannot be written.
pub fn puzzles(inv: &Invocation, out: &mut impl Write) -> Result<(), Exit> {
    let o = &inv.puzzles;
    let mut settings = Settings::new(o.count, inv.bot.seed);
    settings.depth = o.depth;
    if let Some(n) = inv.bot.nodes {
        settings.nodes = n;
    }
    let found = puzzle::generate(&settings, |p| {
        eprintln!("djambi: {}", progress_line(p, o.count))
    });
    let file = PuzzleFile::new(&command(inv), &found);
    let mut json = serde_json::to_string_pretty(&file).expect("the puzzle file serializes");
    json.push('\n');
    let written = match &o.out {
        Some(path) => std::fs::write(path, &json).map_err(|e| format!("cannot write {path}: {e}")),
        None => out
            .write_all(json.as_bytes())
            .map_err(|e| format!("cannot write the puzzles: {e}")),
    };
    if let Err(message) = written {
        eprintln!("djambi: {message}");
        return Err(Exit::Usage);
    }
    let mut themes = [0usize; 6];
    for p in &found {
        themes[p.theme.index()] += 1;
    }
    let mut difficulties = [0usize; 5];
    for p in &found {
        difficulties[usize::from(p.difficulty.clamp(1, 5)) - 1] += 1;
    }
    eprintln!(
        "djambi: {} puzzles; difficulty 1-5: {difficulties:?}",
        found.len()
    );
    let missing: Vec<&str> = Theme::ALL
        .into_iter()
        .filter(|t| themes[t.index()] == 0)
        .map(Theme::name)
        .collect();
    // Every theme is asked for only where there is room for each.
    let all_themes = o.count >= Theme::ALL.len();
    if found.len() < o.count || (all_themes && !missing.is_empty()) {
        eprintln!(
            "djambi: asked for {} puzzles, found {} (themes missing: {})",
            o.count,
            found.len(),
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            }
        );
        return Err(Exit::Illegal);
    }
    Ok(())
}

/// The command that makes the same file again: every setting that shapes it, written out.
fn command(inv: &Invocation) -> String {
    let o = &inv.puzzles;
    let mut c = format!(
        "djambi puzzles --count {} --seed {} --depth {}",
        o.count, inv.bot.seed, o.depth
    );
    if let Some(n) = inv.bot.nodes {
        c.push_str(&format!(" --nodes {n}"));
    }
    if let Some(path) = &o.out {
        c.push_str(&format!(" --out {path}"));
    }
    c
}

/// One line of progress: games, positions, verifications, and the puzzles kept per theme.
fn progress_line(p: &Progress, count: usize) -> String {
    let themes: Vec<String> = Theme::ALL
        .into_iter()
        .map(|t| format!("{} {}", t.name(), p.themes[t.index()]))
        .collect();
    format!(
        "game {}: {} positions, {} verified, {}/{count} kept ({})",
        p.games,
        p.positions,
        p.verified,
        p.kept(),
        themes.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Invocation;

    fn inv(args: &[&str]) -> Invocation {
        Invocation::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn the_command_writes_every_setting() {
        assert_eq!(
            command(&inv(&["puzzles"])),
            "djambi puzzles --count 120 --seed 1 --depth 4"
        );
        assert_eq!(
            command(&inv(&[
                "puzzles",
                "--out=data/puzzles.json",
                "--seed",
                "7",
                "--count=5",
                "--nodes",
                "9000",
                "--depth=2"
            ])),
            "djambi puzzles --count 5 --seed 7 --depth 2 --nodes 9000 --out data/puzzles.json"
        );
    }

    #[test]
    fn progress_names_every_theme() {
        let mut p = Progress {
            games: 3,
            positions: 40,
            verified: 12,
            ..Progress::default()
        };
        p.themes[Theme::KillChief.index()] = 2;
        let line = progress_line(&p, 10);
        assert!(
            line.starts_with("game 3: 40 positions, 12 verified, 2/10 kept ("),
            "{line}"
        );
        assert!(
            line.contains("kill_chief 2") && line.contains("encircle 0"),
            "{line}"
        );
    }
}
