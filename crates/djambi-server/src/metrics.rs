//! The server's metrics, kept by the Prometheus project's client library (`prometheus-client`):
//! counters, gauges, label families and one histogram, registered once under the `djambi_`
//! prefix and written in the text exposition format by its encoder.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// Upper bounds of the commit latency buckets, in seconds.
const COMMIT_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// An outcome label (`result="accepted"`).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    result: String,
}

/// A role label (`role="player"`).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoleLabel {
    role: String,
}

/// The server's metrics: each field a handle into the registry.
#[derive(Debug)]
pub struct Metrics {
    /// Unfinished games held by actors.
    pub live_games: Gauge,
    /// Games held by actors (finished ones included).
    pub loaded_games: Gauge,
    /// Sockets playing a seat.
    pub player_connections: Gauge,
    /// Sockets watching.
    pub spectator_connections: Gauge,
    /// Turns committed (automatic passes included).
    pub turns_accepted: Counter,
    /// Turns refused (not your turn, illegal, …).
    pub turns_rejected: Counter,
    /// Other commands committed (resignations, draw offers and answers, chat).
    pub commands_accepted: Counter,
    /// Other commands refused.
    pub commands_rejected: Counter,
    /// Events sent to sockets (one per event and recipient).
    pub events_sent: Counter,
    /// Connections that fell behind and were resynced.
    pub lagged: Counter,
    /// Database operations that failed.
    pub db_errors: Counter,
    /// Database transactions committed by the batching writer.
    pub db_transactions: Counter,
    /// Open connections (HTTP and WebSocket) under the caps.
    pub connections_open: Gauge,
    /// Connections refused at accept: a cap was reached and every connection was busy.
    pub connections_refused: Counter,
    /// Idle connections closed to make room under a cap.
    pub connections_evicted: Counter,
    /// Sockets closed for sending frames far past their rate limit.
    pub floods: Counter,
    /// With several nodes: 1 while this node holds its lease (0 alone, or cut off).
    pub cluster_lease_valid: Gauge,
    /// Times this node lost its lease and stopped its games.
    pub cluster_lease_losses: Counter,
    /// Games this node took over from a node that died or released them.
    pub cluster_takeovers: Counter,
    /// Commits refused because another node had taken the game (fencing).
    pub cluster_fenced: Counter,
    /// Requests sent to other nodes (commands for games they own).
    pub cluster_requests: Counter,
    /// Messages published on NATS (events, answers, presence).
    pub cluster_published: Counter,
    /// Messages dropped because the publishing queue was full.
    pub cluster_dropped: Counter,
    /// Web Push alerts by outcome (see [`Metrics::push`]).
    pushes: Family<Outcome, Counter>,
    /// The process's resident memory, set at each scrape.
    resident: Gauge,
    /// Time from a command's acceptance to its commit.
    commit_seconds: Histogram,
    registry: Registry,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut r = Registry::with_prefix("djambi");
        let gauge = |r: &mut Registry, name: &str, help: &str| {
            let g = Gauge::default();
            r.register(name, help, g.clone());
            g
        };
        let counter = |r: &mut Registry, name: &str, help: &str| {
            let c = Counter::default();
            r.register(name, help, c.clone());
            c
        };
        let live_games = gauge(&mut r, "live_games", "Unfinished games held by actors.");
        let loaded_games = gauge(
            &mut r,
            "loaded_games",
            "Games held by actors, finished ones included.",
        );
        let resident = gauge(
            &mut r,
            "process_resident_bytes",
            "Resident memory of the server process (Linux; 0 elsewhere).",
        );
        let connections_open = gauge(
            &mut r,
            "open_connections",
            "Open connections (HTTP and WebSocket) under the caps.",
        );
        let roles = Family::<RoleLabel, Gauge>::default();
        r.register(
            "connections",
            "Open WebSocket connections by role.",
            roles.clone(),
        );
        let role = |name: &str| {
            roles
                .get_or_create(&RoleLabel { role: name.into() })
                .clone()
        };
        let (player_connections, spectator_connections) = (role("player"), role("spectator"));
        let cluster_lease_valid = gauge(
            &mut r,
            "cluster_lease_valid",
            "With several nodes: 1 while this node holds its lease.",
        );
        let outcomes = |r: &mut Registry, name: &str, help: &str| {
            let family = Family::<Outcome, Counter>::default();
            r.register(name, help, family.clone());
            let of = |result: &str| {
                family
                    .get_or_create(&Outcome {
                        result: result.into(),
                    })
                    .clone()
            };
            (of("accepted"), of("rejected"))
        };
        let (turns_accepted, turns_rejected) = outcomes(
            &mut r,
            "turns",
            "Turns by outcome (automatic passes count as accepted).",
        );
        let (commands_accepted, commands_rejected) = outcomes(
            &mut r,
            "commands",
            "Other commands (resign, draw, chat) by outcome.",
        );
        let pushes = Family::<Outcome, Counter>::default();
        r.register(
            "pushes",
            "Web Push alerts by outcome: queued, dropped (queue full), limited (the seat's \
             rate), sent, gone (subscription deleted), failed.",
            pushes.clone(),
        );
        let commit_seconds = Histogram::new(COMMIT_BUCKETS);
        r.register(
            "commit_seconds",
            "Time from a command's acceptance to its database commit.",
            commit_seconds.clone(),
        );
        Metrics {
            live_games,
            loaded_games,
            player_connections,
            spectator_connections,
            turns_accepted,
            turns_rejected,
            commands_accepted,
            commands_rejected,
            events_sent: counter(&mut r, "events_sent", "Events delivered to sockets."),
            lagged: counter(
                &mut r,
                "lagged_connections",
                "Connections that fell behind and were resynced.",
            ),
            db_errors: counter(&mut r, "db_errors", "Database operations that failed."),
            db_transactions: counter(
                &mut r,
                "db_transactions",
                "Write transactions committed (each may hold commands of several games).",
            ),
            connections_open,
            connections_refused: counter(
                &mut r,
                "connections_refused",
                "Connections refused at accept (a cap reached, every connection busy).",
            ),
            connections_evicted: counter(
                &mut r,
                "connections_evicted",
                "Idle connections closed to make room under a cap.",
            ),
            floods: counter(&mut r, "floods", "Sockets closed for flooding."),
            cluster_lease_valid,
            cluster_lease_losses: counter(
                &mut r,
                "cluster_lease_losses",
                "Times this node lost its lease and stopped its games.",
            ),
            cluster_takeovers: counter(
                &mut r,
                "cluster_takeovers",
                "Games taken over from a node that died or released them.",
            ),
            cluster_fenced: counter(
                &mut r,
                "cluster_fenced",
                "Commits refused because another node had taken the game.",
            ),
            cluster_requests: counter(
                &mut r,
                "cluster_requests",
                "Commands sent to the node that owns their game.",
            ),
            cluster_published: counter(
                &mut r,
                "cluster_published",
                "Messages published to the other nodes.",
            ),
            cluster_dropped: counter(
                &mut r,
                "cluster_dropped",
                "Messages to the other nodes dropped (publishing queue full).",
            ),
            pushes,
            resident,
            commit_seconds,
            registry: r,
        }
    }
}

impl Metrics {
    /// Counts a Web Push alert's outcome: `queued`, `dropped` (the queue was full), `limited`
    /// (past the seat's rate), `sent`, `gone` (the push service forgot the subscription: it is
    /// deleted), `failed`.
    pub fn push(&self, result: &str) {
        self.pushes
            .get_or_create(&Outcome {
                result: result.into(),
            })
            .inc();
    }

    /// How many Web Push alerts had this outcome (see [`push`](Metrics::push)).
    pub fn pushes(&self, result: &str) -> u64 {
        self.pushes
            .get_or_create(&Outcome {
                result: result.into(),
            })
            .get()
    }

    /// Records how long a command waited for its commit.
    pub fn observe_commit(&self, took: Duration) {
        self.commit_seconds.observe(took.as_secs_f64());
    }

    /// The metrics in the text exposition format (OpenMetrics; Prometheus reads it as its
    /// own text format too).
    pub fn render(&self) -> String {
        self.resident.set(resident_bytes());
        let mut out = String::with_capacity(4096);
        prometheus_client::encoding::text::encode(&mut out, &self.registry)
            .expect("writing to a String does not fail");
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
        m.turns_accepted.inc_by(2);
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
