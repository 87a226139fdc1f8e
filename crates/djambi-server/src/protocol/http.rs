//! The JSON bodies of the HTTP API (PROTOCOL §1–§2).

use std::collections::BTreeMap;

use djambi_core::{Army, Player, ResultRecord, Rules};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::lifecycle::{BotLevel, ClockSpec, OnTimeout};
use super::server::GameStatus;

/// `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// 4, or 3 with a hostage army.
    pub players: u8,
    /// The hostage army of a 3-player game (default green).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostage: Option<Army>,
    /// The ruleset (default: the standard rules).
    #[serde(default)]
    pub rules: Rules,
    /// A start position other than the standard one (DPN, NOTATION §2), read under `rules`;
    /// its players must be `players` (a 3-player position has its hostage army). For lessons,
    /// endgames and tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Preset display names, by seat.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<Player, String>,
    /// Whether free seats may be claimed without an invite (and the game is listed as open).
    #[serde(default)]
    pub open: bool,
    /// Whether `GET /api/games` lists the game (default: `open`). An unlisted game is
    /// watched through its link; `?ids=` still answers for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<bool>,
    /// Whether spectators read the players' public chat (default true); spectators always
    /// talk in their own room.
    #[serde(
        default = "crate::table::settings::yes",
        skip_serializing_if = "crate::table::settings::is_yes"
    )]
    pub players_chat_public: bool,
    /// Seats played by bots from the start, with their levels (never invited).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots: BTreeMap<Player, BotLevel>,
    /// How long each bot thinks, in milliseconds (200–10 000, default 1000): while anyone
    /// watches, a bot's turn comes no sooner than this after the event before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_movetime_ms: Option<u32>,
    /// The clock: `null` (casual), `{"initial_s", "increment_s"}` (live) or `{"per_turn_s"}`
    /// (correspondence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// What a timeout does: `resign` or `bot` (default: `bot` for correspondence, `resign`
    /// for live clocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_timeout: Option<OnTimeout>,
    /// The level of a bot that takes over a seat (timeouts, votes; default `medium`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeover_level: Option<BotLevel>,
    /// Whether every seat may ask the engine for a good turn (default false: only a seat
    /// playing against bots alone may); shown to everyone in the game's settings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// The circle the game is for, with the creating member's key (docs/CIRCLES.md): its
    /// members take its free seats from the circle's page, and it is rated among them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circle: Option<super::circle::CircleAuth>,
}

/// The answer to creating or importing a game: the only time seat tokens are shown.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CreatedGame {
    /// The game's id.
    pub id: Uuid,
    /// The link to watch the game.
    pub url: String,
    /// One invite per seat a person plays (bot seats get none).
    pub seats: Vec<SeatInvite>,
    /// The creator's secret: cancel the game, re-invite a seat or give it to a bot before the
    /// start, sent as `Authorization: Bearer TOKEN` (none for an imported game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
}

/// One seat's invite.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatInvite {
    /// The seat.
    pub player: Player,
    /// Its preset name.
    pub name: Option<String>,
    /// The secret seat token.
    pub token: String,
    /// The link to give to that seat's player (the token rides in the fragment).
    pub invite_url: String,
}

/// `POST /api/games/{id}/seats`: claim a seat.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSeat {
    /// The display name (optional when the seat has a preset name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The invite's token: claims that seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// In an open game without a token (or with `member`): the seat wanted (default: the
    /// first free one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Player>,
    /// A member of the game's circle takes a free seat (without `token` or `name`: the seat
    /// gets the member's name), open game or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<super::circle::MemberAuth>,
}

/// A claimed seat.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClaimedSeat {
    /// The seat.
    pub player: Player,
    /// The display name.
    pub name: String,
    /// The seat token to present on the socket (a new one for a claim without an invite).
    pub token: String,
}

/// `POST /api/games/{id}/seats/check`: which seat an invite's token opens, without claiming
/// it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckInvite {
    /// The invite's token.
    pub token: String,
}

/// The answer to [`CheckInvite`]: the seat the token opens, or none when it is no seat's
/// token (mistyped, or replaced by a new invite or claim). Whether the seat is claimed, and by
/// whom, is in the game's public snapshot.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckedInvite {
    /// The seat, or null.
    pub player: Option<Player>,
}

/// `GET /api/games` query.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only games with this status.
    #[serde(default)]
    pub status: Option<String>,
    /// At most this many games (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Only these games (comma-separated ids, at most 50): a browser's own games.
    #[serde(default)]
    pub ids: Option<String>,
}

/// `GET /api/games`.
#[derive(Clone, Debug, Serialize)]
pub struct GameList {
    /// The games, most recently changed first.
    pub games: Vec<GameSummary>,
}

/// A game in a list.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: Uuid,
    /// 3 or 4.
    pub players: u8,
    /// The hostage army of a 3-player game.
    pub hostage: Option<Army>,
    /// Whether free seats may be claimed without an invite.
    pub open: bool,
    /// Whether the lobby lists it (an unlisted game appears only in `?ids=` answers).
    pub listed: bool,
    /// Open, live or finished.
    pub status: GameStatus,
    /// The seats.
    pub seats: Vec<SeatSummary>,
    /// How many spectators are connected.
    pub spectators: u32,
    /// The player to move.
    pub to_move: Option<Player>,
    /// The number of the turn to be played next.
    pub turn: u32,
    /// When the player to move runs out of time (ms since the epoch; timed games only).
    pub deadline: Option<i64>,
    /// The version of the last event.
    pub v: u64,
    /// The result, once over.
    pub result: Option<ResultRecord>,
    /// When the game was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
}

/// A seat in a list.
#[derive(Clone, Debug, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub player: Player,
    /// Its display name.
    pub name: Option<String>,
    /// Whether someone claimed it.
    pub claimed: bool,
    /// Whether a connection plays it now.
    pub connected: bool,
    /// The level of the bot playing it, if a bot plays it from the start.
    pub bot: Option<BotLevel>,
    /// The circle's member who took it (a circle game's; left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<Uuid>,
}

/// `POST /api/games/{id}/seats/{player}/bot`: give a seat to a bot (the creator, before the
/// start).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatBot {
    /// The bot's level (default `medium`).
    #[serde(default)]
    pub level: Option<BotLevel>,
}

/// The one error shape of the HTTP API.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// A stable machine code and a message for people.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// The code (PROTOCOL §1).
    pub code: String,
    /// The message (never database text).
    pub message: String,
}
