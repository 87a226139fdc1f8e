//! Per-address budgets: token buckets (GCRA, from the `governor` crate) keyed by the client's
//! [`IpKey`], for the things a stranger could otherwise do without end — creating and importing
//! games, opening WebSockets, asking for catch-ups, guessing seat tokens, asking about
//! positions and the engine's hints, and asking for analyses of finished games. Each budget has a
//! burst (what one client may do at once) and a refill rate; spending past it is refused with
//! `rate_limited` (HTTP 429 with `Retry-After`).

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::client_ip::IpKey;

/// One budget's size: a burst, refilled one unit every `period`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Units one client may spend at once.
    pub burst: u32,
    /// Units given back per minute.
    pub per_minute: u32,
}

impl Allowance {
    /// The quota of this allowance.
    pub fn quota(self) -> Quota {
        let per_minute = self.per_minute.max(1);
        let period = Duration::from_secs(60) / per_minute;
        Quota::with_period(period.max(Duration::from_nanos(1)))
            .expect("a positive period")
            .allow_burst(NonZeroU32::new(self.burst.max(1)).expect("positive"))
    }
}

/// One budget: a token bucket per client address.
pub struct Budget {
    limiter: DefaultKeyedRateLimiter<IpKey>,
    clock: DefaultClock,
    allowance: Allowance,
}

impl Budget {
    /// A budget of `allowance` per address.
    pub fn new(allowance: Allowance) -> Budget {
        Budget {
            limiter: RateLimiter::keyed(allowance.quota()),
            clock: DefaultClock::default(),
            allowance,
        }
    }

    /// Spends one unit, or says how long until one is available.
    pub fn take(&self, key: IpKey) -> Result<(), Duration> {
        self.limiter
            .check_key(&key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Spends `n` units (at most the burst: a larger cost spends the whole burst), or says how
    /// long until they are available.
    pub fn take_n(&self, key: IpKey, n: u32) -> Result<(), Duration> {
        let n = n.clamp(1, self.allowance.burst.max(1));
        match self
            .limiter
            .check_key_n(&key, NonZeroU32::new(n).expect("positive"))
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(not_until.wait_time_from(self.clock.now())),
            Err(_) => Err(Duration::from_secs(60)),
        }
    }

    /// Forgets addresses whose bucket is full again (run now and then, so the table stays as
    /// small as the set of recently active clients).
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }

    /// Addresses currently remembered.
    pub fn len(&self) -> usize {
        self.limiter.len()
    }

    /// Whether no address is remembered.
    pub fn is_empty(&self) -> bool {
        self.limiter.is_empty()
    }
}

/// The sizes of every per-address budget.
#[derive(Clone, Copy, Debug)]
pub struct BudgetConfig {
    /// Games created or imported.
    pub create: Allowance,
    /// WebSocket connections opened.
    pub ws_connect: Allowance,
    /// KiB of catch-up (resent events and snapshots) sent to new connections.
    pub catchup_kib: Allowance,
    /// Wrong seat tokens presented (claims and `hello`).
    pub bad_token: Allowance,
    /// Pages of game history read.
    pub history: Allowance,
    /// Position and puzzle requests (lessons and puzzles: legal turns, turns tried, answers).
    pub positions: Allowance,
    /// Engine hints ("show a good turn"), each a bot's think on the server.
    pub hint: Allowance,
    /// Units of analysis requests (a request 1, one that starts an analysis more).
    pub analysis: Allowance,
    /// KiB of games stored by imports (weighted by their size).
    pub import_kib: Allowance,
    /// Reads that load a game into memory.
    pub load: Allowance,
    /// Circles created.
    pub circle_create: Allowance,
    /// Reads of circles (their pages, exports) and their members' changes.
    pub circle_read: Allowance,
}

/// Every per-address budget of the server.
pub struct Budgets {
    /// Games created or imported.
    pub create: Budget,
    /// WebSocket connections opened.
    pub ws_connect: Budget,
    /// KiB of catch-up sent.
    pub catchup_kib: Budget,
    /// Wrong seat tokens.
    pub bad_token: Budget,
    /// Pages of game history.
    pub history: Budget,
    /// Position and puzzle requests.
    pub positions: Budget,
    /// Engine hints.
    pub hint: Budget,
    /// Analysis requests.
    pub analysis: Budget,
    /// KiB of imported games stored.
    pub import_kib: Budget,
    /// Reads that load a game.
    pub load: Budget,
    /// Circles created.
    pub circle_create: Budget,
    /// Circle reads and changes.
    pub circle_read: Budget,
    /// Addresses that spent their wrong-token budget, until when: no token of theirs is even
    /// looked at meanwhile, so guessing cannot go on at any speed.
    blocked: Mutex<HashMap<IpKey, Instant>>,
}

impl Budgets {
    /// The budgets of `config`.
    pub fn new(config: BudgetConfig) -> Budgets {
        Budgets {
            create: Budget::new(config.create),
            ws_connect: Budget::new(config.ws_connect),
            catchup_kib: Budget::new(config.catchup_kib),
            bad_token: Budget::new(config.bad_token),
            history: Budget::new(config.history),
            positions: Budget::new(config.positions),
            hint: Budget::new(config.hint),
            analysis: Budget::new(config.analysis),
            import_kib: Budget::new(config.import_kib),
            load: Budget::new(config.load),
            circle_create: Budget::new(config.circle_create),
            circle_read: Budget::new(config.circle_read),
            blocked: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` may present a seat token now (or how long until it may).
    pub fn may_try_token(&self, key: IpKey) -> Result<(), Duration> {
        let blocked = self.blocked.lock().expect("budget lock");
        match blocked.get(&key) {
            Some(until) if *until > Instant::now() => Err(*until - Instant::now()),
            _ => Ok(()),
        }
    }

    /// Counts a wrong token from `key`; past its budget, the address may not present tokens
    /// for a while (returned).
    pub fn wrong_token(&self, key: IpKey) -> Result<(), Duration> {
        self.bad_token.take(key).inspect_err(|wait| {
            let mut blocked = self.blocked.lock().expect("budget lock");
            // One line per block, not per guess: a guesser cannot fill the log.
            tracing::warn!(ip = %key, seconds = wait.as_secs(), "too many wrong seat tokens: this address may not present tokens for a while");
            blocked.insert(key, Instant::now() + *wait);
        })
    }

    /// Forgets idle addresses in every budget, and blocks that ended.
    pub fn forget_idle(&self) {
        let now = Instant::now();
        self.blocked
            .lock()
            .expect("budget lock")
            .retain(|_, until| *until > now);
        for budget in [
            &self.create,
            &self.ws_connect,
            &self.catchup_kib,
            &self.bad_token,
            &self.history,
            &self.positions,
            &self.hint,
            &self.analysis,
            &self.import_kib,
            &self.load,
            &self.circle_create,
            &self.circle_read,
        ] {
            budget.forget_idle();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> IpKey {
        IpKey::of(s.parse().unwrap())
    }

    #[test]
    fn a_burst_then_refusal_per_address() {
        let b = Budget::new(Allowance {
            burst: 3,
            per_minute: 1,
        });
        for _ in 0..3 {
            b.take(key("1.1.1.1")).unwrap();
        }
        let wait = b.take(key("1.1.1.1")).unwrap_err();
        assert!(wait > Duration::from_secs(50), "{wait:?}");
        // Another address has its own bucket.
        b.take(key("1.1.1.2")).unwrap();
        // A cost larger than the burst spends the whole burst.
        b.take_n(key("9.9.9.9"), 100).unwrap();
        assert!(b.take(key("9.9.9.9")).is_err());
    }
}
