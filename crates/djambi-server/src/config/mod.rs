//! Configuration: command-line flags, each also read from an environment variable, grouped by
//! the part of the server they configure (each group is handed to its part as a whole).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

mod address;
mod parts;
mod push;

pub use address::Reachable;
pub use parts::{
    AnalysisFlags, BotFlags, BudgetFlags, ClusterFlags, GameFlags, NetFlags, SocketFlags,
    StoreFlags,
};
pub use push::PushFlags;

/// The Djambi Online game server: serves the browser client, the HTTP API and live games over
/// WebSocket, and stores every game in SQLite or Postgres.
#[derive(Clone, Debug, Parser)]
#[command(name = "djambi-server", version, about, long_about = None)]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "DJAMBI_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Public base URL used in game and invite links (default: http:// and the bind address,
    /// with `localhost` for an unspecified or loopback address).
    #[arg(long, env = "DJAMBI_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Directory of the browser client (default: `web` in the current directory, else the
    /// `web` folder of the source tree).
    #[arg(long, env = "DJAMBI_WEB_DIR")]
    pub web_dir: Option<PathBuf>,

    /// Log format.
    #[arg(long, env = "DJAMBI_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Log filter (tracing `EnvFilter` syntax, e.g. `info,djambi_server=debug`).
    #[arg(long, env = "RUST_LOG", default_value = "info")]
    pub log: String,

    /// The server runs in a container (the image sets it; also detected from `/.dockerenv` and
    /// `/run/.containerenv`): it then never guesses a network address for the links it logs,
    /// since the container's own address is not one that players can open.
    #[arg(
        long,
        env = "DJAMBI_IN_CONTAINER",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub in_container: bool,

    /// Instead of serving: asks the server listening on `--bind` (on this machine) for
    /// `/readyz` and exits 0 when it answers 200, 1 otherwise (the container's healthcheck).
    #[arg(long)]
    pub healthcheck: bool,

    /// Seconds to wait for in-flight work when shutting down.
    #[arg(long, env = "DJAMBI_SHUTDOWN_SECS", default_value_t = 10)]
    pub shutdown_secs: u64,

    /// The database (`store`).
    #[command(flatten)]
    pub store: StoreFlags,

    /// Connections and HTTP requests (`net`, `http`).
    #[command(flatten)]
    pub net: NetFlags,

    /// What one client address may spend (`net::budget`).
    #[command(flatten)]
    pub budgets: BudgetFlags,

    /// Each WebSocket connection (`ws`).
    #[command(flatten)]
    pub sockets: SocketFlags,

    /// Live games and their caps (`game`).
    #[command(flatten)]
    pub games: GameFlags,

    /// The bots' threads (`game::bots`).
    #[command(flatten)]
    pub bots: BotFlags,

    /// Post-game analysis (`analysis`).
    #[command(flatten)]
    pub analysis: AnalysisFlags,

    /// Several nodes (`cluster`, docs/SCALING.md).
    #[command(flatten)]
    pub cluster: ClusterFlags,

    /// Web Push (`push`).
    #[command(flatten)]
    pub push: PushFlags,

    /// An administrator's task instead of serving (none: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// An administrator's task, run against the database of `--database-url`, instead of serving.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Circles of friends (docs/CIRCLES.md).
    #[command(subcommand)]
    Circles(CirclesCommand),
}

/// What to do with the circles.
#[derive(Clone, Debug, Subcommand)]
pub enum CirclesCommand {
    /// Computes every circle's places and standings again from scratch, from the games' event
    /// logs, and reports whatever differs from what is stored and served (exit status 0: the
    /// same; 3: something differs).
    Recompute {
        /// Only this circle (its id).
        #[arg(long)]
        circle: Option<uuid::Uuid>,
        /// Also store the recomputed places where they differ (or are missing).
        #[arg(long)]
        repair: bool,
    },
}

/// The database password `.env.example` ships with, which must be changed.
pub const PLACEHOLDER_PASSWORD: &str = "change-me-to-a-long-random-string";

/// How logs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl Config {
    /// The configuration with every default (as if run without flags or environment), for
    /// tests and tools; the database URL is given.
    pub fn for_database(database_url: &str) -> Config {
        let mut config = Config::parse_from(["djambi-server"]);
        config.store.database_url = database_url.to_string();
        config.bind = "127.0.0.1:0".parse().expect("a valid address");
        config
    }

    /// The public base URL, without a trailing slash.
    pub fn base_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => {
                let ip = self.bind.ip();
                let host = if ip.is_unspecified() || ip.is_loopback() {
                    "localhost".to_string()
                } else {
                    ip.to_string()
                };
                format!("http://{host}:{}", self.bind.port())
            }
        }
    }

    /// The directory of the browser client.
    pub fn web_dir(&self) -> PathBuf {
        if let Some(dir) = &self.web_dir {
            return dir.clone();
        }
        let here = PathBuf::from("web");
        if here.is_dir() {
            return here;
        }
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"))
    }

    /// How long shutdown waits for in-flight work.
    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_secs)
    }

    /// Refuses settings that cannot be meant: the database password still the placeholder of
    /// `.env.example` (a server must not run with a published password).
    pub fn check(&self) -> Result<(), String> {
        let password = self
            .store
            .database_url
            .split_once("://")
            .and_then(|(_, rest)| rest.split_once('@'))
            .and_then(|(credentials, _)| credentials.split_once(':'))
            .map(|(_, password)| password);
        if self.cluster.nats.is_some() && !self.store.database_url.starts_with("postgres") {
            return Err(
                "--nats (several nodes) needs a Postgres database shared by the nodes: set \
                 --database-url postgres://…"
                    .into(),
            );
        }
        if self.cluster.nats.is_some() && self.cluster.lease_secs < 1 {
            return Err("--lease-secs: at least 1".into());
        }
        if password.is_some_and(|p| p == PLACEHOLDER_PASSWORD || p.starts_with("change-me")) {
            return Err(format!(
                "the database password is still the placeholder of .env.example ({PLACEHOLDER_PASSWORD}): \
                 set POSTGRES_PASSWORD in .env to a long random string (e.g. `openssl rand -hex 24`)"
            ));
        }
        Ok(())
    }

    /// Makes every per-address limit as large as it goes: for load generators and tests that
    /// open thousands of games and sockets from one machine.
    pub fn without_address_limits(&mut self) {
        self.net.max_connections_per_ip = usize::MAX;
        self.net.max_connections = usize::MAX;
        self.games.max_games_per_ip = usize::MAX;
        self.games.max_open_games_per_ip = usize::MAX;
        self.games.max_bot_games_per_ip = usize::MAX;
        self.budgets.unlimited();
        self.push.unlimited();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_option_is_documented() {
        Config::command().debug_assert();
        for arg in Config::command().get_arguments() {
            assert!(arg.get_help().is_some(), "{} has no help", arg.get_id());
        }
    }

    #[test]
    fn the_placeholder_password_is_refused() {
        let c = Config::parse_from([
            "djambi-server",
            "--database-url",
            "postgres://djambi:change-me-to-a-long-random-string@db:5432/djambi",
        ]);
        assert!(c.check().unwrap_err().contains("placeholder"));
        let c = Config::parse_from([
            "djambi-server",
            "--database-url",
            "postgres://djambi:9f1c2e7a@db:5432/djambi",
        ]);
        assert!(c.check().is_ok());
        assert!(Config::parse_from(["djambi-server"]).check().is_ok());
    }

    #[test]
    fn the_circles_command_parses_and_serving_stays_the_default() {
        assert!(Config::parse_from(["djambi-server"]).command.is_none());
        let c = Config::parse_from([
            "djambi-server",
            "--database-url",
            "sqlite:x.db",
            "circles",
            "recompute",
            "--circle",
            "6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f",
        ]);
        match c.command {
            Some(Command::Circles(CirclesCommand::Recompute { circle, repair })) => {
                assert!(circle.is_some());
                assert!(!repair);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(c.store.database_url, "sqlite:x.db");
    }

    #[test]
    fn several_nodes_need_postgres() {
        let c = Config::parse_from(["djambi-server", "--nats", "nats://127.0.0.1:4222"]);
        assert!(c.check().unwrap_err().contains("Postgres"));
        let c = Config::parse_from([
            "djambi-server",
            "--nats",
            "nats://127.0.0.1:4222",
            "--database-url",
            "postgres://postgres@127.0.0.1/djambi",
        ]);
        assert!(c.check().is_ok());
    }

    #[test]
    fn base_url_defaults_to_localhost() {
        let c = Config::parse_from(["djambi-server", "--bind", "0.0.0.0:9000"]);
        assert_eq!(c.base_url(), "http://localhost:9000");
        let c = Config::parse_from(["djambi-server", "--public-url", "https://djambi.example/"]);
        assert_eq!(c.base_url(), "https://djambi.example");
    }
}
