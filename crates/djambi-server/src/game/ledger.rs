//! Who created each game this node knows of, and what each address runs: the caps on
//! unfinished games per address and in all (creation, import and rematch alike), the cap on
//! games with bots — checked against the game's **creator** for every way a bot comes into a
//! game (created with bots, a timeout, "give to a bot" from any seat, a vote) — and the payer
//! of what a game does on its own (its bots' thinking, charged to its creator).
//!
//! Kept in memory, as the budgets are: a game restored after a restart has no known creator,
//! and its bots are then charged to the game itself (each such game its own payer). With several
//! nodes, each node's ledger knows the games created through it (the caps are each node's own).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use uuid::Uuid;

use super::bots::Charge;
use super::error::GameError;
use super::handle::GameHandle;
use super::site::Site;
use crate::metrics::Metrics;
use crate::net::IpKey;
use crate::table::GameStatus;

/// The caps on unfinished games.
#[derive(Clone, Copy, Debug)]
pub struct RegistryLimits {
    /// Unfinished games in all.
    pub max_live_games: usize,
    /// Unfinished games created by one address.
    pub max_games_per_ip: usize,
    /// Games waiting for players created by one address.
    pub max_open_games_per_ip: usize,
    /// Unfinished games with bots created by one address.
    pub max_bot_games_per_ip: usize,
    /// Finished games loaded in memory at once (the least recently read goes first).
    pub max_loaded_finished: usize,
}

/// What one address has going on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddressGames {
    /// Open and live games.
    pub unfinished: usize,
    /// Games waiting for players.
    pub open: usize,
    /// Unfinished games in which a bot plays (or played: a bot once let in counts until the
    /// game ends).
    pub with_bots: usize,
}

/// What the ledger keeps of one game.
#[derive(Clone, Copy, Debug)]
struct Created {
    creator: IpKey,
    /// A bot was let into this game (at creation or since).
    bots: bool,
    /// Created in the store but not yet run by an actor (a rematch, until someone joins it):
    /// it waits for players, and counts as such.
    pending: bool,
}

/// The games this node created, by game and by address.
pub struct Ledger {
    limits: RegistryLimits,
    games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    site: Arc<dyn Site>,
    metrics: Arc<Metrics>,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    by_game: HashMap<Uuid, Created>,
    by_address: HashMap<IpKey, Vec<Uuid>>,
    /// Games created with no actor yet whose creator is not known (counted in all only).
    unknown_pending: Vec<Uuid>,
}

impl Ledger {
    /// A ledger over the games this node runs (`games`) and those other nodes run (`site`).
    pub fn new(
        limits: RegistryLimits,
        games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
        site: Arc<dyn Site>,
        metrics: Arc<Metrics>,
    ) -> Ledger {
        Ledger {
            limits,
            games,
            site,
            metrics,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The caps.
    pub fn limits(&self) -> &RegistryLimits {
        &self.limits
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("ledger lock")
    }

    /// The address that created `game`, if this node knows it.
    pub fn creator(&self, game: Uuid) -> Option<IpKey> {
        self.inner().by_game.get(&game).map(|c| c.creator)
    }

    /// Who pays for what `game` does on its own: its creator (else the game itself).
    pub fn charge(&self, game: Uuid) -> Charge {
        Charge::new(self.creator(game), Some(game))
    }

    /// Records that `creator` created `game` (with bots from the start, or not).
    pub fn created(&self, game: Uuid, creator: Option<IpKey>, bots: bool) {
        self.insert(game, creator, bots, false);
    }

    /// Records that `creator` created `game` in the store, with no actor yet (a rematch): it
    /// counts as a game waiting for players, for its creator and for the server, until it is
    /// loaded ([`loaded`](Self::loaded)).
    pub fn created_unloaded(&self, game: Uuid, creator: Option<IpKey>, bots: bool) {
        self.insert(game, creator, bots, true);
        if creator.is_none() {
            self.inner().unknown_pending.push(game);
        }
    }

    fn insert(&self, game: Uuid, creator: Option<IpKey>, bots: bool, pending: bool) {
        let Some(creator) = creator else { return };
        let mut inner = self.inner();
        inner.by_game.insert(
            game,
            Created {
                creator,
                bots,
                pending,
            },
        );
        inner.by_address.entry(creator).or_default().push(game);
    }

    /// An actor runs `game` now: its standing comes from it.
    pub fn loaded(&self, game: Uuid) {
        let mut inner = self.inner();
        if let Some(created) = inner.by_game.get_mut(&game) {
            created.pending = false;
        }
        inner.unknown_pending.retain(|g| *g != game);
    }

    /// Games created in the store that no actor runs yet.
    fn pending(&self) -> usize {
        let inner = self.inner();
        inner.by_game.values().filter(|c| c.pending).count() + inner.unknown_pending.len()
    }

    /// Whether one more unfinished game of `creator` fits (with bots, or not): under the
    /// server's cap, and under the caps of that address, so one client can never fill the
    /// server.
    pub fn admit(&self, creator: Option<IpKey>, bots: bool) -> Result<(), GameError> {
        self.site.accepts()?;
        if let Some(ip) = creator {
            let games = self.games_of(ip);
            if games.unfinished >= self.limits.max_games_per_ip {
                return Err(GameError::rate_limited(
                    "your address has too many unfinished games",
                    Duration::from_secs(60),
                ));
            }
            if games.open >= self.limits.max_open_games_per_ip {
                return Err(GameError::rate_limited(
                    "your address has too many games waiting for players",
                    Duration::from_secs(60),
                ));
            }
            if bots {
                self.bot_room(&games)?;
            }
        }
        let unfinished = self.metrics.live_games.get() as usize + self.pending();
        if unfinished >= self.limits.max_live_games {
            return Err(GameError::Unavailable(
                "too many games are running; try again later".into(),
            ));
        }
        Ok(())
    }

    /// Lets a bot into `game` (a timeout, "give to a bot", a vote), counted against the cap
    /// of the game's creator on games with bots: refused when the creator is at the cap and
    /// this game had no bot yet. A game whose creator this node does not know is charged to
    /// `asker` (who asked for the bot), who becomes its payer; with neither, it is let in.
    pub fn let_bot_in(&self, game: Uuid, asker: Option<IpKey>) -> Result<(), GameError> {
        self.room_for_bot(game, asker)?;
        if let Some(created) = self.inner().by_game.get_mut(&game) {
            created.bots = true;
        }
        Ok(())
    }

    /// Whether a bot may come into `game` ([`let_bot_in`](Self::let_bot_in)) without letting
    /// it in: a vote to hand a seat to a bot is refused up front when it could not pass.
    pub fn room_for_bot(&self, game: Uuid, asker: Option<IpKey>) -> Result<(), GameError> {
        if self.has_bots(game) {
            return Ok(());
        }
        let payer = match (self.creator(game), asker) {
            (Some(creator), _) => creator,
            (None, Some(asker)) => {
                self.created(game, Some(asker), false);
                asker
            }
            (None, None) => return Ok(()),
        };
        let games = self.games_of(payer);
        self.bot_room(&games)
    }

    fn bot_room(&self, games: &AddressGames) -> Result<(), GameError> {
        if games.with_bots >= self.limits.max_bot_games_per_ip {
            return Err(GameError::rate_limited(
                &format!(
                    "the address that created this game already runs {} games with bots; \
                     one must finish first",
                    games.with_bots
                ),
                Duration::from_secs(60),
            ));
        }
        Ok(())
    }

    /// Whether a bot plays in `game`, or was let in.
    fn has_bots(&self, game: Uuid) -> bool {
        self.inner().by_game.get(&game).is_some_and(|c| c.bots)
            || self.standing_of(game).is_some_and(|(_, bots)| bots)
    }

    /// The unfinished games `ip` created (forgetting those that ended).
    pub fn games_of(&self, ip: IpKey) -> AddressGames {
        let ids = self
            .inner()
            .by_address
            .get(&ip)
            .cloned()
            .unwrap_or_default();
        let mut games = AddressGames::default();
        let mut ended = Vec::new();
        for id in ids {
            let flagged = self.inner().by_game.get(&id).is_some_and(|c| c.bots);
            match self.standing_of(id) {
                Some((status @ (GameStatus::Open | GameStatus::Live), bots)) => {
                    games.unfinished += 1;
                    games.open += usize::from(status == GameStatus::Open);
                    games.with_bots += usize::from(bots || flagged);
                }
                _ => ended.push(id),
            }
        }
        if !ended.is_empty() {
            let mut inner = self.inner();
            for id in &ended {
                inner.by_game.remove(id);
            }
            if let Some(ids) = inner.by_address.get_mut(&ip) {
                ids.retain(|id| !ended.contains(id));
                if ids.is_empty() {
                    inner.by_address.remove(&ip);
                }
            }
        }
        games
    }

    /// Where a loaded game stands and whether a bot plays in it: from its actor here, or from
    /// what its node publishes.
    pub fn standing_of(&self, id: Uuid) -> Option<(GameStatus, bool)> {
        let handle = self.games.lock().expect("registry lock").get(&id).cloned();
        if let Some(handle) = handle {
            let presence = handle.presence();
            return Some((presence.status(), presence.bots()));
        }
        if let Some(digest) = self.site.digest(id) {
            return Some((digest.status, digest.bots));
        }
        let inner = self.inner();
        let created = inner.by_game.get(&id)?;
        created.pending.then_some((GameStatus::Open, created.bots))
    }
}
