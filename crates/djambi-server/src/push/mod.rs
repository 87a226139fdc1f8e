//! Web Push (issue 23): "your turn, wherever you are". A browser holding a seat subscribes to it
//! with the seat's token (`http/push.rs`); when the seat should know something and no socket of
//! it is open, the game's actor tells its [`Alerts`] port (implemented here by a bounded
//! [`queue`]), and a worker sends each of the seat's subscriptions a push: the payload JSON
//! (`game`, `kind`, `title`, `body`, in the subscription's language) encrypted for the browser
//! (RFC 8291) and signed with the server's VAPID key (RFC 8292). A subscription its push service
//! says is gone (404, 410) is deleted.
//!
//! - [`guard`]: only https endpoints on public addresses (the server must not become a way into
//!   its own network), checked at subscription and again at each send;
//! - [`keys`]: the VAPID key pair (database, or `--push-vapid-file`);
//! - [`subscriptions`]: the rows, per seat, deleted with their game;
//! - [`members`]: circle members' rows, told when a game of their circle is created;
//! - [`queue`]: the bounded queue and its worker; [`send`]: one push; [`texts`]: the words.
//!
//! The dependencies point here from the wiring only: `game` knows the port, never this part.
//!
//! [`Alerts`]: crate::game::Alerts

pub mod guard;
pub mod keys;
pub mod lanes;
pub mod members;
pub mod queue;
pub mod send;
pub mod subscriptions;
pub mod texts;

use std::sync::Arc;
use std::time::Duration;

use djambi_core::Player;
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use uuid::Uuid;

pub use guard::{EndpointError, Guard};
pub use keys::{KeyError, VapidKeys};
pub use subscriptions::Subscription;
pub use texts::Lang;

use crate::config::PushFlags;
use crate::game::Alerts;
use crate::metrics::Metrics;
use crate::net::IpKey;
use crate::net::budget::{Allowance, Budget};
use crate::store::{Store, StoreError};

/// Why a subscription is refused.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// The endpoint is not acceptable.
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// The browser's keys are not usable.
    #[error("{0}")]
    Keys(&'static str),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Web Push: the key, the subscriptions and the queue.
pub struct Push {
    keys: Arc<VapidKeys>,
    store: Store,
    guard: Guard,
    queue: Arc<queue::Queue>,
    lanes: Arc<lanes::Lanes>,
    per_seat_max: usize,
    subscribe: Budget,
    /// Each circle member's rate of pushes (the seats' rate).
    per_member: Arc<DefaultKeyedRateLimiter<Uuid>>,
}

impl Push {
    /// Loads (or makes) the VAPID key pair and starts the queue's worker. `contact` is the
    /// VAPID subject when `--push-contact` names none (the public URL).
    pub async fn start(
        flags: &PushFlags,
        contact: String,
        store: Store,
        metrics: Arc<Metrics>,
    ) -> Result<Push, KeyError> {
        let keys = Arc::new(VapidKeys::load(&store, flags.push_vapid_file.as_deref()).await?);
        let guard = Guard {
            allow_loopback: flags.push_allow_loopback,
        };
        let contact = flags.push_contact.clone().unwrap_or(contact);
        let sender = send::Sender::new(keys.clone(), guard, contact, flags.ttl(), flags.timeout());
        let seat_rate = Allowance {
            burst: flags.push_seat_burst,
            per_minute: flags.push_seat_per_minute,
        };
        let lanes = Arc::new(lanes::Lanes::new(
            sender,
            store.pool().clone(),
            metrics.clone(),
            flags.push_senders,
        ));
        let worker = queue::Worker {
            pool: store.pool().clone(),
            lanes: lanes.clone(),
            metrics,
            per_seat: queue::Worker::seat_limiter(seat_rate.quota()),
        };
        let subscribe = Budget::new(Allowance {
            burst: flags.push_subscribe_burst,
            per_minute: flags.push_subscribe_per_minute,
        });
        Ok(Push {
            keys,
            store,
            guard,
            queue: Arc::new(queue::start(worker, flags.push_queue)),
            lanes,
            per_seat_max: flags.push_subscriptions_per_seat,
            subscribe,
            per_member: Arc::new(RateLimiter::keyed(seat_rate.quota())),
        })
    }

    /// The server's public VAPID key (base64url), for browsers to subscribe with.
    pub fn public_key(&self) -> &str {
        self.keys.public_key()
    }

    /// The port the actors alert through.
    pub fn alerts(&self) -> Arc<dyn Alerts> {
        self.queue.clone()
    }

    /// Spends one of `ip`'s subscription requests, or says how long until it may.
    pub fn may_subscribe(&self, ip: IpKey) -> Result<(), Duration> {
        self.subscribe.take(ip)
    }

    /// Checks a browser's subscription (endpoint, keys) as a client sent it: the subscription
    /// to keep, its endpoint in normal form.
    pub async fn check(
        &self,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        lang: Lang,
    ) -> Result<Subscription, PushError> {
        send::check_keys(p256dh, auth).map_err(PushError::Keys)?;
        let url = self.guard.check(endpoint).await?;
        Ok(Subscription {
            endpoint: url.to_string(),
            p256dh: p256dh.to_string(),
            auth: auth.to_string(),
            lang,
        })
    }

    /// Keeps a checked subscription for a seat (the oldest of the seat's go past the cap),
    /// made from `ip`: the pushes to it count against that address's bound.
    pub async fn subscribe(
        &self,
        game: Uuid,
        player: Player,
        sub: &Subscription,
        ip: IpKey,
    ) -> Result<(), PushError> {
        subscriptions::keep(self.store.pool(), game, player, sub, self.per_seat_max).await?;
        self.lanes.subscribed_by(&sub.endpoint, ip);
        Ok(())
    }

    /// Pushes waiting or in flight, in all.
    pub fn queued(&self) -> usize {
        self.lanes.queued()
    }

    /// Stops a seat's subscription at `endpoint` (its normal form, or as the client sent it);
    /// whether there was one.
    pub async fn unsubscribe(
        &self,
        game: Uuid,
        player: Player,
        endpoint: &str,
    ) -> Result<bool, PushError> {
        let normal = self
            .guard
            .parse(endpoint)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| endpoint.to_string());
        let pool = self.store.pool();
        let mut removed = subscriptions::remove(pool, game, player, &normal).await?;
        if normal != endpoint {
            removed |= subscriptions::remove(pool, game, player, endpoint).await?;
        }
        Ok(removed)
    }

    /// Forgets every subscription of a seat whose token changed hands (a claim, a new invite):
    /// the browsers of its former holder are no longer told about it.
    pub async fn forget_seat(&self, game: Uuid, player: Player) -> Result<u64, PushError> {
        Ok(subscriptions::remove_seat(self.store.pool(), game, player).await?)
    }

    /// Keeps a checked subscription for a circle's member (at most as many per member as per
    /// seat: the oldest go), made from `ip`.
    pub async fn subscribe_member(
        &self,
        circle: Uuid,
        member: Uuid,
        sub: &Subscription,
        ip: IpKey,
    ) -> Result<(), PushError> {
        members::keep(self.store.pool(), circle, member, sub, self.per_seat_max).await?;
        self.lanes.subscribed_by(&sub.endpoint, ip);
        Ok(())
    }

    /// Stops a member's subscription at `endpoint`; whether there was one.
    pub async fn unsubscribe_member(
        &self,
        member: Uuid,
        endpoint: &str,
    ) -> Result<bool, PushError> {
        let normal = self
            .guard
            .parse(endpoint)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| endpoint.to_string());
        let pool = self.store.pool();
        let mut removed = members::remove(pool, member, &normal).await?;
        if normal != endpoint {
            removed |= members::remove(pool, member, endpoint).await?;
        }
        Ok(removed)
    }

    /// How many subscriptions a member has (operations and tests).
    pub async fn member_subscriptions(&self, member: Uuid) -> Result<usize, PushError> {
        Ok(members::count(self.store.pool(), member).await?)
    }

    /// Tells the circle's members (but `by`, who made it) that `by_name` created `game` in
    /// `circle_name`: one `circle_game` push to each of their subscriptions, queued in the
    /// endpoints' lanes (never waited for), each member at most at a seat's rate.
    pub async fn circle_game(
        &self,
        circle: Uuid,
        circle_name: &str,
        game: Uuid,
        by: Uuid,
        by_name: &str,
    ) {
        let subs = match members::of_circle(self.store.pool(), circle, by).await {
            Ok(subs) => subs,
            Err(e) => {
                tracing::warn!(%circle, error = %e, "could not read the members' push subscriptions");
                return;
            }
        };
        let mut told: Vec<Uuid> = Vec::new();
        for (member, sub) in subs {
            if !told.contains(&member) {
                if self.per_member.check_key(&member).is_err() {
                    tracing::debug!(%circle, %member, "member past their push rate: dropped");
                    continue;
                }
                told.push(member);
            }
            let (title, body) = texts::circle_words(sub.lang, circle_name, by_name);
            // No secret: the ids (the pages need a key to read) and the words.
            let payload = serde_json::json!({
                "game": game,
                "circle": circle,
                "kind": "circle_game",
                "title": title,
                "body": body,
            })
            .to_string();
            self.lanes.queue(lanes::Delivery {
                game,
                to: lanes::Recipient::Member { circle, member },
                sub,
                payload,
            });
        }
    }

    /// A seat's subscriptions, newest first (operations and tests).
    pub async fn subscriptions(
        &self,
        game: Uuid,
        player: Player,
    ) -> Result<Vec<Subscription>, PushError> {
        Ok(subscriptions::of_seat(self.store.pool(), game, player).await?)
    }

    /// How many subscriptions each seat of `game` has.
    pub async fn counts(&self, game: Uuid) -> Result<Vec<(Player, usize)>, PushError> {
        Ok(subscriptions::count(self.store.pool(), game).await?)
    }
}
