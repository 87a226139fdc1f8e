//! Post-game analysis: for each turn of a game, the engine's own choice, the mover's chance of
//! winning before and after the turn played, and a verdict ([`Label`]).
//!
//! For a turn `played` by `mover` in position `pos`, with the same [`Limits`] for every search
//! (so the same effort for every value compared):
//!
//! 1. `best` is the engine's choice in `pos` ([`Engine::think`] at [`Level::Hard`]), and
//!    `before` the mover's chance of winning from that search's score: the position's worth
//!    with the engine's play;
//! 2. `after` is the mover's chance in the position after `played`, from the Paranoid search of
//!    that position from the mover's point of view ([`Engine::value`]); when `played` is `best`,
//!    that search was just made (the root's score is the value of its best turn), and `after`
//!    is `before`;
//! 3. the label: `blunder` if the chief rule says so ([`chief_blunder`]); otherwise `best` if
//!    `played` is `best`; otherwise [`Label::from_drop`] of `before − after`.
//!
//! The root's score and a search of the position after the engine's turn agree: on the 40
//! positions of a bot game at 100 ms each, 38 were equal and the others within 0.0002 of the
//! game. A turn whose mover had no choice is valued by one search of the position after it,
//! like the others (the root search has nothing to search then). Chances come from scores
//! through [`chance()`]. Everything is synchronous and depends only on the game, the engine's
//! seed and the limits: with a node budget an analysis is repeatable. A turn costs one search,
//! or two when `played` is not the engine's choice.

mod chance;
mod chief;
mod label;

pub use chance::{SHARPNESS, chance, chance_from_share, searched_chances, static_chances};
pub use chief::{chief_blunder, exposes_chief};
pub use label::{BEST_DROP, GOOD_DROP, INACCURACY_DROP, Label, MISTAKE_DROP, ParseLabelError};

use djambi_core::{Game, GameEvent, Player, Position, Turn};

use crate::engine::Engine;
use crate::level::Level;
use crate::time::Limits;

/// What the analysis says of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    /// The turn's number (the record's; DPN field 8 before it).
    pub number: u32,
    /// Who played it.
    pub player: Player,
    /// The turn played.
    pub played: Turn,
    /// The engine's choice in the same position.
    pub best: Turn,
    /// The mover's chance of winning with the engine's choice, 0 to 1.
    pub before: f64,
    /// The mover's chance of winning after the turn played, 0 to 1.
    pub after: f64,
    /// The verdict.
    pub label: Label,
    /// The turn let the mover's chief be killed on the next turn while another turn would not
    /// have (the chief rule): the label is then `blunder`.
    pub chief_exposed: bool,
}

impl TurnAnalysis {
    /// The drop in the mover's chance of winning, `before − after` (negative when the turn
    /// played evaluates better than the engine's own).
    pub fn drop(&self) -> f64 {
        self.before - self.after
    }
}

/// Analyses the turn `played` in `pos` (see the module's description), every search within
/// `limits`. `None` when the game is over in `pos` or `played` is not legal there.
pub fn analyse_turn(
    engine: &mut Engine,
    pos: &Position,
    played: &Turn,
    limits: &Limits,
) -> Option<TurnAnalysis> {
    let mover = pos.to_move()?;
    if !pos.is_legal(played) {
        return None;
    }
    let report = engine.think(pos, Level::Hard, limits).ok()?;
    let best = report.best;
    let value_after = |engine: &mut Engine, t: &Turn| {
        let mut child = *pos;
        child.play_unchecked(t);
        let score = engine.value(&child, mover, limits);
        chance(&child, mover, score)
    };
    let forced = pos.legal_turns().len() == 1;
    let (before, after) = if forced {
        let v = value_after(engine, played);
        (v, v)
    } else {
        let mut child = *pos;
        child.play_unchecked(&best);
        let before = chance(&child, mover, report.score);
        let after = if best == *played {
            before
        } else {
            value_after(engine, played)
        };
        (before, after)
    };
    let chief_exposed = chief_blunder(pos, played, Some(&best));
    let label = if chief_exposed {
        Label::Blunder
    } else if best == *played {
        Label::Best
    } else {
        Label::from_drop(before - after)
    };
    Some(TurnAnalysis {
        number: pos.turn(),
        player: mover,
        played: *played,
        best,
        before,
        after,
        label,
        chief_exposed,
    })
}

/// Analyses every turn of `game` in order (resignations and draws are not turns and are
/// skipped), every search within `limits`; `each` sees each turn's analysis as soon as it is
/// made (to print or report progress). Returns them all.
pub fn analyse_game_with(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    mut each: impl FnMut(&TurnAnalysis),
) -> Vec<TurnAnalysis> {
    let mut out = Vec::new();
    for (pos, event) in game.positions().iter().zip(game.events()) {
        let GameEvent::Turn { turn, .. } = event else {
            continue;
        };
        if let Some(a) = analyse_turn(engine, pos, turn, limits) {
            each(&a);
            out.push(a);
        }
    }
    out
}

/// Analyses every turn of `game` (see [`analyse_game_with`]).
pub fn analyse_game(engine: &mut Engine, game: &Game, limits: &Limits) -> Vec<TurnAnalysis> {
    analyse_game_with(engine, game, limits, |_| {})
}
