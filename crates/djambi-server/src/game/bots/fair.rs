//! The order the bot threads take their jobs in: by class first (a live game's bot turn before
//! any hint, a hint before any analysis), then, within a class, the payer that has been served
//! least of the threads lately, then the payer that asked least, then its game that was served
//! least — least attained service, with the last minute counting most (each payer's and each
//! game's seconds decay by half every [`HALF_LIFE`]). So an address that asks little is served
//! next, however much others ask, and one address's many games share what that address gets:
//! no payer's work delays another's by more than the one job each thread is running.
//!
//! Two measures per payer: **served** (thread time, charged when a job starts with its estimate
//! and corrected when it ends with what it took) orders the jobs; **asked** (charged when a job
//! is queued, and a tenth of it for a request refused at the door) says who is greedy: when a
//! bounded class is full, the waiting job of the payer that asked most gives its place to a
//! newcomer that asked less ([`Fair::evict_for`]).
//!
//! Pure: no threads, no clock of its own (the caller passes `now`, or it reads one only to
//! stamp what it charges).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use uuid::Uuid;

use crate::net::IpKey;

/// How fast what a payer used is forgotten: halved every minute.
pub const HALF_LIFE: Duration = Duration::from_secs(60);

/// What a job is for, in the order they are served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A live game's bot: its turn, or its answer to a draw offer. Someone at the table waits.
    Turn,
    /// A person's hint ("show a good turn"): that person waits.
    Hint,
    /// A turn of a finished game's analysis: nobody waits for this one turn.
    Analysis,
}

/// Who a job is charged to: the address that asked (a hint, an analysis), or, for what a game
/// does on its own (its bots), the address that created the game; and the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Charge {
    /// The paying address, when known (not for a game restored after a restart).
    pub address: Option<IpKey>,
    /// The game the job is for, if any.
    pub game: Option<Uuid>,
}

impl Charge {
    /// Charged to `address` for `game`.
    pub fn new(address: Option<IpKey>, game: Option<Uuid>) -> Charge {
        Charge { address, game }
    }

    /// Who pays: the address, else the game itself (each game of an unknown creator on its
    /// own), else everyone without an address together.
    pub fn payer(&self) -> Payer {
        match (self.address, self.game) {
            (Some(ip), _) => Payer::Address(ip),
            (None, Some(game)) => Payer::Game(game),
            (None, None) => Payer::Nobody,
        }
    }
}

/// The key a payer's use is kept under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Payer {
    /// A client address (IPv4, or IPv6 /64).
    Address(IpKey),
    /// A game whose creator is not known.
    Game(Uuid),
    /// Jobs of no address and no game.
    Nobody,
}

/// Seconds of thread time, decaying.
#[derive(Clone, Copy, Debug)]
struct Used {
    secs: f64,
    at: Instant,
}

impl Used {
    fn now(self, now: Instant) -> f64 {
        let age = now.saturating_duration_since(self.at).as_secs_f64();
        self.secs * 0.5f64.powf(age / HALF_LIFE.as_secs_f64())
    }
}

/// A waiting job.
struct Entry<J> {
    job: J,
    class: Class,
    charge: Charge,
    estimate: Duration,
    seq: u64,
}

/// A job handed to a thread, with what it was charged.
pub struct Started<J> {
    /// The job.
    pub job: J,
    /// Its class.
    pub class: Class,
    /// Who pays.
    pub charge: Charge,
    /// What was charged when it started.
    pub estimate: Duration,
}

/// The jobs waiting, and what each payer and game was served and asked lately.
pub struct Fair<J> {
    waiting: Vec<Entry<J>>,
    payers: HashMap<Payer, Used>,
    games: HashMap<Uuid, Used>,
    asked: HashMap<Payer, Used>,
    seq: u64,
}

impl<J> Default for Fair<J> {
    fn default() -> Fair<J> {
        Fair {
            waiting: Vec::new(),
            payers: HashMap::new(),
            games: HashMap::new(),
            asked: HashMap::new(),
            seq: 0,
        }
    }
}

impl<J> Fair<J> {
    /// Queues a job of `class` for `charge` (counted as asked now), expected to take
    /// `estimate`.
    pub fn push(&mut self, job: J, class: Class, charge: Charge, estimate: Duration) {
        add(
            &mut self.asked,
            charge.payer(),
            estimate.as_secs_f64(),
            Instant::now(),
        );
        self.seq += 1;
        self.waiting.push(Entry {
            job,
            class,
            charge,
            estimate,
            seq: self.seq,
        });
    }

    /// Jobs waiting.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Jobs of `class` waiting.
    pub fn waiting(&self, class: Class) -> usize {
        self.waiting.iter().filter(|e| e.class == class).count()
    }

    /// Jobs of `class` waiting for `payer`.
    pub fn waiting_for(&self, class: Class, payer: Payer) -> usize {
        self.waiting
            .iter()
            .filter(|e| e.class == class && e.charge.payer() == payer)
            .count()
    }

    /// What `payer` was served lately (seconds of thread time, decayed to `now`).
    pub fn used(&self, payer: Payer, now: Instant) -> f64 {
        self.payers.get(&payer).map_or(0.0, |u| u.now(now))
    }

    /// What `payer` asked for lately (seconds, decayed to `now`).
    pub fn asked(&self, payer: Payer, now: Instant) -> f64 {
        self.asked.get(&payer).map_or(0.0, |u| u.now(now))
    }

    fn game_used(&self, game: Option<Uuid>, now: Instant) -> f64 {
        game.and_then(|g| self.games.get(&g))
            .map_or(0.0, |u| u.now(now))
    }

    /// Drops the waiting jobs `abandoned` says nobody waits for any more; returns them.
    pub fn drop_abandoned(&mut self, abandoned: impl Fn(&J) -> bool) -> Vec<J> {
        let mut dropped = Vec::new();
        let mut kept = Vec::with_capacity(self.waiting.len());
        let entries: Vec<Entry<J>> = self.waiting.drain(..).collect();
        for entry in entries {
            if abandoned(&entry.job) {
                dropped.push(entry.job);
            } else {
                kept.push(entry);
            }
        }
        self.waiting = kept;
        dropped
    }

    /// The next job for a thread among the classes `allowed` lets through: the first class,
    /// then the payer served least, then the payer that asked least, then its game served
    /// least, then the oldest. It is charged its estimate as served now.
    pub fn pop(&mut self, now: Instant, allowed: impl Fn(Class) -> bool) -> Option<Started<J>> {
        let best = self
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, e)| allowed(e.class))
            .min_by(|(_, a), (_, b)| {
                a.class
                    .cmp(&b.class)
                    .then(
                        self.used(a.charge.payer(), now)
                            .total_cmp(&self.used(b.charge.payer(), now)),
                    )
                    .then(
                        self.game_used(a.charge.game, now)
                            .total_cmp(&self.game_used(b.charge.game, now)),
                    )
                    .then(a.seq.cmp(&b.seq))
            })
            .map(|(i, _)| i)?;
        let entry = self.waiting.remove(best);
        self.charge(entry.charge, entry.estimate.as_secs_f64(), now);
        Some(Started {
            job: entry.job,
            class: entry.class,
            charge: entry.charge,
            estimate: entry.estimate,
        })
    }

    /// A started job ended after `took`: its charge becomes what it took.
    pub fn done(&mut self, charge: Charge, estimate: Duration, took: Duration, now: Instant) {
        self.charge(charge, took.as_secs_f64() - estimate.as_secs_f64(), now);
    }

    /// A request of `charge` refused before it was queued: counted as asked, a tenth of what
    /// it would have cost, so an address that keeps asking is greedier than one that asks once.
    pub fn charge_refused(&mut self, charge: Charge, estimate: Duration, now: Instant) {
        add(
            &mut self.asked,
            charge.payer(),
            estimate.as_secs_f64() / 10.0,
            now,
        );
    }

    /// Charges `secs` of thread time as served to the payer and the game.
    fn charge(&mut self, charge: Charge, secs: f64, now: Instant) {
        add(&mut self.payers, charge.payer(), secs, now);
        if let Some(game) = charge.game {
            add(&mut self.games, game, secs, now);
        }
    }

    /// Makes room in `class` for a job of `payer`: removes and returns the waiting job of that
    /// class whose payer asked the most lately, if that payer asked more than `payer` (and is
    /// not `payer`); none otherwise (then the newcomer is the one to refuse).
    pub fn evict_for(&mut self, class: Class, payer: Payer, now: Instant) -> Option<J> {
        let mine = self.asked(payer, now);
        let (i, most) = self
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, e)| e.class == class && e.charge.payer() != payer)
            .map(|(i, e)| (i, self.asked(e.charge.payer(), now)))
            .max_by(|(ia, a), (ib, b)| a.total_cmp(b).then(ia.cmp(ib)))?;
        if most <= mine {
            return None;
        }
        Some(self.waiting.remove(i).job)
    }

    /// Forgets the use of payers and games that used next to nothing lately (run now and
    /// then, so the tables stay as small as the set of recent payers).
    pub fn forget_idle(&mut self, now: Instant) {
        self.payers.retain(|_, u| u.now(now) > 0.001);
        self.asked.retain(|_, u| u.now(now) > 0.001);
        self.games.retain(|_, u| u.now(now) > 0.001);
    }

    /// Removes every waiting job (the pool stops).
    pub fn clear(&mut self) -> Vec<J> {
        self.waiting.drain(..).map(|e| e.job).collect()
    }
}

/// Adds `secs` (may be negative: a correction) to `key`'s decaying seconds in `map`.
fn add<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Used>, key: K, secs: f64, now: Instant) {
    let used = map.entry(key).or_insert(Used { secs: 0.0, at: now });
    used.secs = (used.now(now) + secs).max(0.0);
    used.at = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Option<IpKey> {
        Some(IpKey::of(std::net::IpAddr::from([10, 0, 0, n])))
    }

    fn game(n: u128) -> Option<Uuid> {
        Some(Uuid::from_u128(n))
    }

    const SEC: Duration = Duration::from_secs(1);

    /// Runs every job to its end at once (each taking its estimate); the order they ran in.
    fn drain(fair: &mut Fair<&'static str>, now: Instant) -> Vec<&'static str> {
        let mut order = Vec::new();
        while let Some(s) = fair.pop(now, |_| true) {
            fair.done(s.charge, s.estimate, s.estimate, now);
            order.push(s.job);
        }
        order
    }

    #[test]
    fn classes_go_in_order_turns_hints_analyses() {
        let now = Instant::now();
        let mut fair = Fair::default();
        fair.push(
            "analysis",
            Class::Analysis,
            Charge::new(ip(1), game(1)),
            SEC,
        );
        fair.push("hint", Class::Hint, Charge::new(ip(1), None), SEC);
        fair.push("turn", Class::Turn, Charge::new(ip(1), game(2)), SEC);
        assert_eq!(drain(&mut fair, now), ["turn", "hint", "analysis"]);
    }

    #[test]
    fn an_address_that_asks_little_goes_before_one_that_asks_much() {
        let now = Instant::now();
        let mut fair = Fair::default();
        // One address queues ten hints; another asks one after them.
        let greedy = ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10"];
        for job in greedy {
            fair.push(job, Class::Hint, Charge::new(ip(1), None), SEC);
        }
        // The greedy address's first hint runs.
        let first = fair.pop(now, |_| true).unwrap();
        assert_eq!(first.job, "g1");
        fair.push("honest", Class::Hint, Charge::new(ip(2), None), SEC);
        // Nobody was served yet; the greedy address asked ten times more: the honest hint is
        // next.
        assert_eq!(fair.pop(now, |_| true).unwrap().job, "honest");
    }

    #[test]
    fn many_addresses_each_get_a_turn_before_any_gets_a_second() {
        let now = Instant::now();
        let mut fair = Fair::default();
        for n in 1..=3 {
            for _ in 0..3 {
                let name: &'static str = Box::leak(format!("a{n}").into_boxed_str());
                fair.push(
                    name,
                    Class::Turn,
                    Charge::new(ip(n), game(u128::from(n))),
                    SEC,
                );
            }
        }
        let order = drain(&mut fair, now);
        assert_eq!(
            order,
            ["a1", "a2", "a3", "a1", "a2", "a3", "a1", "a2", "a3"]
        );
    }

    #[test]
    fn an_address_s_games_share_its_turns() {
        let now = Instant::now();
        let mut fair = Fair::default();
        for job in ["x1", "x2", "x3"] {
            fair.push(job, Class::Turn, Charge::new(ip(1), game(1)), SEC);
        }
        fair.push("y1", Class::Turn, Charge::new(ip(1), game(2)), SEC);
        let order = drain(&mut fair, now);
        assert_eq!(order, ["x1", "y1", "x2", "x3"]);
    }

    #[test]
    fn use_is_forgotten_by_half_each_minute() {
        let start = Instant::now();
        let mut fair: Fair<&str> = Fair::default();
        let payer = Charge::new(ip(1), None);
        fair.charge(payer, 8.0, start);
        let later = start + HALF_LIFE;
        assert!((fair.used(payer.payer(), later) - 4.0).abs() < 1e-6);
        let much_later = start + HALF_LIFE * 30;
        fair.forget_idle(much_later);
        assert!(fair.payers.is_empty());
    }

    #[test]
    fn a_full_class_evicts_the_job_of_whoever_asked_most_never_a_lighter_one() {
        let now = Instant::now();
        let mut fair = Fair::default();
        let heavy = Charge::new(ip(1), None);
        let light = Charge::new(ip(2), None);
        add(&mut fair.asked, heavy.payer(), 30.0, now);
        fair.push("heavy", Class::Hint, heavy, SEC);
        fair.push("light", Class::Hint, light, SEC);
        // A newcomer who used nothing takes the heavy user's place.
        assert_eq!(
            fair.evict_for(Class::Hint, ip(3).map(Payer::Address).unwrap(), now),
            Some("heavy")
        );
        // The light user's job goes for nobody heavier than itself.
        fair.charge_refused(Charge::new(ip(4), None), Duration::from_secs(50), now);
        assert_eq!(
            fair.evict_for(Class::Hint, Payer::Address(ip(4).unwrap()), now),
            None
        );
        assert_eq!(fair.waiting(Class::Hint), 1);
    }

    #[test]
    fn abandoned_jobs_are_dropped_before_they_run() {
        let now = Instant::now();
        let mut fair = Fair::default();
        fair.push("gone", Class::Hint, Charge::new(ip(1), None), SEC);
        fair.push("here", Class::Hint, Charge::new(ip(2), None), SEC);
        assert_eq!(fair.drop_abandoned(|j| *j == "gone"), ["gone"]);
        assert_eq!(drain(&mut fair, now), ["here"]);
    }
}
