//! A game's clock, kept from the times of the events in its log: replaying the log gives the
//! same clocks, so a restart neither gives nor takes time (the server's own downtime is a
//! `paused` event, charged to nobody).
//!
//! Live clocks run only on their player's turns (bonus turns included) and get the increment
//! after each of them. As on lichess, a player's clock starts after their first turn: that turn
//! is not charged and has its own allowance ([`FIRST_TURN_MS`], or the whole clock if shorter).
//! A correspondence game has a deadline per turn.

use djambi_core::Player;

use crate::table::settings::ClockSpec;

/// How long a player's first turn under a live clock may take; it is not charged to the clock.
pub const FIRST_TURN_MS: i64 = 30_000;

/// The clock of a timed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    spec: ClockSpec,
    /// Each seat's time left at `since`, in ms (live clocks).
    remaining: [i64; 4],
    /// Whose time runs.
    running: Option<Player>,
    /// When `remaining` was last brought up to date.
    since: i64,
    /// When the running player's time or turn runs out.
    deadline: Option<i64>,
    /// Which seats have played a turn (their live clock runs from then on).
    played: [bool; 4],
}

impl Clock {
    /// A clock before the game starts: nobody's time runs.
    pub fn new(spec: ClockSpec) -> Clock {
        let initial = match spec {
            ClockSpec::Live { initial_s, .. } => i64::from(initial_s) * 1000,
            ClockSpec::Correspondence { .. } => 0,
        };
        Clock {
            spec,
            remaining: [initial; 4],
            running: None,
            since: 0,
            deadline: None,
            played: [false; 4],
        }
    }

    /// Whether `player`'s live clock runs: from the end of their first turn on.
    fn charged(&self, player: Player) -> bool {
        matches!(self.spec, ClockSpec::Live { .. }) && self.played[player.index()]
    }

    /// Whether the running player is on their first, uncharged turn (live clocks).
    pub fn first_turn(&self) -> bool {
        matches!(self.spec, ClockSpec::Live { .. })
            && self.running.is_some_and(|p| !self.played[p.index()])
    }

    /// Charges the running player for the time up to `at`.
    pub fn charge(&mut self, at: i64) {
        if let Some(p) = self.running.filter(|p| self.charged(*p)) {
            let used = (at - self.since).max(0);
            let left = &mut self.remaining[p.index()];
            *left = (*left - used).max(0);
        }
        self.since = self.since.max(at);
    }

    /// After `player`'s own turn: its increment (from the second turn on: the first one
    /// was not charged), and its clock runs from now on.
    pub fn turn_played(&mut self, player: Player) {
        if let ClockSpec::Live { increment_s, .. } = self.spec
            && self.charged(player)
        {
            self.remaining[player.index()] += i64::from(increment_s) * 1000;
        }
        self.played[player.index()] = true;
    }

    /// `player`'s time ran out.
    pub fn ran_out(&mut self, player: Player) {
        self.remaining[player.index()] = 0;
    }

    /// From `at`, `who`'s turn runs (none: nobody's); a new turn gets a new deadline.
    pub fn start_turn(&mut self, who: Option<Player>, at: i64) {
        self.since = self.since.max(at);
        self.running = who;
        self.deadline = who.map(|p| match self.spec {
            ClockSpec::Live { .. } if !self.charged(p) => {
                self.since + self.remaining[p.index()].min(FIRST_TURN_MS)
            }
            ClockSpec::Live { .. } => self.since + self.remaining[p.index()],
            ClockSpec::Correspondence { per_turn_s } => self.since + i64::from(per_turn_s) * 1000,
        });
    }

    /// The same turn goes on with `who` to move: only a change of runner restarts the turn.
    pub fn keep_turn(&mut self, who: Option<Player>, at: i64) {
        if who != self.running {
            self.start_turn(who, at);
        }
    }

    /// The server was down from `from` to `until`: that time is charged to nobody.
    pub fn pause(&mut self, from: i64, until: i64) {
        self.charge(from);
        let gap = (until - from).max(0);
        self.since = self.since.max(until);
        if let Some(deadline) = &mut self.deadline {
            *deadline += gap;
        }
    }

    /// When the running player's time runs out, and whose it is.
    pub fn deadline(&self) -> Option<(Player, i64)> {
        self.running.zip(self.deadline)
    }

    /// Whose time runs.
    pub fn running(&self) -> Option<Player> {
        self.running
    }

    /// `player`'s time left at `now` (live clocks; a correspondence game: the running
    /// turn's time left).
    pub fn left(&self, player: Player, now: i64) -> i64 {
        match self.spec {
            ClockSpec::Live { .. } => {
                let left = self.remaining[player.index()];
                if self.running == Some(player) && self.charged(player) {
                    (left - (now - self.since).max(0)).max(0)
                } else {
                    left
                }
            }
            ClockSpec::Correspondence { .. } => match (self.running, self.deadline) {
                (Some(p), Some(d)) if p == player => (d - now).max(0),
                _ => 0,
            },
        }
    }

    /// How the game is timed.
    pub fn spec(&self) -> ClockSpec {
        self.spec
    }

    /// A seat's live time left at [`since`](Clock::since), in ms (the running one's included).
    pub fn remaining(&self, player: Player) -> i64 {
        self.remaining[player.index()]
    }

    /// When the times left were last brought up to date (ms).
    pub fn since(&self) -> i64 {
        self.since
    }

    /// When the running player's time or turn runs out (ms), if someone's runs.
    pub fn deadline_at(&self) -> Option<i64> {
        self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Army::*;

    /// Plays every seat's first, uncharged turn.
    fn past_first_turns(c: &mut Clock) {
        for p in [Red, Blue, Yellow, Green] {
            c.turn_played(p);
        }
    }

    #[test]
    fn a_first_turn_is_not_charged_and_has_its_own_allowance() {
        let mut c = Clock::new(ClockSpec::Live {
            initial_s: 60,
            increment_s: 5,
        });
        c.start_turn(Some(Red), 1_000);
        assert!(c.first_turn());
        assert_eq!(c.deadline(), Some((Red, 31_000)));
        assert_eq!(c.left(Red, 20_000), 60_000);
        // Red plays after 20 s: nothing charged, no increment; its clock runs from now on.
        c.charge(21_000);
        c.turn_played(Red);
        c.start_turn(Some(Red), 21_000);
        assert!(!c.first_turn());
        assert_eq!(c.deadline(), Some((Red, 81_000)));
        assert_eq!(c.left(Red, 31_000), 50_000);
        // A clock shorter than the allowance: the first turn may take the whole clock.
        let mut short = Clock::new(ClockSpec::Live {
            initial_s: 2,
            increment_s: 0,
        });
        short.start_turn(Some(Blue), 0);
        assert_eq!(short.deadline(), Some((Blue, 2_000)));
    }

    #[test]
    fn live_clocks_run_on_their_own_turns_with_the_increment() {
        let mut c = Clock::new(ClockSpec::Live {
            initial_s: 60,
            increment_s: 5,
        });
        past_first_turns(&mut c);
        c.start_turn(Some(Red), 1_000);
        assert_eq!(c.deadline(), Some((Red, 61_000)));
        // Red thinks 10 s and plays.
        c.charge(11_000);
        c.turn_played(Red);
        c.start_turn(Some(Blue), 11_000);
        assert_eq!(c.left(Red, 20_000), 55_000);
        assert_eq!(c.left(Blue, 20_000), 51_000);
        // A draw offer in between changes nothing.
        c.charge(15_000);
        c.keep_turn(Some(Blue), 15_000);
        assert_eq!(c.deadline(), Some((Blue, 71_000)));
        // Down for 100 s: nobody pays.
        c.pause(16_000, 116_000);
        assert_eq!(c.deadline(), Some((Blue, 171_000)));
        assert_eq!(c.left(Blue, 116_000), 55_000);
    }

    #[test]
    fn a_correspondence_turn_has_its_deadline() {
        let mut c = Clock::new(ClockSpec::Correspondence { per_turn_s: 3600 });
        c.start_turn(Some(Green), 0);
        c.charge(1_000);
        c.keep_turn(Some(Green), 1_000);
        assert_eq!(c.deadline(), Some((Green, 3_600_000)));
        c.start_turn(Some(Red), 2_000);
        assert_eq!(c.deadline(), Some((Red, 3_602_000)));
        c.start_turn(None, 3_000);
        assert_eq!(c.deadline(), None);
    }
}
