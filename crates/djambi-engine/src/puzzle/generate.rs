//! The generator: puzzles from engine play.
//!
//! 1. **Games.** Game `g` of seed `S` seats four levels drawn from `beginner`, `easy`, `medium`
//!    and `hard` (on a node budget drawn from 3 000, 10 000 and 30 000) with its own seeds, and
//!    plays from the start under the standard rules, at most [`GAME_TURNS`] turns. Everything is
//!    on node budgets: a seed gives the same games on every machine.
//! 2. **Candidates.** Each position of a game from turn [`MIN_TURN`] on, unless one of the same
//!    game was kept fewer than [`GAP`] turns before, the game already gave [`PER_GAME`]
//!    puzzles, or the same board with the same player to move was looked at before. A position
//!    is verified only if its legal turns could make a puzzle of a theme still wanted (a kill
//!    of a chief, an encirclement, the maze, a threatened chief, a kill).
//! 3. **Verification** ([`Verifier`]) at the settings' depth, stable one ply deeper, with the
//!    settings' margin and node budget; then the answer's [`Theme`] (none: not a puzzle; and
//!    not `win_material` for an answer that starts a forced win: its point is not the piece it
//!    takes), at most one puzzle per theme per game, and the difficulty ([`Signals`]).
//! 4. **Balance.** No theme takes more than [`MAX_THEME_SHARE`] of the puzzles, and while a
//!    theme is missing a slot is kept for it. Games are played until `count` puzzles are kept
//!    or `max_games` games are played.
//!
//! The puzzles come out sorted by difficulty (stable: in the order found within one
//! difficulty), so a player meets the easy ones first.

use std::collections::HashSet;

use djambi_core::{Effect, Position, Role, Turn, board_field};

use crate::engine::{Engine, EngineConfig};
use crate::eval::WIN_THRESHOLD;
use crate::level::Level;
use crate::puzzle::difficulty::Signals;
use crate::puzzle::file::Puzzle;
use crate::puzzle::theme::{Theme, classify, threats};
use crate::puzzle::verify::Verifier;
use crate::rng::{Rng, mix};
use crate::time::Limits;

/// The search depth of the verification when none is given, in plies.
pub const DEFAULT_DEPTH: u32 = 4;

/// The least lead of the answer over the second-best turn, in engine units (a share of the
/// game in 1/100 000): 1 500 is more than a Militant and about half an Assassin at the start
/// (docs/ENGINE.md's table of what costs what).
pub const MIN_MARGIN: i32 = 1_500;

/// The node budget of one verification when none is given.
pub const DEFAULT_NODES: u64 = 400_000;

/// The largest share of the puzzles one theme may take.
pub const MAX_THEME_SHARE: f64 = 0.4;

/// The first turn of a game looked at (the opening has no puzzles).
pub const MIN_TURN: u32 = 4;

/// The longest game played, in turns.
pub const GAME_TURNS: u32 = 200;

/// Turns after a kept position before another of the same game is looked at.
pub const GAP: u32 = 4;

/// The most puzzles one game gives.
pub const PER_GAME: usize = 3;

/// The levels the games' seats are drawn from.
const SEATS: [Level; 4] = [Level::Beginner, Level::Easy, Level::Medium, Level::Hard];

/// The node budgets a seat's search is drawn from.
const SEAT_NODES: [u64; 3] = [3_000, 10_000, 30_000];

/// What [`generate()`] is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The number of puzzles wanted.
    pub count: usize,
    /// The seed of the games.
    pub seed: u64,
    /// The verification depth, in plies (≥ 1).
    pub depth: u32,
    /// The least margin of an answer ([`MIN_MARGIN`]).
    pub min_margin: i32,
    /// The node budget of one verification ([`DEFAULT_NODES`]).
    pub nodes: u64,
    /// The most games played.
    pub max_games: u32,
}

impl Settings {
    /// `count` puzzles from `seed`, with the defaults: depth [`DEFAULT_DEPTH`], margin
    /// [`MIN_MARGIN`], budget [`DEFAULT_NODES`], at most 50 games per puzzle wanted.
    pub fn new(count: usize, seed: u64) -> Settings {
        Settings {
            count,
            seed,
            depth: DEFAULT_DEPTH,
            min_margin: MIN_MARGIN,
            nodes: DEFAULT_NODES,
            max_games: (count as u32).saturating_mul(50).max(50),
        }
    }
}

/// How far the generator is, reported after each game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games played.
    pub games: u32,
    /// Positions looked at.
    pub positions: u64,
    /// Positions verified.
    pub verified: u64,
    /// Puzzles kept per theme, in [`Theme::ALL`] order.
    pub themes: [usize; 6],
}

impl Progress {
    /// Puzzles kept.
    pub fn kept(&self) -> usize {
        self.themes.iter().sum()
    }
}

/// Generates puzzles as the module describes; `report` sees the progress after each game.
/// Fewer than `count` come back only when `max_games` games did not give them all.
pub fn generate(settings: &Settings, mut report: impl FnMut(&Progress)) -> Vec<Puzzle> {
    let cap = ((settings.count as f64 * MAX_THEME_SHARE).floor() as usize).max(1);
    let mut verifier = Verifier::new(settings.nodes);
    let mut seen = HashSet::new();
    let mut progress = Progress::default();
    let mut found: Vec<Puzzle> = Vec::new();
    while found.len() < settings.count && progress.games < settings.max_games {
        let game = play_game(mix(settings.seed ^ mix(u64::from(progress.games))));
        progress.games += 1;
        let mut last_kept: Option<u32> = None;
        let mut game_themes = Vec::new();
        for pos in &game {
            if found.len() >= settings.count || game_themes.len() >= PER_GAME {
                break;
            }
            if pos.turn() < MIN_TURN || last_kept.is_some_and(|t| pos.turn() < t + GAP) {
                continue;
            }
            progress.positions += 1;
            let wanted = wanted_themes(&progress.themes, settings.count, cap);
            let open = open_themes(pos);
            if !open
                .iter()
                .any(|t| wanted.contains(t) && !game_themes.contains(t))
            {
                continue;
            }
            if !seen.insert(format!("{} {:?}", board_field(pos.board()), pos.to_move())) {
                continue;
            }
            progress.verified += 1;
            let Ok(v) = verifier.verify(pos, settings.depth, settings.min_margin, true) else {
                continue;
            };
            let Some(theme) = classify(pos, &v.solution) else {
                continue;
            };
            // A forced win that the answer only starts is not about the material it takes:
            // the label would mislead.
            let misnamed = theme == Theme::WinMaterial && v.score >= WIN_THRESHOLD;
            if misnamed || !wanted.contains(&theme) || game_themes.contains(&theme) {
                continue;
            }
            let difficulty = Signals::read(pos, &v).difficulty();
            found.push(Puzzle {
                position: *pos,
                solution: v.solution,
                line: v.line,
                theme,
                difficulty,
                depth: v.depth,
                margin: v.margin,
            });
            progress.themes[theme.index()] += 1;
            game_themes.push(theme);
            last_kept = Some(pos.turn());
        }
        report(&progress);
    }
    found.sort_by_key(|p| p.difficulty);
    found
}

/// The themes a new puzzle may have: those below the cap, and while themes are missing and
/// only their reserved slots are left, only those.
fn wanted_themes(themes: &[usize; 6], count: usize, cap: usize) -> Vec<Theme> {
    let kept: usize = themes.iter().sum();
    let missing = themes.iter().filter(|&&n| n == 0).count();
    let free = count.saturating_sub(kept);
    Theme::ALL
        .into_iter()
        .filter(|t| {
            let n = themes[t.index()];
            n < cap && (n == 0 || free > missing)
        })
        .collect()
}

/// The themes `pos`'s legal turns could give a puzzle: quick facts of the rules, before any
/// search.
fn open_themes(pos: &Position) -> Vec<Theme> {
    let Some(me) = pos.to_move() else {
        return Vec::new();
    };
    let mut open = Vec::new();
    let mut add = |t: Theme| {
        if !open.contains(&t) {
            open.push(t);
        }
    };
    let threatened = threats(pos, me);
    if !threatened.players.is_empty() {
        add(Theme::SaveChief);
        if threatened.attackers >= 2 {
            add(Theme::EscapeTrap);
        }
    }
    let turns: Vec<Turn> = pos.legal_turns();
    if turns.len() < 2 {
        return Vec::new();
    }
    for t in &turns {
        let mut after = *pos;
        let Ok(effects) = after.play_with_effects(t) else {
            continue;
        };
        for e in &effects {
            match e {
                Effect::Encircled { player, .. } if *player != me => add(Theme::Encircle),
                Effect::Killed { piece, .. } if piece.role == Role::Chief => add(Theme::KillChief),
                Effect::Killed { .. } => add(Theme::WinMaterial),
                Effect::TookPower { player } if *player == me => add(Theme::TakeMaze),
                _ => {}
            }
        }
    }
    open
}

/// The positions of one game of seed `seed` (see the module), each before its turn.
fn play_game(seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let seats: Vec<(Level, u64, Engine)> = (0..4u64)
        .map(|i| {
            let level = SEATS[rng.below(SEATS.len())];
            let nodes = SEAT_NODES[rng.below(SEAT_NODES.len())];
            let engine = Engine::new(EngineConfig {
                tt_bytes: 4 << 20,
                seed: mix(seed.wrapping_add(i)),
            });
            (level, nodes, engine)
        })
        .collect();
    let mut seats = seats;
    let mut pos = Position::new();
    let mut out = Vec::new();
    while let Some(p) = pos.to_move() {
        if pos.turn() > GAME_TURNS {
            break;
        }
        out.push(pos);
        let (level, nodes, engine) = &mut seats[p.index()];
        let Ok(report) = engine.think(&pos, *level, &Limits::nodes(*nodes)) else {
            break;
        };
        pos.play_unchecked(&report.best);
    }
    out
}
