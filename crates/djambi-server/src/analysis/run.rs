//! Computing one game's analysis: each turn that stands is judged by the engine
//! (`djambi_engine::analyse_turn`) as a background job of the bot pool, one turn per job, so a
//! live game's bot or a person's hint waits for at most one poll of the search's stop flag. A
//! turn whose search was stopped for them is asked again.

use std::sync::atomic::{AtomicU32, Ordering};

use djambi_core::{GameEvent, Position, Turn};
use djambi_engine::analysis::{searched_chances, static_chances};
use djambi_engine::{Limits, analyse_turn};

use super::AnalysisSettings;
use crate::game::bots::{BotPool, Charge};
use crate::protocol::analysis::{AnalysisStatus, AnalysisView, Chances, TurnVerdict};
use crate::table::GameState;

/// The engine's seed for analyses: the same game at the same effort gets the same analysis
/// while the machine is not rushed.
const SEED: u64 = 0xa4a1_7515;

/// One turn judged: its verdict and every player's chance after it.
struct Judged {
    verdict: TurnVerdict,
    chances: Chances,
}

/// What a background job of the pool answers: the turn judged, or stopped before the end
/// (an urgent job wanted the thread).
enum Outcome {
    Judged(Box<Judged>),
    Stopped,
}

/// The analysis of `state` (a finished game) with `settings`' effort per search, `done`
/// counting the turns judged as they are; none if the bot pool stopped (the server is shutting
/// down).
pub(super) async fn analyse(
    bots: &BotPool,
    state: &GameState,
    settings: &AnalysisSettings,
    done: &AtomicU32,
    charge: Charge,
) -> Option<AnalysisView> {
    let (movetime, nodes) = match settings.nodes {
        Some(n) => (None, Some(n)),
        None => (Some(settings.movetime), None),
    };
    // A turn is judged by two searches and one per other living player: about three.
    let estimate = settings.movetime * 3;
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
    let mut turns = Vec::new();
    let mut chances = Vec::new();
    for (i, standing) in places.zip(state.turns()) {
        let pos = positions[i];
        let judged = loop {
            let turn = standing.turn;
            let v = standing.v;
            let outcome = bots
                .background(charge, estimate, move |engine, stop| {
                    engine.set_seed(SEED);
                    let limits = Limits {
                        movetime,
                        nodes,
                        stop: Some(stop.clone()),
                    };
                    let judged = judge(engine, &pos, &turn, v, &limits);
                    if stop.load(Ordering::Relaxed) {
                        Outcome::Stopped
                    } else {
                        judged.map_or(Outcome::Stopped, |j| Outcome::Judged(Box::new(j)))
                    }
                })
                .await?;
            match outcome {
                Outcome::Judged(judged) => break judged,
                // Asked again: it waits in the queue behind whatever stopped it.
                Outcome::Stopped => continue,
            }
        };
        turns.push(judged.verdict);
        chances.push(judged.chances);
        done.fetch_add(1, Ordering::Relaxed);
    }
    Some(AnalysisView {
        status: AnalysisStatus::Done,
        game: state.id,
        movetime_ms: movetime.map_or(0, |m| u64::try_from(m.as_millis()).unwrap_or(u64::MAX)),
        nodes,
        start: Chances(static_chances(state.game.start())),
        turns,
        chances,
    })
}

/// Judges `turn` in `pos`; none if it is not a legal turn there (a stored game always replays,
/// so never).
fn judge(
    engine: &mut djambi_engine::Engine,
    pos: &Position,
    turn: &Turn,
    v: u64,
    limits: &Limits,
) -> Option<Judged> {
    let a = analyse_turn(engine, pos, turn, limits)?;
    let mut after = *pos;
    after.play_unchecked(turn);
    Some(Judged {
        chances: Chances(searched_chances(engine, &after, a.player, a.after, limits)),
        verdict: TurnVerdict {
            v,
            turn: a.number,
            player: a.player,
            played: a.played.to_string(),
            best: a.best.to_string(),
            before: a.before,
            after: a.after,
            label: a.label.name(),
            chief: a.chief_exposed,
        },
    })
}
