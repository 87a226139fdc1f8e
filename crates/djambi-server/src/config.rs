//! Configuration: command-line flags, each also read from an environment variable.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// The Djambi Online game server: serves the browser client, the HTTP API and live games over
/// WebSocket, and stores every game in SQLite or Postgres.
#[derive(Clone, Debug, Parser)]
#[command(name = "djambi-server", version, about, long_about = None)]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "DJAMBI_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Database URL: `sqlite:PATH` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:./djambi.db")]
    pub database_url: String,

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

    /// Largest HTTP request body, in bytes (an imported game record included).
    #[arg(long, env = "DJAMBI_MAX_BODY_BYTES", default_value_t = 256 * 1024)]
    pub max_body_bytes: usize,

    /// Largest WebSocket message from a client, in bytes; larger ones are answered `too_large`.
    #[arg(long, env = "DJAMBI_MAX_MESSAGE_BYTES", default_value_t = 4096)]
    pub max_message_bytes: usize,

    /// Longest chat message or whisper, in characters.
    #[arg(long, env = "DJAMBI_MAX_CHAT_CHARS", default_value_t = 500)]
    pub max_chat_chars: usize,

    /// Longest display name, in characters.
    #[arg(long, env = "DJAMBI_MAX_NAME_CHARS", default_value_t = 32)]
    pub max_name_chars: usize,

    /// Most unfinished games at once; creating or importing more is refused (`unavailable`).
    #[arg(long, env = "DJAMBI_MAX_LIVE_GAMES", default_value_t = 10_000)]
    pub max_live_games: usize,

    /// Most sockets on one game (players and spectators together).
    #[arg(long, env = "DJAMBI_MAX_CONNECTIONS_PER_GAME", default_value_t = 200)]
    pub max_connections_per_game: usize,

    /// Messages a client may send per second (a burst of twice as many is allowed).
    #[arg(long, env = "DJAMBI_RATE_LIMIT", default_value_t = 20)]
    pub rate_limit: u32,

    /// Outgoing frames queued per connection; when full, that connection (only) waits, and if
    /// it falls further behind than the event buffer it is resynced.
    #[arg(long, env = "DJAMBI_CONNECTION_QUEUE", default_value_t = 64)]
    pub connection_queue: usize,

    /// Seconds one frame may take to reach a client before the connection is dropped as dead.
    #[arg(long, env = "DJAMBI_WRITE_TIMEOUT_SECS", default_value_t = 10)]
    pub write_timeout_secs: u64,

    /// Messages each game buffers for its connections; a connection further behind is resynced.
    #[arg(long, env = "DJAMBI_EVENT_BUFFER", default_value_t = 128)]
    pub event_buffer: usize,

    /// Recent events each game keeps serialised in memory for reconnecting clients.
    #[arg(long, env = "DJAMBI_REPLAY_MEMORY", default_value_t = 64)]
    pub replay_memory: usize,

    /// Most missed events sent to a reconnecting client (rebuilt from the database beyond the
    /// memory); further behind, it gets a snapshot.
    #[arg(long, env = "DJAMBI_MAX_CATCHUP", default_value_t = 1000)]
    pub max_catchup: u64,

    /// Most commands (from any games) committed in one database transaction.
    #[arg(long, env = "DJAMBI_COMMIT_BATCH", default_value_t = 64)]
    pub commit_batch: usize,

    /// Database connections in the pool.
    #[arg(long, env = "DJAMBI_DB_CONNECTIONS", default_value_t = 8)]
    pub db_connections: u32,

    /// Seconds a finished game with nobody connected stays in memory.
    #[arg(long, env = "DJAMBI_IDLE_SECS", default_value_t = 300)]
    pub idle_secs: u64,

    /// Seconds to wait for in-flight work when shutting down.
    #[arg(long, env = "DJAMBI_SHUTDOWN_SECS", default_value_t = 10)]
    pub shutdown_secs: u64,
}

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
        config.database_url = database_url.to_string();
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

    /// How long a finished, unwatched game stays in memory.
    pub fn idle(&self) -> Duration {
        Duration::from_secs(self.idle_secs)
    }

    /// How long shutdown waits for in-flight work.
    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_secs)
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
    fn base_url_defaults_to_localhost() {
        let c = Config::parse_from(["djambi-server", "--bind", "0.0.0.0:9000"]);
        assert_eq!(c.base_url(), "http://localhost:9000");
        let c = Config::parse_from(["djambi-server", "--public-url", "https://djambi.example/"]);
        assert_eq!(c.base_url(), "https://djambi.example");
    }
}
