//! The node's lease in Postgres (`cluster_nodes`), renewed several times per lease, and the
//! node's own judgement of it: the lease counts as held only until a lease after the moment the
//! last successful renewal was *sent* — never later than the database's expiry, which counts
//! from when the renewal ran. When that moment passes without a renewal (the node is cut off
//! from the database, or was paused), the node stops every game it runs (see
//! [`Lease::losses`]) before any other node may take one, and comes back as a new incarnation,
//! with a new id, once it can renew again.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::ownership::Ownerships;
use crate::metrics::Metrics;

/// The share of the lease the node trusts: it stops acting this much before the database's
/// expiry at the latest, a margin for the two clocks' rates.
const TRUSTED_SHARE: f64 = 0.9;

/// The node's lease.
pub struct Lease {
    name: String,
    tag: u32,
    duration: Duration,
    state: Mutex<State>,
    /// Counts the losses: every change means "stop every game now".
    losses: watch::Sender<u64>,
    /// Tests: the node acts as if paused (a long GC or a stopped VM): it neither renews its
    /// lease nor notices that it ran out.
    frozen: AtomicBool,
}

struct State {
    incarnation: u64,
    id: Arc<str>,
    /// Until when the lease is held (none: not held).
    valid_until: Option<Instant>,
}

impl Lease {
    /// A lease for the node `name`, not yet held.
    pub fn new(name: String, tag: u32, duration: Duration) -> Lease {
        let id = incarnation_id(&name, tag, 1);
        Lease {
            name,
            tag,
            duration,
            state: Mutex::new(State {
                incarnation: 1,
                id,
                valid_until: None,
            }),
            losses: watch::Sender::new(0),
            frozen: AtomicBool::new(false),
        }
    }

    /// Tests only: freezes the lease's keeping (no renewal, and no noticing that it ran out),
    /// as a paused process would; the fencing tests show that its stale commits are refused.
    #[doc(hidden)]
    pub fn freeze(&self, frozen: bool) {
        self.frozen.store(frozen, Relaxed);
    }

    /// The node's id now (it changes after each loss of the lease).
    pub fn id(&self) -> Arc<str> {
        self.state.lock().expect("lease lock").id.clone()
    }

    /// Whether the lease is held now.
    pub fn is_valid(&self) -> bool {
        if self.frozen.load(Relaxed) {
            // A paused node believes what it last knew.
            return self.state.lock().expect("lease lock").valid_until.is_some();
        }
        self.state
            .lock()
            .expect("lease lock")
            .valid_until
            .is_some_and(|until| Instant::now() < until)
    }

    /// How long the lease lasts.
    pub fn duration(&self) -> Duration {
        self.duration
    }

    /// Changes each time the lease is lost: every game of the node must stop.
    pub fn losses(&self) -> watch::Receiver<u64> {
        self.losses.subscribe()
    }

    /// Renews the lease once; `true` if it is held now.
    pub async fn renew(&self, store: &Ownerships) -> bool {
        if self.frozen.load(Relaxed) {
            return false;
        }
        let (incarnation, id) = {
            let state = self.state.lock().expect("lease lock");
            (state.incarnation, state.id.clone())
        };
        let sent = Instant::now();
        let lease_ms = i64::try_from(self.duration.as_millis()).unwrap_or(i64::MAX);
        let renewed =
            tokio::time::timeout(self.duration / 2, store.renew_node(&id, self.tag, lease_ms))
                .await;
        match renewed {
            Ok(Ok(_)) => {
                let mut state = self.state.lock().expect("lease lock");
                if state.incarnation != incarnation {
                    // Lost meanwhile: this renewed a former incarnation, which is over.
                    return false;
                }
                if state.valid_until.is_none() {
                    tracing::info!(node = %id, "lease held");
                }
                state.valid_until = Some(sent + self.duration.mul_f64(TRUSTED_SHARE));
                true
            }
            Ok(Err(e)) => {
                tracing::warn!(node = %id, error = %e, "could not renew the lease");
                false
            }
            Err(_) => {
                tracing::warn!(node = %id, "renewing the lease took too long");
                false
            }
        }
    }

    /// If the lease has run out, gives it up: a new incarnation (id) for the next renewal, and
    /// every game is told to stop. Returns whether it did.
    fn expire_if_due(&self) -> bool {
        if self.frozen.load(Relaxed) {
            return false;
        }
        let mut state = self.state.lock().expect("lease lock");
        let Some(until) = state.valid_until else {
            return false;
        };
        if Instant::now() < until {
            return false;
        }
        tracing::error!(
            node = %state.id,
            "lease lost (the database could not be reached in time): stopping every game of this node"
        );
        state.valid_until = None;
        state.incarnation += 1;
        state.id = incarnation_id(&self.name, self.tag, state.incarnation);
        drop(state);
        self.losses.send_modify(|n| *n += 1);
        true
    }

    /// When the lease runs out if not renewed.
    fn valid_until(&self) -> Option<Instant> {
        self.state.lock().expect("lease lock").valid_until
    }

    /// Keeps the lease: renews it five times per lease, and gives it up the moment it runs out.
    pub async fn keep(self: Arc<Self>, store: Ownerships, metrics: Arc<Metrics>) {
        let every = (self.duration / 5).max(Duration::from_millis(100));
        let watch = {
            let lease = self.clone();
            let metrics = metrics.clone();
            tokio::spawn(async move {
                loop {
                    match lease.valid_until() {
                        Some(until) => tokio::time::sleep_until(until.into()).await,
                        None => tokio::time::sleep(Duration::from_millis(50)).await,
                    }
                    if lease.expire_if_due() {
                        metrics.cluster_lease_losses.inc();
                    }
                }
            })
        };
        let _stop_watch = AbortOnDrop(watch);
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            self.renew(&store).await;
        }
    }
}

/// Aborts a task when dropped.
pub(crate) struct AbortOnDrop(pub tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A node's id: its name (letters, digits, `-`, `_` and `.` only: the fence check of a commit
/// lists ids between commas and semicolons), its tag and its incarnation.
fn incarnation_id(name: &str, tag: u32, incarnation: u64) -> Arc<str> {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    Arc::from(format!("{name}-{tag:08x}-{incarnation}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_hold_no_separator() {
        let id = incarnation_id("my node,1;x", 0xab, 3);
        assert_eq!(&*id, "my_node_1_x-000000ab-3");
    }
}
