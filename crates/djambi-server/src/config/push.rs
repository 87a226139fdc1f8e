//! Web Push's flags (`push`, docs/SELF_HOSTING.md "Push notifications").

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

/// Web Push (`push`).
#[derive(Clone, Debug, Args)]
pub struct PushFlags {
    /// Accept `http(s)://127.0.0.1:PORT/…` push endpoints too (tests and development only:
    /// otherwise only https endpoints on public addresses are accepted).
    #[arg(
        long,
        env = "DJAMBI_PUSH_ALLOW_LOOPBACK",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub push_allow_loopback: bool,

    /// A file holding the server's VAPID private key (base64url), made there if missing; for
    /// several nodes without a shared database row. Default: kept in the database.
    #[arg(long, env = "DJAMBI_PUSH_VAPID_FILE")]
    pub push_vapid_file: Option<PathBuf>,

    /// Who push services may contact about this server's pushes (the VAPID `sub`): a
    /// `mailto:` or `https:` URL. Default: the public URL.
    #[arg(long, env = "DJAMBI_PUSH_CONTACT")]
    pub push_contact: Option<String>,

    /// Alerts waiting to be pushed; when full, new ones are dropped (and counted).
    #[arg(long, env = "DJAMBI_PUSH_QUEUE", default_value_t = 1024)]
    pub push_queue: usize,

    /// Pushes sent at once in all (each endpoint gets one at a time, so a stalled one holds
    /// one of these for at most `--push-timeout-secs`).
    #[arg(long, env = "DJAMBI_PUSH_SENDERS", default_value_t = 64)]
    pub push_senders: usize,

    /// Seconds a push service has to answer one push (connecting included); an endpoint that
    /// fails or times out 3 times in a row is deleted.
    #[arg(long, env = "DJAMBI_PUSH_TIMEOUT_SECS", default_value_t = 5)]
    pub push_timeout_secs: u64,

    /// Seconds a push service keeps a push for a browser that is offline (its `TTL`).
    #[arg(long, env = "DJAMBI_PUSH_TTL_SECS", default_value_t = 24 * 3600)]
    pub push_ttl_secs: u64,

    /// Pushes one seat may receive at once (then `--push-seat-per-minute`); more are dropped.
    #[arg(long, env = "DJAMBI_PUSH_SEAT_BURST", default_value_t = 5)]
    pub push_seat_burst: u32,

    /// Pushes one seat may receive per minute, after its burst.
    #[arg(long, env = "DJAMBI_PUSH_SEAT_PER_MINUTE", default_value_t = 12)]
    pub push_seat_per_minute: u32,

    /// Browsers subscribed to one seat; a new one replaces the oldest.
    #[arg(long, env = "DJAMBI_PUSH_SUBSCRIPTIONS_PER_SEAT", default_value_t = 5)]
    pub push_subscriptions_per_seat: usize,

    /// Subscriptions (and unsubscriptions) one address may make at once (then
    /// `--push-subscribe-per-minute`).
    #[arg(long, env = "DJAMBI_PUSH_SUBSCRIBE_BURST", default_value_t = 20)]
    pub push_subscribe_burst: u32,

    /// Subscriptions one address may make per minute, after its burst.
    #[arg(long, env = "DJAMBI_PUSH_SUBSCRIBE_PER_MINUTE", default_value_t = 30)]
    pub push_subscribe_per_minute: u32,
}

impl PushFlags {
    /// How long a push service has to answer.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.push_timeout_secs.max(1))
    }

    /// How long a push service keeps a push.
    pub fn ttl(&self) -> Duration {
        Duration::from_secs(self.push_ttl_secs)
    }

    /// No per-address limit on subscriptions (load generators and tests).
    pub fn unlimited(&mut self) {
        self.push_subscribe_burst = u32::MAX;
        self.push_subscribe_per_minute = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::super::Config;
    use clap::Parser;

    #[test]
    fn the_loopback_flag_is_off_unless_asked() {
        assert!(
            !Config::parse_from(["djambi-server"])
                .push
                .push_allow_loopback
        );
        let on = Config::parse_from(["djambi-server", "--push-allow-loopback"]);
        assert!(on.push.push_allow_loopback);
    }
}
