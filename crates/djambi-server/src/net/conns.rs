//! Connection slots: a cap on open connections in all and per client address, so a stranger
//! cannot take every connection the server has (or every one its address may have).
//!
//! Every accepted TCP connection holds a [`ConnSlot`] until it closes; a WebSocket takes its
//! connection's slot with it. When a cap is reached, the oldest connection that is doing nothing
//! useful — it has not finished sending a request, it waits idle between requests, or it is a
//! WebSocket that has not said `hello` — is closed to make room; only when every connection is
//! busy is the new one refused. So a thousand half-open "slowloris" connections cannot lock out
//! the next real request, even one from the same address.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::client_ip::IpKey;
use crate::metrics::Metrics;

/// The connection caps.
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// Open connections in all.
    pub max_total: usize,
    /// Open connections from one address (IPv4) or /64 (IPv6). Connections from a trusted
    /// proxy are not counted per address (the proxy carries many clients).
    pub max_per_ip: usize,
}

/// What a connection is doing, for choosing whom to close when a cap is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ConnState {
    /// Accepted; no request answered yet.
    Fresh = 0,
    /// Answered at least one request; waiting for the next.
    Idle = 1,
    /// Upgraded to a WebSocket that has not said `hello` yet.
    SocketPending = 2,
    /// A WebSocket that joined a game.
    Socket = 3,
}

/// One open connection's place under the caps; released when dropped.
pub struct ConnSlot {
    id: u64,
    /// The address key it is counted under, or none (a trusted proxy's connection).
    key: Option<IpKey>,
    /// The peer address.
    peer: IpAddr,
    accepted: Instant,
    state: AtomicU8,
    in_flight: AtomicU32,
    /// Whether it still counts under the caps (eviction stops the count at once).
    counted: AtomicBool,
    kill: CancellationToken,
    tracker: Arc<ConnTracker>,
}

impl ConnSlot {
    /// The peer's address.
    pub fn peer(&self) -> IpAddr {
        self.peer
    }

    /// Cancelled when the server closes this connection to make room for another.
    pub fn killed(&self) -> &CancellationToken {
        &self.kill
    }

    /// Marks what the connection is doing now.
    pub fn set_state(&self, state: ConnState) {
        self.state.store(state as u8, Relaxed);
    }

    /// A request is being served until the guard drops.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Relaxed);
        Busy(self.clone())
    }

    fn evictable(&self) -> bool {
        self.in_flight.load(Relaxed) == 0
            && self.state.load(Relaxed) != ConnState::Socket as u8
            && self.counted.load(Relaxed)
    }
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        self.tracker.release(self.id, self.key, &self.counted);
    }
}

/// A request in progress on a connection.
pub struct Busy(Arc<ConnSlot>);

impl Drop for Busy {
    fn drop(&mut self) {
        let slot = &self.0;
        if slot.in_flight.fetch_sub(1, Relaxed) == 1 && slot.state.load(Relaxed) == 0 {
            slot.set_state(ConnState::Idle);
        }
    }
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server has as many connections as allowed, all busy.
    Total,
    /// This address has as many connections as allowed, all busy.
    PerIp,
}

#[derive(Default)]
struct Inner {
    total: usize,
    /// The counted connections of each address, oldest first (ids grow with arrival).
    by_ip: HashMap<IpKey, BTreeMap<u64, Weak<ConnSlot>>>,
    /// Every counted connection, oldest first.
    all: BTreeMap<u64, Weak<ConnSlot>>,
}

/// Counts open connections and applies the caps.
pub struct ConnTracker {
    limits: ConnLimits,
    inner: Mutex<Inner>,
    next_id: AtomicU64,
    metrics: Arc<Metrics>,
}

impl ConnTracker {
    /// A tracker with these caps.
    pub fn new(limits: ConnLimits, metrics: Arc<Metrics>) -> Arc<ConnTracker> {
        Arc::new(ConnTracker {
            limits,
            inner: Mutex::new(Inner::default()),
            next_id: AtomicU64::new(1),
            metrics,
        })
    }

    /// Takes a slot for a new connection from `peer` (`per_ip: false` for a trusted proxy),
    /// closing the oldest idle connection if a cap is reached, or refuses it.
    pub fn admit(self: &Arc<Self>, peer: IpAddr, per_ip: bool) -> Result<Arc<ConnSlot>, Refusal> {
        let key = per_ip.then(|| IpKey::of(peer));
        let mut evicted = Vec::new();
        let slot = {
            let mut inner = self.inner.lock().expect("connection tracker lock");
            if inner.total >= self.limits.max_total.max(1) {
                let victim = inner
                    .all
                    .values()
                    .filter_map(Weak::upgrade)
                    .find(|s| s.evictable());
                match victim {
                    Some(v) => {
                        self.uncount(&mut inner, &v);
                        evicted.push(v);
                    }
                    None => {
                        self.metrics.connections_refused.inc();
                        return Err(Refusal::Total);
                    }
                }
            }
            if let Some(key) = key {
                let list = inner.by_ip.entry(key).or_default();
                if list.len() >= self.limits.max_per_ip.max(1) {
                    let victim = list
                        .values()
                        .filter_map(Weak::upgrade)
                        .find(|s| s.evictable());
                    match victim {
                        Some(v) => {
                            self.uncount(&mut inner, &v);
                            evicted.push(v);
                        }
                        None => {
                            self.metrics.connections_refused.inc();
                            return Err(Refusal::PerIp);
                        }
                    }
                }
            }
            let slot = Arc::new(ConnSlot {
                id: self.next_id.fetch_add(1, Relaxed),
                key,
                peer,
                accepted: Instant::now(),
                state: AtomicU8::new(ConnState::Fresh as u8),
                in_flight: AtomicU32::new(0),
                counted: AtomicBool::new(true),
                kill: CancellationToken::new(),
                tracker: self.clone(),
            });
            inner.total += 1;
            inner.all.insert(slot.id, Arc::downgrade(&slot));
            if let Some(key) = key {
                inner
                    .by_ip
                    .entry(key)
                    .or_default()
                    .insert(slot.id, Arc::downgrade(&slot));
            }
            slot
        };
        self.metrics.connections_open.inc();
        for victim in evicted {
            tracing::debug!(peer = %victim.peer, age_ms = victim.accepted.elapsed().as_millis() as u64, "closing an idle connection to make room");
            self.metrics.connections_evicted.inc();
            victim.kill.cancel();
        }
        Ok(slot)
    }

    /// Stops counting `slot` (it is being closed).
    fn uncount(&self, inner: &mut Inner, slot: &ConnSlot) {
        if slot.counted.swap(false, Relaxed) {
            Self::forget(inner, slot.id, slot.key);
            self.metrics.connections_open.dec();
        }
    }

    fn forget(inner: &mut Inner, id: u64, key: Option<IpKey>) {
        inner.total = inner.total.saturating_sub(1);
        if let Some(key) = key
            && let Some(list) = inner.by_ip.get_mut(&key)
        {
            list.remove(&id);
            if list.is_empty() {
                inner.by_ip.remove(&key);
            }
        }
        inner.all.remove(&id);
    }

    fn release(&self, id: u64, key: Option<IpKey>, counted: &AtomicBool) {
        if counted.swap(false, Relaxed) {
            let mut inner = self.inner.lock().expect("connection tracker lock");
            Self::forget(&mut inner, id, key);
            self.metrics.connections_open.dec();
        }
    }

    /// Open connections counted now.
    pub fn open(&self) -> usize {
        self.inner.lock().expect("connection tracker lock").total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker(max_total: usize, max_per_ip: usize) -> Arc<ConnTracker> {
        ConnTracker::new(
            ConnLimits {
                max_total,
                max_per_ip,
            },
            Arc::new(Metrics::default()),
        )
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn idle_connections_make_room_busy_ones_do_not() {
        let t = tracker(100, 2);
        let a = t.admit(ip("1.1.1.1"), true).unwrap();
        let b = t.admit(ip("1.1.1.1"), true).unwrap();
        // Both idle: the oldest is closed for the third.
        let c = t.admit(ip("1.1.1.1"), true).unwrap();
        assert!(a.killed().is_cancelled() && !b.killed().is_cancelled());
        assert_eq!(t.open(), 2);
        // Busy and joined connections are not closed: the next one is refused.
        let _busy = b.busy();
        c.set_state(ConnState::Socket);
        assert_eq!(t.admit(ip("1.1.1.1"), true).err(), Some(Refusal::PerIp));
        // Another address is not affected; a trusted proxy's connections are not per address.
        let _d = t.admit(ip("2.2.2.2"), true).unwrap();
        let _e = t.admit(ip("1.1.1.1"), false).unwrap();
        drop(a);
        assert_eq!(t.open(), 4);
        drop(c);
        assert_eq!(t.open(), 3);
    }

    #[test]
    fn the_total_cap_closes_the_oldest_idle_connection_anywhere() {
        let t = tracker(2, 10);
        let a = t.admit(ip("1.1.1.1"), true).unwrap();
        a.set_state(ConnState::Socket);
        let b = t.admit(ip("2.2.2.2"), true).unwrap();
        let _c = t.admit(ip("3.3.3.3"), true).unwrap();
        assert!(!a.killed().is_cancelled() && b.killed().is_cancelled());
        assert_eq!(t.open(), 2);
    }
}
