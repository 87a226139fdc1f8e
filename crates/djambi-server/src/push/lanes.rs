//! Deliveries to push services, one lane per endpoint: an endpoint gets one push at a time
//! (the next waits in its lane, at most [`LANE_WAITING`] of them; older ones give way), so an
//! endpoint that accepts and never answers delays only its own messages, for the sender's
//! timeout each; one that fails or times out [`FAILURES_TO_DROP`] times in a row is deleted.
//! Every push waiting or in flight is counted against its game and against the address that
//! subscribed the endpoint (when this node saw the subscription): past [`PER_GAME`] or
//! [`PER_ADDRESS`], new ones are dropped (`limited`). At most `in_flight` pushes are sent at
//! once in all.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use djambi_core::Player;
use sqlx::AnyPool;
use tokio::sync::Semaphore;
use uuid::Uuid;

use super::send::{Outcome, Sender};
use super::subscriptions::{self, Subscription};
use crate::metrics::Metrics;
use crate::net::IpKey;

/// Pushes waiting in one endpoint's lane behind the one being sent.
pub const LANE_WAITING: usize = 2;
/// Failures or timeouts in a row after which an endpoint's subscription is deleted.
pub const FAILURES_TO_DROP: u32 = 3;
/// Pushes waiting or in flight for one game.
pub const PER_GAME: usize = 32;
/// Pushes waiting or in flight to the endpoints one address subscribed.
pub const PER_ADDRESS: usize = 16;

/// Whose subscription a push goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recipient {
    /// A seat of the delivery's game.
    Seat(Player),
    /// A circle's member (told of a new circle game).
    Member {
        /// The circle.
        circle: Uuid,
        /// The member.
        member: Uuid,
    },
}

/// One push to one subscription.
pub struct Delivery {
    /// The game.
    pub game: Uuid,
    /// Whose subscription it is.
    pub to: Recipient,
    /// The browser's subscription.
    pub sub: Subscription,
    /// The payload (JSON), before encryption.
    pub payload: String,
}

/// What is charged for a delivery.
struct Charged {
    delivery: Delivery,
    address: Option<IpKey>,
}

#[derive(Default)]
struct Lane {
    running: bool,
    waiting: VecDeque<Charged>,
    failures: u32,
}

#[derive(Default)]
struct State {
    lanes: HashMap<String, Lane>,
    per_game: HashMap<Uuid, usize>,
    per_address: HashMap<IpKey, usize>,
    /// Who subscribed each endpoint (seen by this node since it started).
    owners: HashMap<String, IpKey>,
}

impl State {
    fn release(&mut self, charged: &Charged) {
        decrement(&mut self.per_game, charged.delivery.game);
        if let Some(ip) = charged.address {
            decrement(&mut self.per_address, ip);
        }
    }
}

fn decrement<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K) {
    if let Some(n) = map.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            map.remove(&key);
        }
    }
}

/// The lanes, and what sends on them.
pub struct Lanes {
    state: Mutex<State>,
    sender: Sender,
    pool: AnyPool,
    metrics: Arc<Metrics>,
    in_flight: Arc<Semaphore>,
}

impl Lanes {
    /// Lanes sending with `sender`, at most `in_flight` pushes at once.
    pub fn new(sender: Sender, pool: AnyPool, metrics: Arc<Metrics>, in_flight: usize) -> Lanes {
        Lanes {
            state: Mutex::new(State::default()),
            sender,
            pool,
            metrics,
            in_flight: Arc::new(Semaphore::new(in_flight.max(1))),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("push lanes lock")
    }

    /// `ip` subscribed `endpoint`: pushes to it count against that address.
    pub fn subscribed_by(&self, endpoint: &str, ip: IpKey) {
        self.state().owners.insert(endpoint.to_string(), ip);
    }

    /// How many pushes wait or are in flight, in all.
    pub fn queued(&self) -> usize {
        self.state().per_game.values().sum()
    }

    /// Queues a delivery in its endpoint's lane (or drops it, past its game's or address's
    /// bound), and starts the lane if it is idle.
    pub fn queue(self: &Arc<Self>, delivery: Delivery) {
        let mut state = self.state();
        let address = state.owners.get(&delivery.sub.endpoint).copied();
        let game_full = state.per_game.get(&delivery.game).copied().unwrap_or(0) >= PER_GAME;
        let address_full = address
            .is_some_and(|ip| state.per_address.get(&ip).copied().unwrap_or(0) >= PER_ADDRESS);
        if game_full || address_full {
            drop(state);
            self.metrics.push("limited");
            tracing::debug!(game = %delivery.game, to = ?delivery.to, "push bound reached: dropped");
            return;
        }
        *state.per_game.entry(delivery.game).or_default() += 1;
        if let Some(ip) = address {
            *state.per_address.entry(ip).or_default() += 1;
        }
        let endpoint = delivery.sub.endpoint.clone();
        let charged = Charged { delivery, address };
        let lane = state.lanes.entry(endpoint.clone()).or_default();
        if lane.running {
            lane.waiting.push_back(charged);
            if lane.waiting.len() > LANE_WAITING
                && let Some(old) = lane.waiting.pop_front()
            {
                state.release(&old);
                drop(state);
                self.metrics.push("dropped");
            }
            return;
        }
        lane.running = true;
        drop(state);
        let lanes = self.clone();
        tokio::spawn(async move { lanes.run(endpoint, charged).await });
    }

    /// Sends the lane's pushes one after the other until it is empty.
    async fn run(self: Arc<Self>, endpoint: String, first: Charged) {
        let mut next = Some(first);
        while let Some(charged) = next.take() {
            let outcome = {
                let Ok(_permit) = self.in_flight.clone().acquire_owned().await else {
                    return;
                };
                let payload = charged.delivery.payload.as_bytes();
                self.sender.send(&charged.delivery.sub, payload).await
            };
            let drop_endpoint = self.account(&charged.delivery, outcome).await;
            let mut state = self.state();
            state.release(&charged);
            let lane = state.lanes.entry(endpoint.clone()).or_default();
            if drop_endpoint {
                let waiting: Vec<Charged> = lane.waiting.drain(..).collect();
                state.lanes.remove(&endpoint);
                state.owners.remove(&endpoint);
                for w in &waiting {
                    state.release(w);
                }
                return;
            }
            next = lane.waiting.pop_front();
            if next.is_none() {
                lane.running = false;
                if lane.failures == 0 {
                    state.lanes.remove(&endpoint);
                }
            }
        }
    }

    /// Counts one push's outcome; whether its endpoint is to be dropped (gone, refused, or
    /// failing again and again), in which case its subscription is deleted.
    async fn account(&self, delivery: &Delivery, outcome: Outcome) -> bool {
        let Delivery { game, to, sub, .. } = delivery;
        let (game, to) = (*game, *to);
        let failed = match outcome {
            Outcome::Delivered => {
                self.metrics.push("sent");
                if let Some(lane) = self.state().lanes.get_mut(&sub.endpoint) {
                    lane.failures = 0;
                }
                return false;
            }
            outcome @ (Outcome::Gone | Outcome::Refused(_)) => {
                self.metrics.push("gone");
                tracing::info!(%game, ?to, ?outcome, "push subscription gone: deleted");
                true
            }
            Outcome::Failed(why) => {
                self.metrics.push("failed");
                tracing::warn!(%game, ?to, error = %why, "push failed");
                let mut state = self.state();
                let lane = state.lanes.entry(sub.endpoint.clone()).or_default();
                lane.failures += 1;
                if lane.failures < FAILURES_TO_DROP {
                    return false;
                }
                tracing::info!(%game, ?to, failures = lane.failures, "push endpoint keeps failing: its subscription is deleted");
                true
            }
        };
        if !failed {
            return false;
        }
        let removed = match to {
            Recipient::Seat(seat) => {
                subscriptions::remove(&self.pool, game, seat, &sub.endpoint).await
            }
            Recipient::Member { member, .. } => {
                super::members::remove(&self.pool, member, &sub.endpoint).await
            }
        };
        if let Err(e) = removed {
            tracing::warn!(%game, ?to, error = %e, "could not delete a push subscription");
        }
        failed
    }
}
