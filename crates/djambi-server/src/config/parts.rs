//! The configuration's groups, one per part of the server: each is a set of flags (clap,
//! flattened into [`Config`](super::Config)) and is handed as a whole to the part it
//! configures.

use std::time::Duration;

use clap::Args;

use crate::analysis::AnalysisSettings;
use crate::game::{Limits, RegistryLimits};
use crate::net::budget::{Allowance, BudgetConfig};
use crate::net::{ConnLimits, TrustedProxies};
use crate::store::StoreOptions;

/// The database (`store`).
#[derive(Clone, Debug, Args)]
pub struct StoreFlags {
    /// Database URL: `sqlite:PATH` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:./djambi.db")]
    pub database_url: String,

    /// Most commands (from any games) committed in one database transaction.
    #[arg(long, env = "DJAMBI_COMMIT_BATCH", default_value_t = 64)]
    pub commit_batch: usize,

    /// Database connections in the pool.
    #[arg(long, env = "DJAMBI_DB_CONNECTIONS", default_value_t = 8)]
    pub db_connections: u32,

    /// Seconds to wait for a database connection; while the database is down, commands are
    /// refused (`internal`, nothing changes) after this long, and it reconnects by itself.
    #[arg(long, env = "DJAMBI_DB_TIMEOUT_SECS", default_value_t = 3)]
    pub db_timeout_secs: u64,
}

/// Connections and HTTP requests (`net`, `http`).
#[derive(Clone, Debug, Args)]
pub struct NetFlags {
    /// Largest HTTP request body, in bytes (an imported game record included).
    #[arg(long, env = "DJAMBI_MAX_BODY_BYTES", default_value_t = 256 * 1024)]
    pub max_body_bytes: usize,

    /// Reverse proxies whose `X-Forwarded-For` is believed: a comma-separated list of
    /// addresses or networks (`127.0.0.1,10.0.0.0/8`). Without it the peer is the client.
    #[arg(long, env = "DJAMBI_TRUSTED_PROXY", value_parser = TrustedProxies::parse, default_value = "")]
    pub trusted_proxy: TrustedProxies,

    /// Seconds a client has to send a request's headers; an idle keep-alive connection is
    /// closed after as long.
    #[arg(long, env = "DJAMBI_HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub header_read_timeout_secs: u64,

    /// Most open connections (HTTP and WebSocket) in all.
    #[arg(long, env = "DJAMBI_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,

    /// Most open connections from one client address (an IPv6 /64 counts as one address).
    #[arg(long, env = "DJAMBI_MAX_CONNECTIONS_PER_IP", default_value_t = 1024)]
    pub max_connections_per_ip: usize,
}

/// What one client address may spend (`net::budget`).
#[derive(Clone, Debug, Args)]
pub struct BudgetFlags {
    /// Games one address may create or import at once (then `--create-per-minute`).
    #[arg(long, env = "DJAMBI_CREATE_BURST", default_value_t = 100)]
    pub create_burst: u32,

    /// Games one address may create or import per minute, after its burst.
    #[arg(long, env = "DJAMBI_CREATE_PER_MINUTE", default_value_t = 12)]
    pub create_per_minute: u32,

    /// WebSockets one address may open at once (then `--ws-connect-per-minute`).
    #[arg(long, env = "DJAMBI_WS_CONNECT_BURST", default_value_t = 300)]
    pub ws_connect_burst: u32,

    /// WebSockets one address may open per minute, after its burst.
    #[arg(long, env = "DJAMBI_WS_CONNECT_PER_MINUTE", default_value_t = 1800)]
    pub ws_connect_per_minute: u32,

    /// KiB of catch-up (snapshots and resent events) one address may receive at once.
    #[arg(long, env = "DJAMBI_CATCHUP_BURST_KIB", default_value_t = 16 * 1024)]
    pub catchup_burst_kib: u32,

    /// KiB of catch-up one address may receive per minute, after its burst.
    #[arg(long, env = "DJAMBI_CATCHUP_KIB_PER_MINUTE", default_value_t = 120 * 1024)]
    pub catchup_kib_per_minute: u32,

    /// Wrong seat tokens one address may present at once (claims and `hello`).
    #[arg(long, env = "DJAMBI_BAD_TOKEN_BURST", default_value_t = 10)]
    pub bad_token_burst: u32,

    /// Wrong seat tokens one address may present per minute, after its burst.
    #[arg(long, env = "DJAMBI_BAD_TOKEN_PER_MINUTE", default_value_t = 10)]
    pub bad_token_per_minute: u32,

    /// Pages of game history (`/api/games/{id}/events`) one address may read at once.
    #[arg(long, env = "DJAMBI_HISTORY_BURST", default_value_t = 60)]
    pub history_burst: u32,

    /// Pages of game history one address may read per minute, after its burst.
    #[arg(long, env = "DJAMBI_HISTORY_PER_MINUTE", default_value_t = 120)]
    pub history_per_minute: u32,

    /// Position and puzzle requests (lessons and puzzles) one address may make at once.
    #[arg(long, env = "DJAMBI_POSITIONS_BURST", default_value_t = 300)]
    pub positions_burst: u32,

    /// Position and puzzle requests one address may make per minute, after its burst.
    #[arg(long, env = "DJAMBI_POSITIONS_PER_MINUTE", default_value_t = 600)]
    pub positions_per_minute: u32,

    /// Engine hints ("show a good turn") one address may ask for at once.
    #[arg(long, env = "DJAMBI_HINT_BURST", default_value_t = 10)]
    pub hint_burst: u32,

    /// Engine hints one address may ask for per minute, after its burst.
    #[arg(long, env = "DJAMBI_HINT_PER_MINUTE", default_value_t = 20)]
    pub hint_per_minute: u32,

    /// Units of analysis requests one address may spend at once: a request costs 1, one that
    /// starts an analysis 10 (then `--analysis-per-minute`).
    #[arg(long, env = "DJAMBI_ANALYSIS_BURST", default_value_t = 60)]
    pub analysis_burst: u32,

    /// Units of analysis requests one address may spend per minute, after its burst.
    #[arg(long, env = "DJAMBI_ANALYSIS_PER_MINUTE", default_value_t = 60)]
    pub analysis_per_minute: u32,

    /// KiB of games one address may have stored by imports at once, each import weighted by
    /// its size (its events, about 128 bytes each), finished ones included (then
    /// `--import-kib-per-minute`).
    #[arg(long, env = "DJAMBI_IMPORT_BURST_KIB", default_value_t = 1024)]
    pub import_burst_kib: u32,

    /// KiB of imported games one address may store per minute, after its burst.
    #[arg(long, env = "DJAMBI_IMPORT_KIB_PER_MINUTE", default_value_t = 256)]
    pub import_kib_per_minute: u32,

    /// Reads of a game that is not in memory (its snapshot, record or socket: the server loads
    /// and replays it) one address may make at once (then `--load-per-minute`).
    #[arg(long, env = "DJAMBI_LOAD_BURST", default_value_t = 30)]
    pub load_burst: u32,

    /// Reads that load a game one address may make per minute, after its burst.
    #[arg(long, env = "DJAMBI_LOAD_PER_MINUTE", default_value_t = 30)]
    pub load_per_minute: u32,

    /// Circles one address may create at once (then `--circle-create-per-minute`).
    #[arg(long, env = "DJAMBI_CIRCLE_CREATE_BURST", default_value_t = 10)]
    pub circle_create_burst: u32,

    /// Circles one address may create per minute, after its burst.
    #[arg(long, env = "DJAMBI_CIRCLE_CREATE_PER_MINUTE", default_value_t = 2)]
    pub circle_create_per_minute: u32,

    /// Circle requests (reads of a circle's page or export, joins, a member's changes) one
    /// address may make at once (then `--circle-read-per-minute`).
    #[arg(long, env = "DJAMBI_CIRCLE_READ_BURST", default_value_t = 60)]
    pub circle_read_burst: u32,

    /// Circle requests one address may make per minute, after its burst.
    #[arg(long, env = "DJAMBI_CIRCLE_READ_PER_MINUTE", default_value_t = 120)]
    pub circle_read_per_minute: u32,
}

/// Each WebSocket connection (`ws`).
#[derive(Clone, Debug, Args)]
pub struct SocketFlags {
    /// Largest WebSocket message from a client, in bytes; larger ones are answered `too_large`.
    #[arg(long, env = "DJAMBI_MAX_MESSAGE_BYTES", default_value_t = 4096)]
    pub max_message_bytes: usize,

    /// Seconds a WebSocket may stay silent: the server pings it after a third of that, and
    /// closes it when nothing at all came back in this time.
    #[arg(long, env = "DJAMBI_WS_IDLE_SECS", default_value_t = 90)]
    pub ws_idle_secs: u64,

    /// Frames (text, binary, ping) a client may send per second (a burst of twice as many is
    /// allowed); a socket that keeps sending past it is closed.
    #[arg(long, env = "DJAMBI_RATE_LIMIT", default_value_t = 20)]
    pub rate_limit: u32,

    /// Chat messages and whispers one socket may send at once (then `--chat-per-minute`).
    #[arg(long, env = "DJAMBI_CHAT_BURST", default_value_t = 5)]
    pub chat_burst: u32,

    /// Chat messages and whispers one socket may send per minute, after its burst.
    #[arg(long, env = "DJAMBI_CHAT_PER_MINUTE", default_value_t = 20)]
    pub chat_per_minute: u32,

    /// Seconds one frame may take to reach a client before the connection is dropped as dead.
    #[arg(long, env = "DJAMBI_WRITE_TIMEOUT_SECS", default_value_t = 10)]
    pub write_timeout_secs: u64,
}

/// Live games and their caps (`game`).
#[derive(Clone, Debug, Args)]
pub struct GameFlags {
    /// Longest chat message or whisper, in characters.
    #[arg(long, env = "DJAMBI_MAX_CHAT_CHARS", default_value_t = 500)]
    pub max_chat_chars: usize,

    /// Longest display name, in characters.
    #[arg(long, env = "DJAMBI_MAX_NAME_CHARS", default_value_t = 32)]
    pub max_name_chars: usize,

    /// Most unfinished games at once; creating or importing more is refused (`unavailable`).
    #[arg(long, env = "DJAMBI_MAX_LIVE_GAMES", default_value_t = 10_000)]
    pub max_live_games: usize,

    /// Most spectator sockets on one game (seats always get in; they have their own cap).
    #[arg(long, env = "DJAMBI_MAX_SPECTATORS_PER_GAME", default_value_t = 1000)]
    pub max_spectators_per_game: usize,

    /// Most sockets playing one seat; a new one closes the seat's oldest.
    #[arg(long, env = "DJAMBI_MAX_SOCKETS_PER_SEAT", default_value_t = 4)]
    pub max_sockets_per_seat: usize,

    /// Unfinished games created by one address at once (open and live).
    #[arg(long, env = "DJAMBI_MAX_GAMES_PER_IP", default_value_t = 200)]
    pub max_games_per_ip: usize,

    /// Games created by one address still waiting for players at once.
    #[arg(long, env = "DJAMBI_MAX_OPEN_GAMES_PER_IP", default_value_t = 20)]
    pub max_open_games_per_ip: usize,

    /// Unfinished games with bots created by one address at once (bots cost the server their
    /// think time per turn).
    #[arg(long, env = "DJAMBI_MAX_BOT_GAMES_PER_IP", default_value_t = 3)]
    pub max_bot_games_per_ip: usize,

    /// Finished games kept loaded in memory at once (read by their replays and records);
    /// loading one more unloads the one read longest ago that nobody watches.
    #[arg(long, env = "DJAMBI_MAX_LOADED_FINISHED", default_value_t = 64)]
    pub max_loaded_finished: usize,

    /// Hours a game waiting for players may go untouched (no claim, no chat) before it
    /// expires (cancelled).
    #[arg(long, env = "DJAMBI_EXPIRE_OPEN_HOURS", default_value_t = 168)]
    pub expire_open_hours: u64,

    /// Chat messages and whispers one game accepts at once, from everyone together.
    #[arg(long, env = "DJAMBI_GAME_CHAT_BURST", default_value_t = 20)]
    pub game_chat_burst: u32,

    /// Chat messages and whispers one game accepts per minute, after its burst.
    #[arg(long, env = "DJAMBI_GAME_CHAT_PER_MINUTE", default_value_t = 60)]
    pub game_chat_per_minute: u32,

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

    /// Seconds a player must be away on its turn before the others may vote to hand its seat
    /// to a bot or make it resign.
    #[arg(long, env = "DJAMBI_ABSENT_GRACE_SECS", default_value_t = 120)]
    pub absent_grace_secs: u64,

    /// The shortest correspondence deadline a game may ask for, in seconds.
    #[arg(long, env = "DJAMBI_MIN_TURN_DEADLINE_SECS", default_value_t = 3600)]
    pub min_turn_deadline_secs: u64,

    /// Seconds a finished game with nobody connected stays in memory.
    #[arg(long, env = "DJAMBI_IDLE_SECS", default_value_t = 300)]
    pub idle_secs: u64,

    /// Present members one circle may have (docs/CIRCLES.md); it keeps four times as many
    /// rows of members, present and past.
    #[arg(long, env = "DJAMBI_MAX_CIRCLE_MEMBERS", default_value_t = 64)]
    pub max_circle_members: usize,
}

/// The bots' threads (`game::bots`).
#[derive(Clone, Debug, Args)]
pub struct BotFlags {
    /// Threads the bots think on (default: every core of the machine; they run at the lowest
    /// priority, so people's requests still come first).
    #[arg(long, env = "DJAMBI_BOT_THREADS")]
    pub bot_threads: Option<usize>,

    /// Hints waiting for a bot thread at once (default: four per thread); past it, a hint of
    /// an address that used the threads more lately gives its place, else the newcomer is
    /// refused (`unavailable`, retry).
    #[arg(long, env = "DJAMBI_HINT_QUEUE")]
    pub hint_queue: Option<usize>,

    /// Each bot thread's transposition table, in MiB.
    #[arg(long, env = "DJAMBI_BOT_HASH_MB", default_value_t = 16)]
    pub bot_hash_mb: usize,
}

/// Post-game analysis (`analysis`), on the bots' threads.
#[derive(Clone, Debug, Args)]
pub struct AnalysisFlags {
    /// Most analyses waiting or running at once; more are refused (`unavailable`, retry).
    #[arg(long, env = "DJAMBI_ANALYSIS_QUEUE", default_value_t = 16)]
    pub analysis_queue: usize,

    /// Most analyses running at once (each on one bot thread at a time, below every bot).
    #[arg(long, env = "DJAMBI_ANALYSIS_CONCURRENCY", default_value_t = 1)]
    pub analysis_concurrency: usize,

    /// Turns of analyses waiting or running at once (an analysis costs its game's turns); one
    /// address may hold a quarter of them and of `--analysis-queue` (its first analysis
    /// always fits an empty queue).
    #[arg(long, env = "DJAMBI_ANALYSIS_QUEUE_TURNS", default_value_t = 4000)]
    pub analysis_queue_turns: u32,
}

/// Several nodes (`cluster`, docs/SCALING.md).
#[derive(Clone, Debug, Args)]
pub struct ClusterFlags {
    /// NATS server URL (`nats://HOST:4222`, credentials as `nats://USER:PASSWORD@HOST:4222`):
    /// run as one node of several over the same Postgres database (docs/SCALING.md). Without
    /// it the server is alone and needs no broker.
    #[arg(long, env = "DJAMBI_NATS_URL")]
    pub nats: Option<String>,

    /// This node's name in the cluster (default: the host name); each start adds its own
    /// suffix, so a restarted node is a new one to the others.
    #[arg(long, env = "DJAMBI_NODE_NAME")]
    pub node_name: Option<String>,

    /// Seconds a node's lease lasts (with `--nats`): a node that cannot renew it for this long
    /// stops running its games, and the other nodes take them over once it has expired.
    #[arg(long, env = "DJAMBI_LEASE_SECS", default_value_t = 5)]
    pub lease_secs: u64,
}

impl StoreFlags {
    /// The store's options; with several nodes, `lease` bounds its transactions and locks.
    pub fn options(&self, lease: Option<Duration>) -> StoreOptions {
        StoreOptions {
            max_connections: self.db_connections,
            commit_batch: self.commit_batch,
            connect_timeout: Duration::from_secs(self.db_timeout_secs.max(1)),
            cluster_lease: lease,
        }
    }
}

impl NetFlags {
    /// The connection caps.
    pub fn conn_limits(&self) -> ConnLimits {
        ConnLimits {
            max_total: self.max_connections,
            max_per_ip: self.max_connections_per_ip,
        }
    }

    /// How long a client has to send a request's headers.
    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_secs(self.header_read_timeout_secs.max(1))
    }
}

impl BudgetFlags {
    /// The per-address budgets.
    pub fn budgets(&self) -> BudgetConfig {
        let allowance = |burst, per_minute| Allowance { burst, per_minute };
        BudgetConfig {
            create: allowance(self.create_burst, self.create_per_minute),
            ws_connect: allowance(self.ws_connect_burst, self.ws_connect_per_minute),
            catchup_kib: allowance(self.catchup_burst_kib, self.catchup_kib_per_minute),
            bad_token: allowance(self.bad_token_burst, self.bad_token_per_minute),
            history: allowance(self.history_burst, self.history_per_minute),
            positions: allowance(self.positions_burst, self.positions_per_minute),
            hint: allowance(self.hint_burst, self.hint_per_minute),
            analysis: allowance(self.analysis_burst, self.analysis_per_minute),
            import_kib: allowance(self.import_burst_kib, self.import_kib_per_minute),
            load: allowance(self.load_burst, self.load_per_minute),
            circle_create: allowance(self.circle_create_burst, self.circle_create_per_minute),
            circle_read: allowance(self.circle_read_burst, self.circle_read_per_minute),
        }
    }

    /// Every budget as large as it goes.
    pub fn unlimited(&mut self) {
        for burst in [
            &mut self.create_burst,
            &mut self.ws_connect_burst,
            &mut self.catchup_burst_kib,
            &mut self.bad_token_burst,
            &mut self.history_burst,
            &mut self.positions_burst,
            &mut self.hint_burst,
            &mut self.analysis_burst,
            &mut self.import_burst_kib,
            &mut self.load_burst,
            &mut self.circle_create_burst,
            &mut self.circle_read_burst,
        ] {
            *burst = u32::MAX / 2;
        }
        for rate in [
            &mut self.create_per_minute,
            &mut self.ws_connect_per_minute,
            &mut self.catchup_kib_per_minute,
            &mut self.bad_token_per_minute,
            &mut self.history_per_minute,
            &mut self.positions_per_minute,
            &mut self.hint_per_minute,
            &mut self.analysis_per_minute,
            &mut self.import_kib_per_minute,
            &mut self.load_per_minute,
            &mut self.circle_create_per_minute,
            &mut self.circle_read_per_minute,
        ] {
            *rate = u32::MAX / 2;
        }
    }
}

impl SocketFlags {
    /// The chat each socket may send.
    pub fn chat(&self) -> Allowance {
        Allowance {
            burst: self.chat_burst,
            per_minute: self.chat_per_minute,
        }
    }

    /// How long one frame may take to write.
    pub fn write_timeout(&self) -> Duration {
        Duration::from_secs(self.write_timeout_secs.max(1))
    }

    /// How long a socket may stay silent.
    pub fn idle(&self) -> Duration {
        Duration::from_secs(self.ws_idle_secs.max(3))
    }
}

impl GameFlags {
    /// The limits every game's actor applies.
    pub fn limits(&self) -> Limits {
        Limits {
            replay_memory: self.replay_memory,
            max_catchup: self.max_catchup,
            event_buffer: self.event_buffer,
            max_chat_chars: self.max_chat_chars,
            max_name_chars: self.max_name_chars,
            max_spectators: self.max_spectators_per_game,
            max_sockets_per_seat: self.max_sockets_per_seat,
            game_chat: Allowance {
                burst: self.game_chat_burst,
                per_minute: self.game_chat_per_minute,
            },
            recent_chat: Limits::default().recent_chat,
            idle: Duration::from_secs(self.idle_secs),
            absent_grace: Duration::from_secs(self.absent_grace_secs),
            min_turn_deadline: Duration::from_secs(self.min_turn_deadline_secs),
        }
    }

    /// The caps on unfinished games.
    pub fn caps(&self) -> RegistryLimits {
        RegistryLimits {
            max_live_games: self.max_live_games,
            max_games_per_ip: self.max_games_per_ip,
            max_open_games_per_ip: self.max_open_games_per_ip,
            max_bot_games_per_ip: self.max_bot_games_per_ip,
            max_loaded_finished: self.max_loaded_finished,
        }
    }

    /// How long a game waiting for players may go untouched.
    pub fn expire_open(&self) -> Duration {
        Duration::from_secs(self.expire_open_hours.saturating_mul(3600))
    }
}

impl BotFlags {
    /// Threads the bots think on.
    pub fn threads(&self) -> usize {
        self.bot_threads
            .unwrap_or_else(crate::game::bots::BotPool::default_threads)
    }

    /// The bot pool's bounds: its threads and tables, and the hint queue.
    pub fn pool(&self) -> crate::game::bots::PoolLimits {
        let mut limits = crate::game::bots::PoolLimits::new(self.threads(), self.hash_bytes());
        if let Some(queue) = self.hint_queue {
            limits.hint_queue = queue;
        }
        limits
    }

    /// Each bot thread's transposition table, in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.bot_hash_mb.saturating_mul(1 << 20)
    }
}

impl AnalysisFlags {
    /// How analyses run.
    pub fn settings(&self) -> AnalysisSettings {
        AnalysisSettings {
            queue: self.analysis_queue.max(1),
            queue_turns: self.analysis_queue_turns.max(1),
            concurrent: self.analysis_concurrency.max(1),
        }
    }
}

impl ClusterFlags {
    /// A node's lease.
    pub fn lease(&self) -> Duration {
        Duration::from_secs(self.lease_secs.max(1))
    }
}
