//! `djambi-server circles recompute [--circle ID] [--repair]`: every circle's places and
//! standings computed again from scratch, from the games' event logs, and compared with what
//! is stored and served. Ratings are a pure function of the places in finishing order, so the
//! same places give the same standings; this checks both.

use std::collections::HashMap;

use uuid::Uuid;

use super::places::{GamePlaces, places};
use super::rating::rate;
use super::standings::{head_to_head, standings};
use super::{MemberRow, sql};
use crate::store::{Store, StoreError};

/// The places of a stored game, from its log (`None` while it is not finished).
pub async fn places_of(store: &Store, game: Uuid) -> Result<Option<GamePlaces>, StoreError> {
    let Some(stored) = store.load_game(game, 0).await? else {
        return Ok(None);
    };
    let start = stored
        .start()
        .map_err(|e| StoreError::Corrupt(format!("game {game}: {e}")))?;
    places(start, &stored.events).map_err(|e| StoreError::Corrupt(format!("game {game}: {e}")))
}

/// What a recomputation found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Circles checked.
    pub circles: usize,
    /// Finished games whose places were computed again.
    pub games: usize,
    /// Every difference, in words (none: everything stored and served is what the logs say).
    pub differences: Vec<String>,
    /// Finished games nobody read since they ended: their places are not stored yet (the next
    /// read computes them from the log, as this did), so they differ from nothing.
    pub pending: usize,
    /// Games whose stored places were written again (`--repair`).
    pub repaired: usize,
}

/// Recomputes `circle` (or every circle) from the logs; with `repair`, stores the recomputed
/// places where they differ (or were missing).
pub async fn recompute(
    store: &Store,
    circle: Option<Uuid>,
    repair: bool,
) -> Result<Report, StoreError> {
    let pool = store.pool();
    let ids = match circle {
        Some(id) => vec![id],
        None => sql::circle_ids(pool).await?,
    };
    let mut report = Report::default();
    for id in ids {
        if sql::circle(pool, id).await?.is_none() {
            report
                .differences
                .push(format!("circle {id}: no such circle"));
            continue;
        }
        report.circles += 1;
        let stored = sql::places(pool, id).await?;
        let by_game: HashMap<Uuid, &GamePlaces> = stored.iter().map(|p| (p.game, p)).collect();
        let mut fresh = Vec::new();
        // What a read serves: the stored places, and those it would compute first.
        let mut served = stored.clone();
        for game in sql::finished(pool, id).await? {
            report.games += 1;
            let Some(places) = places_of(store, game).await? else {
                report.differences.push(format!(
                    "circle {id}, game {game}: finished, but its log does not end"
                ));
                continue;
            };
            let differs = match by_game.get(&game) {
                None => {
                    report.pending += 1;
                    served.push(places.clone());
                    true
                }
                Some(old) if **old != places => {
                    report.differences.push(format!(
                        "circle {id}, game {game}: stored places {:?}, the log gives {:?}",
                        summary(old),
                        summary(&places)
                    ));
                    true
                }
                Some(_) => false,
            };
            if differs && repair {
                sql::replace_places(pool, id, &places).await?;
                report.repaired += 1;
            }
            fresh.push(places);
        }
        for old in &stored {
            if !fresh.iter().any(|p| p.game == old.game) {
                report.differences.push(format!(
                    "circle {id}, game {}: places stored for a game that is not a finished game of the circle",
                    old.game
                ));
            }
        }
        let members: Vec<MemberRow> = sql::members(pool, id)
            .await?
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        if standings(&members, &served, &rate(&served))
            != standings(&members, &fresh, &rate(&fresh))
        {
            report.differences.push(format!(
                "circle {id}: the standings served differ from those the logs give"
            ));
        }
        if head_to_head(&served) != head_to_head(&fresh) {
            report.differences.push(format!(
                "circle {id}: the head-to-head served differs from the one the logs give"
            ));
        }
    }
    Ok(report)
}

/// A game's places in a line: `r1 b4 y2 g3` (member seats marked `*`).
fn summary(p: &GamePlaces) -> String {
    p.seats
        .iter()
        .map(|s| {
            format!(
                "{}{}{}",
                s.seat,
                s.place,
                if s.member.is_some() { "*" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
