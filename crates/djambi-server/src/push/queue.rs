//! The bounded queue between the actors and the push services. An actor's alert is put in the
//! queue without waiting (a full queue drops it, counted as `dropped`), so a push never delays a
//! commit; a worker takes the alerts in order, drops those past their seat's rate (`limited`),
//! and queues a push to each of the seat's subscriptions in that endpoint's lane ([`lanes`]):
//! a stalled endpoint delays only its own pushes.
//!
//! [`lanes`]: super::lanes

use std::sync::Arc;
use std::time::Duration;

use djambi_core::Player;
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use sqlx::AnyPool;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::lanes::{Delivery, Lanes, Recipient};
use super::subscriptions;
use super::texts::words;
use crate::game::{Alert, Alerts};
use crate::metrics::Metrics;

/// How often the seats' rate table forgets seats whose budget is full again.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The actors' end of the queue.
pub struct Queue {
    tx: mpsc::Sender<Alert>,
    metrics: Arc<Metrics>,
}

impl Alerts for Queue {
    fn alert(&self, alert: Alert) {
        match self.tx.try_send(alert) {
            Ok(()) => self.metrics.push("queued"),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.metrics.push("dropped");
                tracing::debug!(game = %alert.game, seat = %alert.seat, "push queue full: alert dropped");
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }
}

/// What the worker needs.
pub struct Worker {
    /// The database (the seats' subscriptions).
    pub pool: AnyPool,
    /// The endpoints' lanes, which send the pushes.
    pub lanes: Arc<Lanes>,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Each seat's rate.
    pub per_seat: DefaultKeyedRateLimiter<(Uuid, Player)>,
}

impl Worker {
    /// A seat budget of `quota`.
    pub fn seat_limiter(quota: governor::Quota) -> DefaultKeyedRateLimiter<(Uuid, Player)> {
        RateLimiter::keyed(quota)
    }
}

/// Starts the worker; the queue holds `capacity` alerts.
pub fn start(worker: Worker, capacity: usize) -> Queue {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let metrics = worker.metrics.clone();
    tokio::spawn(run(Arc::new(worker), rx));
    Queue { tx, metrics }
}

/// Takes alerts until every actor is gone: each seat's rate, then its subscriptions, each
/// push queued in its endpoint's lane (which never makes this loop wait).
async fn run(worker: Arc<Worker>, mut rx: mpsc::Receiver<Alert>) {
    let mut forget = tokio::time::interval(FORGET_EVERY);
    forget.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let alert = tokio::select! {
            alert = rx.recv() => match alert {
                Some(alert) => alert,
                None => break,
            },
            _ = forget.tick() => {
                worker.per_seat.retain_recent();
                continue;
            }
        };
        if worker
            .per_seat
            .check_key(&(alert.game, alert.seat))
            .is_err()
        {
            worker.metrics.push("limited");
            tracing::debug!(game = %alert.game, seat = %alert.seat, "seat past its push rate: alert dropped");
            continue;
        }
        fan_out(&worker, alert).await;
    }
}

/// Queues an alert for each subscription of its seat.
async fn fan_out(worker: &Worker, alert: Alert) {
    let Alert { game, seat, notice } = alert;
    let subs = match subscriptions::of_seat(&worker.pool, game, seat).await {
        Ok(subs) => subs,
        Err(e) => {
            tracing::warn!(%game, %seat, error = %e, "could not read the seat's push subscriptions");
            worker.metrics.push("failed");
            return;
        }
    };
    for sub in subs {
        let (title, body) = words(sub.lang, seat, &notice);
        // The payload carries no secret: the game's id (its page is public), the kind and words.
        let payload = serde_json::json!({
            "game": game,
            "kind": notice.kind(),
            "title": title,
            "body": body,
        })
        .to_string();
        worker.lanes.queue(Delivery {
            game,
            to: Recipient::Seat(seat),
            sub,
            payload,
        });
    }
}
