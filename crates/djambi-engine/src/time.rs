//! Limits of a search (move time, node budget, a stop flag) and the clock that enforces them.
//!
//! The search asks its clock at every node: the node budget is checked exactly
//! (so a node-budget search is deterministic), the wall clock and the stop flag every
//! [`POLL_NODES`] nodes (reading the clock costs about 25 ns; a node costs about 1 µs).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often, in nodes, the search reads the wall clock and the stop flag.
pub const POLL_NODES: u64 = 256;

/// What bounds one call of [`Engine::think`](crate::Engine::think). With no limit at all the
/// level's own budget applies (for `hard`: a default move time of one second).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for the whole call, measured from its start.
    pub movetime: Option<Duration>,
    /// Node budget: with it (and no move time that runs out first) the choice is a pure
    /// function of position, level, seed and budget.
    pub nodes: Option<u64>,
    /// Set to `true` from another thread to make the search return its best turn so far.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A move-time limit only.
    pub fn movetime(d: Duration) -> Limits {
        Limits {
            movetime: Some(d),
            ..Limits::default()
        }
    }

    /// A node budget only (deterministic).
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// The part of a command-line move time `movetime` that the search itself may use, when the
/// process has already run for `elapsed`: 75 % of the move time, less what start-up took and
/// 2 ms for printing and exit. The rest is margin for a loaded machine (the referee measures the
/// whole process; with five busy processes on two cores a think was once seen to overrun its
/// budget by 140 ms).
pub fn process_budget(movetime: Duration, elapsed: Duration) -> Duration {
    (movetime.mul_f64(0.75))
        .saturating_sub(elapsed)
        .saturating_sub(Duration::from_millis(2))
}

/// Enforces [`Limits`] during one search.
pub(crate) struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    /// No new iteration starts after this point: the next one would most likely not finish.
    soft: Option<Instant>,
    nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    /// Until armed, nothing stops the search (the first, cheap iteration always completes).
    armed: bool,
}

impl Clock {
    pub(crate) fn new(limits: &Limits, start: Instant) -> Clock {
        Clock {
            start,
            deadline: limits.movetime.map(|d| start + d),
            soft: limits.movetime.map(|d| start + d.mul_f64(0.45)),
            nodes: limits.nodes,
            stop: limits.stop.clone(),
            stopped: false,
            armed: true,
        }
    }

    /// Lets the search run regardless of the limits until [`Clock::arm`].
    pub(crate) fn disarm(&mut self) {
        self.armed = false;
    }

    /// Enforces the limits again.
    pub(crate) fn arm(&mut self) {
        self.armed = true;
    }

    /// Whether the search must stop now, `nodes` being the nodes searched so far.
    #[inline]
    pub(crate) fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if !self.armed {
            return false;
        }
        if self.nodes.is_some_and(|n| nodes >= n) {
            self.stopped = true;
        } else if nodes.is_multiple_of(POLL_NODES) {
            self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.stopped
    }

    /// Whether the search was stopped by a limit.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether a new iteration of iterative deepening is worth starting.
    pub(crate) fn may_start_iteration(&self, nodes: u64) -> bool {
        !self.stopped
            && self.soft.is_none_or(|s| Instant::now() < s)
            && self.nodes.is_none_or(|n| nodes < n)
            && !self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The largest share of a limit used so far, `nodes` being the nodes searched (0 without
    /// limits): the nodes of the node budget, or the time of the move time.
    pub(crate) fn used(&self, nodes: u64) -> f64 {
        let by_nodes = self.nodes.map_or(0.0, |n| nodes as f64 / n.max(1) as f64);
        by_nodes.max(self.time_used())
    }

    /// The share of the move time used so far (0 without one).
    pub(crate) fn time_used(&self) -> f64 {
        self.deadline.map_or(0.0, |d| {
            let all = d.saturating_duration_since(self.start).as_secs_f64();
            if all > 0.0 {
                self.start.elapsed().as_secs_f64() / all
            } else {
                1.0
            }
        })
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        assert_eq!(process_budget(ms(1000), ms(3)), ms(745));
        assert_eq!(process_budget(ms(1), ms(3)), ms(0));
    }

    #[test]
    fn node_budget_is_exact() {
        let mut c = Clock::new(&Limits::nodes(10), Instant::now());
        assert!(!c.should_stop(9));
        assert!(c.should_stop(10));
        assert!(c.stopped());
        let mut c = Clock::new(&Limits::nodes(10), Instant::now());
        c.disarm();
        assert!(!c.should_stop(100));
    }
}
