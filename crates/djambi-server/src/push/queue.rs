//! The bounded queue between the actors and the push services. An actor's alert is put in the
//! queue without waiting (a full queue drops it, counted as `dropped`), so a push never delays a
//! commit; a worker takes the alerts in order, drops those past their seat's rate (`limited`),
//! and sends each to the seat's subscriptions, a few sends at once.

use std::sync::Arc;
use std::time::Duration;

use djambi_core::Player;
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use sqlx::AnyPool;
use tokio::sync::{Semaphore, mpsc};
use uuid::Uuid;

use super::send::{Outcome, Sender};
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
    /// Sends the pushes.
    pub sender: Sender,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Each seat's rate.
    pub per_seat: DefaultKeyedRateLimiter<(Uuid, Player)>,
    /// Pushes sent at once.
    pub senders: usize,
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

/// Takes alerts until every actor is gone.
async fn run(worker: Arc<Worker>, mut rx: mpsc::Receiver<Alert>) {
    let permits = Arc::new(Semaphore::new(worker.senders.max(1)));
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
        // Waiting for a free sender leaves the alerts in the queue, which is what bounds them.
        let Ok(permit) = permits.clone().acquire_owned().await else {
            break;
        };
        let worker = worker.clone();
        tokio::spawn(async move {
            deliver(&worker, alert).await;
            drop(permit);
        });
    }
}

/// Sends an alert to each subscription of its seat.
async fn deliver(worker: &Worker, alert: Alert) {
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
        });
        let payload = payload.to_string();
        match worker.sender.send(&sub, payload.as_bytes()).await {
            Outcome::Delivered => worker.metrics.push("sent"),
            outcome @ (Outcome::Gone | Outcome::Refused(_)) => {
                worker.metrics.push("gone");
                tracing::info!(%game, %seat, ?outcome, "push subscription gone: deleted");
                if let Err(e) = subscriptions::remove(&worker.pool, game, seat, &sub.endpoint).await
                {
                    tracing::warn!(%game, %seat, error = %e, "could not delete a push subscription");
                }
            }
            Outcome::Failed(why) => {
                worker.metrics.push("failed");
                tracing::warn!(%game, %seat, error = %why, "push failed");
            }
        }
    }
}
