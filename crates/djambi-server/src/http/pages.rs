//! A game's older events, for replays and turn lists: rebuilt from the stored log away from the
//! game's actor (a blocking thread, a few at a time), so reading history never delays a move.
//! The WebSocket only ever resends what its game holds in memory; this is the way to the rest.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::Semaphore;

use crate::protocol::EventView;
use crate::protocol::view::event_view;
use crate::store::StoredGame;

/// Most events one page holds.
pub const MAX_PAGE: u64 = 500;

/// One page of history.
#[derive(Serialize)]
pub struct EventPage {
    /// The game's version when the page was read.
    pub v: u64,
    /// The events after `since`, in order, each with its version.
    pub events: Vec<VersionedEvent>,
}

/// One event with its version, as the socket's `event` message carries it.
#[derive(Serialize)]
pub struct VersionedEvent {
    /// Its version.
    pub v: u64,
    /// The event.
    pub event: EventView,
}

/// Rebuilds history pages, at most `permits` at a time.
pub struct History {
    permits: Arc<Semaphore>,
}

impl History {
    /// A history reader running at most `permits` rebuilds at once.
    pub fn new(permits: usize) -> History {
        History {
            permits: Arc::new(Semaphore::new(permits.max(1))),
        }
    }

    /// The events of `stored` after `since` (at most `limit`), serialised; `None` if the stored
    /// log does not replay.
    pub async fn page(&self, stored: StoredGame, since: u64, limit: u64) -> Option<String> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || build(&stored, since, limit))
            .await
            .ok()
            .flatten()
    }
}

fn build(stored: &StoredGame, since: u64, limit: u64) -> Option<String> {
    let mut state = stored.start().ok()?;
    let last = since.saturating_add(limit.clamp(1, MAX_PAGE));
    let mut events = Vec::new();
    for row in &stored.events {
        if row.v > last {
            break;
        }
        if row.v != state.v + 1 {
            return None;
        }
        let applied = state.apply(&row.kind, row.at).ok()?;
        if row.v > since {
            let event = event_view(&state, &row.kind, applied);
            events.push(VersionedEvent { v: row.v, event });
        }
    }
    let page = EventPage {
        v: stored.row.summary.v,
        events,
    };
    Some(serde_json::to_string(&page).expect("events serialise"))
}
