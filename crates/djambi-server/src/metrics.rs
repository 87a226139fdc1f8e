//! Counters, gauges and one histogram, kept in atomics and written in the Prometheus text
//! format by hand (no registry crate needed for this handful).

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Upper bounds of the commit latency buckets, in seconds.
const COMMIT_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// The server's metrics.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Unfinished games held by actors.
    pub live_games: AtomicI64,
    /// Games held by actors (finished ones included).
    pub loaded_games: AtomicI64,
    /// Sockets playing a seat.
    pub player_connections: AtomicI64,
    /// Sockets watching.
    pub spectator_connections: AtomicI64,
    /// Turns committed (automatic passes included).
    pub turns_accepted: AtomicU64,
    /// Turns refused (not your turn, illegal, …).
    pub turns_rejected: AtomicU64,
    /// Other commands committed (resignations, draw offers and answers, chat).
    pub commands_accepted: AtomicU64,
    /// Other commands refused.
    pub commands_rejected: AtomicU64,
    /// Events sent to sockets (one per event and recipient).
    pub events_sent: AtomicU64,
    /// Connections that fell behind and were resynced.
    pub lagged: AtomicU64,
    /// Database operations that failed.
    pub db_errors: AtomicU64,
    /// Database transactions committed by the batching writer.
    pub db_transactions: AtomicU64,
    /// Open connections (HTTP and WebSocket) under the caps.
    pub connections_open: AtomicI64,
    /// Connections refused at accept: a cap was reached and every connection was busy.
    pub connections_refused: AtomicU64,
    /// Idle connections closed to make room under a cap.
    pub connections_evicted: AtomicU64,
    /// Sockets closed for sending frames far past their rate limit.
    pub floods: AtomicU64,
    /// With several nodes: 1 while this node holds its lease (0 alone, or cut off).
    pub cluster_lease_valid: AtomicI64,
    /// Times this node lost its lease and stopped its games.
    pub cluster_lease_losses: AtomicU64,
    /// Games this node took over from a node that died or released them.
    pub cluster_takeovers: AtomicU64,
    /// Commits refused because another node had taken the game (fencing).
    pub cluster_fenced: AtomicU64,
    /// Requests sent to other nodes (commands for games they own).
    pub cluster_requests: AtomicU64,
    /// Messages published on NATS (events, answers, presence).
    pub cluster_published: AtomicU64,
    /// Messages dropped because the publishing queue was full.
    pub cluster_dropped: AtomicU64,
    commit_buckets: [AtomicU64; COMMIT_BUCKETS.len()],
    commit_count: AtomicU64,
    commit_sum_micros: AtomicU64,
}

impl Metrics {
    /// Records how long a command waited for its commit.
    pub fn observe_commit(&self, took: Duration) {
        let secs = took.as_secs_f64();
        for (bound, bucket) in COMMIT_BUCKETS.iter().zip(&self.commit_buckets) {
            if secs <= *bound {
                bucket.fetch_add(1, Relaxed);
            }
        }
        self.commit_count.fetch_add(1, Relaxed);
        self.commit_sum_micros
            .fetch_add(took.as_micros() as u64, Relaxed);
    }

    /// The metrics in the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(2048);
        let mut gauge = |name: &str, help: &str, samples: &[(&str, i64)]| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
            for (labels, value) in samples {
                let _ = writeln!(out, "{name}{labels} {value}");
            }
        };
        gauge(
            "djambi_live_games",
            "Unfinished games held by actors.",
            &[("", self.live_games.load(Relaxed))],
        );
        gauge(
            "djambi_loaded_games",
            "Games held by actors, finished ones included.",
            &[("", self.loaded_games.load(Relaxed))],
        );
        gauge(
            "djambi_process_resident_bytes",
            "Resident memory of the server process (Linux; 0 elsewhere).",
            &[("", resident_bytes())],
        );
        gauge(
            "djambi_open_connections",
            "Open connections (HTTP and WebSocket) under the caps.",
            &[("", self.connections_open.load(Relaxed))],
        );
        gauge(
            "djambi_connections",
            "Open WebSocket connections by role.",
            &[
                ("{role=\"player\"}", self.player_connections.load(Relaxed)),
                (
                    "{role=\"spectator\"}",
                    self.spectator_connections.load(Relaxed),
                ),
            ],
        );
        gauge(
            "djambi_cluster_lease_valid",
            "With several nodes: 1 while this node holds its lease.",
            &[("", self.cluster_lease_valid.load(Relaxed))],
        );
        let mut counter = |name: &str, help: &str, samples: &[(&str, u64)]| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
            for (labels, value) in samples {
                let _ = writeln!(out, "{name}{labels} {value}");
            }
        };
        counter(
            "djambi_turns_total",
            "Turns by outcome (automatic passes count as accepted).",
            &[
                ("{result=\"accepted\"}", self.turns_accepted.load(Relaxed)),
                ("{result=\"rejected\"}", self.turns_rejected.load(Relaxed)),
            ],
        );
        counter(
            "djambi_commands_total",
            "Other commands (resign, draw, chat) by outcome.",
            &[
                (
                    "{result=\"accepted\"}",
                    self.commands_accepted.load(Relaxed),
                ),
                (
                    "{result=\"rejected\"}",
                    self.commands_rejected.load(Relaxed),
                ),
            ],
        );
        counter(
            "djambi_events_sent_total",
            "Events delivered to sockets.",
            &[("", self.events_sent.load(Relaxed))],
        );
        counter(
            "djambi_lagged_connections_total",
            "Connections that fell behind and were resynced.",
            &[("", self.lagged.load(Relaxed))],
        );
        counter(
            "djambi_connections_refused_total",
            "Connections refused at accept (a cap reached, every connection busy).",
            &[("", self.connections_refused.load(Relaxed))],
        );
        counter(
            "djambi_connections_evicted_total",
            "Idle connections closed to make room under a cap.",
            &[("", self.connections_evicted.load(Relaxed))],
        );
        counter(
            "djambi_floods_total",
            "Sockets closed for flooding.",
            &[("", self.floods.load(Relaxed))],
        );
        counter(
            "djambi_db_errors_total",
            "Database operations that failed.",
            &[("", self.db_errors.load(Relaxed))],
        );
        counter(
            "djambi_db_transactions_total",
            "Write transactions committed (each may hold commands of several games).",
            &[("", self.db_transactions.load(Relaxed))],
        );
        counter(
            "djambi_cluster_lease_losses_total",
            "Times this node lost its lease and stopped its games.",
            &[("", self.cluster_lease_losses.load(Relaxed))],
        );
        counter(
            "djambi_cluster_takeovers_total",
            "Games taken over from a node that died or released them.",
            &[("", self.cluster_takeovers.load(Relaxed))],
        );
        counter(
            "djambi_cluster_fenced_total",
            "Commits refused because another node had taken the game.",
            &[("", self.cluster_fenced.load(Relaxed))],
        );
        counter(
            "djambi_cluster_requests_total",
            "Commands sent to the node that owns their game.",
            &[("", self.cluster_requests.load(Relaxed))],
        );
        counter(
            "djambi_cluster_published_total",
            "Messages published to the other nodes.",
            &[("", self.cluster_published.load(Relaxed))],
        );
        counter(
            "djambi_cluster_dropped_total",
            "Messages to the other nodes dropped (publishing queue full).",
            &[("", self.cluster_dropped.load(Relaxed))],
        );
        let name = "djambi_commit_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time from a command's acceptance to its database commit.\n# TYPE {name} histogram"
        );
        for (bound, bucket) in COMMIT_BUCKETS.iter().zip(&self.commit_buckets) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Relaxed)
            );
        }
        let count = self.commit_count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.commit_sum_micros.load(Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
        out
    }
}

/// The process's resident set size, from `/proc/self/status` (0 where that does not exist).
pub fn resident_bytes() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            let kib: i64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_prometheus_text() {
        let m = Metrics::default();
        m.observe_commit(Duration::from_millis(3));
        m.turns_accepted.fetch_add(2, Relaxed);
        let text = m.render();
        assert!(text.contains("djambi_turns_total{result=\"accepted\"} 2\n"));
        assert!(text.contains("djambi_commit_seconds_bucket{le=\"0.0025\"} 0\n"));
        assert!(text.contains("djambi_commit_seconds_bucket{le=\"0.005\"} 1\n"));
        assert!(text.contains("djambi_commit_seconds_count 1\n"));
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let value = line.rsplit(' ').next().unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
