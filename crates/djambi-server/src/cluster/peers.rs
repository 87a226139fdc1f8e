//! Which nodes are up, as NATS sees them: every node says so on [`NODES`](super::NODES) every
//! second, with its tag (the prefix of its connection ids). A game's owner uses this to forget
//! the sockets of a node that died (they never said goodbye), so its presence stays true.
//! This is only about presence: who may run a game is the lease's business, in Postgres.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a node says it is up.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// The nodes heard from lately.
pub struct Peers {
    own: u32,
    started: Instant,
    dead_after: Duration,
    seen: Mutex<HashMap<u32, Instant>>,
}

impl Peers {
    /// The peers of the node with tag `own`; a node unheard of for `dead_after` is down.
    pub fn new(own: u32, dead_after: Duration) -> Peers {
        Peers {
            own,
            started: Instant::now(),
            dead_after,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// A heartbeat of node `tag` arrived.
    pub fn heard(&self, tag: u32) {
        self.seen
            .lock()
            .expect("peers lock")
            .insert(tag, Instant::now());
    }

    /// Whether node `tag` may still be up. While this node does not hear its own heartbeats
    /// (its link to NATS is down) it cannot tell, and says yes; so it does for a node never
    /// heard of while this one has not listened for long.
    pub fn alive(&self, tag: u32) -> bool {
        if tag == self.own {
            return true;
        }
        let now = Instant::now();
        let seen = self.seen.lock().expect("peers lock");
        let recent = |t: &Instant| now.duration_since(*t) < self.dead_after;
        if !seen.get(&self.own).is_some_and(recent) {
            return true;
        }
        match seen.get(&tag) {
            Some(t) => recent(t),
            None => now.duration_since(self.started) < self.dead_after,
        }
    }

    /// The tags of the nodes heard from lately (this one included).
    pub fn up(&self) -> Vec<u32> {
        let now = Instant::now();
        let mut up: Vec<u32> = self
            .seen
            .lock()
            .expect("peers lock")
            .iter()
            .filter(|(_, t)| now.duration_since(**t) < self.dead_after)
            .map(|(tag, _)| *tag)
            .collect();
        up.sort_unstable();
        up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_node_is_down_once_this_one_hears_itself() {
        let peers = Peers::new(1, Duration::from_millis(50));
        assert!(peers.alive(2), "unknown, while just started");
        peers.heard(1);
        peers.heard(2);
        assert!(peers.alive(2));
        std::thread::sleep(Duration::from_millis(80));
        peers.heard(1);
        assert!(!peers.alive(2), "silent for longer than dead_after");
        assert!(!peers.alive(3), "never heard of, long after the start");
        assert!(peers.alive(1), "itself");
        assert_eq!(peers.up(), vec![1]);
    }

    #[test]
    fn a_node_that_hears_nothing_cannot_tell() {
        let peers = Peers::new(1, Duration::from_millis(20));
        peers.heard(2);
        std::thread::sleep(Duration::from_millis(40));
        // Not even its own heartbeat: its NATS link is down, not everyone else.
        assert!(peers.alive(2));
    }
}
