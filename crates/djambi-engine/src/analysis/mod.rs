//! Post-game analysis: for each turn of a game, every player's chance of winning after it, the
//! engine's own choice, what it would have kept, and a verdict ([`Label`]) — judged by a value
//! model fitted to the outcomes of games the engine did not play ([`model`]; docs/ENGINE.md
//! "Analysis" gives the fit and the figures; the lab's `calibrate` example reproduces them).
//!
//! For a turn `played` by `mover` in position `pos` ([`judge`]):
//!
//! 1. every turn the mover could play is valued by the chances of the position it leaves
//!    ([`Model::chances`]: the board's chances after the next player's best answer by them);
//!    `best` is the one that keeps the mover the most (`kept`), `after` is what `played` keeps,
//!    and the chances after `played` are every player's (they add up to 1);
//! 2. `before` is the mover's chance in `pos` itself, the same number the turn before left
//!    it: one truth per position;
//! 3. the label: `blunder` if the chief rule says so ([`chief_blunder`]); otherwise `best` if
//!    `played` is `best`; otherwise [`Label::from_drop`] of the mover's expected loss,
//!    `kept − after`;
//! 4. each player's [`accuracy`] over its turns, from the loss of each (lichess's curve).
//!
//! Nothing is searched beyond the model's ply: an analysis depends only on the game, and costs
//! about a second per hundred turns on one core.

mod chief;
mod judge;
mod label;
pub mod model;

pub use chief::{chief_blunder, exposes_chief};
pub use judge::{Judgement, accuracy, judge, turn_accuracy};
pub use label::{BEST_DROP, GOOD_DROP, INACCURACY_DROP, Label, MISTAKE_DROP, ParseLabelError};
pub use model::Model;

use djambi_core::{Game, GameEvent};

/// Judges every turn of `game` in order (resignations and draws are not turns and are skipped)
/// by `model`; `each` sees each turn's judgement as soon as it is made (to print or report
/// progress). Returns them all.
pub fn analyse_game_with(
    model: &Model,
    game: &Game,
    mut each: impl FnMut(&Judgement),
) -> Vec<Judgement> {
    let mut out = Vec::new();
    for (pos, event) in game.positions().iter().zip(game.events()) {
        let GameEvent::Turn { turn, .. } = event else {
            continue;
        };
        if let Some(j) = judge(model, pos, turn) {
            each(&j);
            out.push(j);
        }
    }
    out
}

/// Judges every turn of `game` (see [`analyse_game_with`]).
pub fn analyse_game(model: &Model, game: &Game) -> Vec<Judgement> {
    analyse_game_with(model, game, |_| {})
}
