//! Computing one game's analysis: each turn that stands is judged by the engine's value model
//! (`djambi_engine::analysis::judge`) as a background job of the bot pool, one turn per job, so
//! a live game's bot or a person's hint waits for at most one turn's judgement (a few
//! milliseconds).

use std::sync::atomic::{AtomicU32, Ordering};

use djambi_core::GameEvent;
use djambi_engine::analysis::{Judgement, Model, accuracy, judge};

use crate::game::bots::{BotPool, Charge};
use crate::protocol::analysis::{AnalysisStatus, AnalysisView, Chances, TurnVerdict};
use crate::table::GameState;

/// What a turn's background job is expected to take.
const ESTIMATE: std::time::Duration = std::time::Duration::from_millis(20);

/// The analysis of `state` (a finished game), `done` counting the turns judged as they are,
/// each turn charged to `charge`; none if the bot pool stopped (the server is shutting down).
pub(super) async fn analyse(
    bots: &BotPool,
    state: &GameState,
    done: &AtomicU32,
    charge: Charge,
) -> Option<AnalysisView> {
    let positions = state.game.positions();
    // The turns that stand, each with its place among the game's events (resignations and
    // draws are events, not turns) and so the position before it.
    let places = state
        .game
        .events()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, GameEvent::Turn { .. }))
        .map(|(i, _)| i);
    let mut judged: Vec<(u64, Judgement)> = Vec::new();
    for (i, standing) in places.zip(state.turns()) {
        let pos = positions[i];
        let turn = standing.turn;
        // A judgement takes milliseconds: it runs to its end (a bot or a hint that wants the
        // thread waits for at most that long).
        let j = bots
            .background(charge, ESTIMATE, move |_, _| {
                judge(&Model::FITTED, &pos, &turn)
            })
            .await?;
        // Always some: a stored game replays, so its turns are legal where they stand.
        if let Some(j) = j {
            judged.push((standing.v, j));
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    let acc = accuracy(&judged.iter().map(|(_, j)| j.clone()).collect::<Vec<_>>());
    Some(AnalysisView {
        status: AnalysisStatus::Done,
        game: state.id,
        model: MODEL,
        start: Chances(Model::FITTED.chances(state.game.start())),
        chances: judged.iter().map(|(_, j)| Chances(j.chances)).collect(),
        turns: judged
            .into_iter()
            .map(|(v, j)| TurnVerdict {
                v,
                turn: j.number,
                player: j.player,
                played: j.played.to_string(),
                best: j.best.to_string(),
                before: j.before,
                after: j.after,
                kept: j.kept,
                label: j.label.name(),
                chief: j.chief_exposed,
            })
            .collect(),
        accuracy: acc.map(|a| a.map(|a| (a * 10.0).round() / 10.0)),
    })
}

/// The name of the value model behind an analysis (stored with it).
pub const MODEL: &str = "maxn1-softmax-1";
