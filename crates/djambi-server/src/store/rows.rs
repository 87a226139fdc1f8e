//! Reading rows back into the store's types (every stored value is checked on the way in).

use djambi_core::{Army, Player};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use super::{GameRow, GameSummaryRow, StoreError, event};
use crate::table::{ChatLine, Event, GameStatus, Seat};
use crate::token::TokenHash;

fn corrupt(what: impl Into<String>) -> StoreError {
    StoreError::Corrupt(what.into())
}

/// A game id column (`id`, or another name).
pub(crate) fn game_id(row: &AnyRow, column: &str) -> Result<Uuid, StoreError> {
    let id: String = row.try_get(column)?;
    Uuid::parse_str(&id).map_err(|_| corrupt(format!("game id {id:?}")))
}

/// A player letter.
pub(super) fn player(s: &str) -> Result<Player, StoreError> {
    let mut chars = s.chars();
    match (chars.next().and_then(Army::from_char), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(corrupt(format!("player {s:?}"))),
    }
}

fn opt_player(s: Option<String>) -> Result<Option<Player>, StoreError> {
    s.as_deref().map(player).transpose()
}

fn u64_of(n: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| corrupt(format!("{what} {n}")))
}

fn json<T: serde::de::DeserializeOwned>(s: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(s).map_err(|e| corrupt(format!("{what}: {e}")))
}

/// The columns of `games` that [`game`] reads, for `concat!` into static SQL.
macro_rules! game_columns {
    () => {
        "id, players, hostage, rules, start_dpn, open, listed, status, v, dpn, to_move, turn, result, \
         ranking, created_at, updated_at, settings, admin_hash, bot_seed, rematch, circle_id"
    };
}
pub(super) use game_columns;

/// A `games` row selected with [`game_columns!`].
pub(super) fn game(row: &AnyRow) -> Result<GameRow, StoreError> {
    let id: String = row.try_get("id")?;
    let id = Uuid::parse_str(&id).map_err(|_| corrupt(format!("game id {id:?}")))?;
    let players: i64 = row.try_get("players")?;
    let status: String = row.try_get("status")?;
    let result: Option<String> = row.try_get("result")?;
    let ranking: String = row.try_get("ranking")?;
    let rules: String = row.try_get("rules")?;
    let settings: Option<String> = row.try_get("settings")?;
    let admin_hash: Option<String> = row.try_get("admin_hash")?;
    // Stored as a signed 64-bit integer (both databases' BIGINT): the same 64 bits.
    let bot_seed: Option<i64> = row.try_get("bot_seed")?;
    let rematch: Option<String> = row.try_get("rematch")?;
    let circle: Option<String> = row.try_get("circle_id")?;
    let circle = circle
        .map(|c| Uuid::parse_str(&c).map_err(|_| corrupt(format!("circle id {c:?}"))))
        .transpose()?;
    Ok(GameRow {
        id,
        players: u8::try_from(players).map_err(|_| corrupt("players"))?,
        hostage: opt_player(row.try_get("hostage")?)?,
        rules: json(&rules, "rules")?,
        start: row.try_get("start_dpn")?,
        open: row.try_get::<i64, _>("open")? != 0,
        listed: row.try_get::<i64, _>("listed")? != 0,
        created_at: row.try_get("created_at")?,
        summary: GameSummaryRow {
            status: GameStatus::parse(&status)
                .ok_or_else(|| corrupt(format!("status {status:?}")))?,
            v: u64_of(row.try_get("v")?, "v")?,
            dpn: row.try_get("dpn")?,
            to_move: opt_player(row.try_get("to_move")?)?,
            turn: u32::try_from(row.try_get::<i64, _>("turn")?).map_err(|_| corrupt("turn"))?,
            result: result.as_deref().map(|r| json(r, "result")).transpose()?,
            ranking: json(&ranking, "ranking")?,
            rematch: rematch.as_deref().map(|r| json(r, "rematch")).transpose()?,
            updated_at: row.try_get("updated_at")?,
        },
        settings: settings
            .as_deref()
            .map(|s| json(s, "settings"))
            .transpose()?
            .unwrap_or_default(),
        admin_hash: admin_hash
            .as_deref()
            .map(|h| TokenHash::from_hex(h).ok_or_else(|| corrupt("admin hash")))
            .transpose()?,
        bot_seed: bot_seed.map(|s| s as u64),
        circle,
    })
}

/// A `seats` row (player, name, token_hash, claimed, bot, member_id).
pub(super) fn seat(row: &AnyRow) -> Result<Seat, StoreError> {
    let hash: String = row.try_get("token_hash")?;
    let member: Option<String> = row.try_get("member_id")?;
    let member = member
        .map(|m| Uuid::parse_str(&m).map_err(|_| corrupt(format!("member id {m:?}"))))
        .transpose()?;
    let bot: Option<String> = row.try_get("bot")?;
    let bot = bot
        .as_deref()
        .map(|b| b.parse().map_err(|_| corrupt(format!("bot level {b:?}"))))
        .transpose()?;
    Ok(Seat::stored(
        player(&row.try_get::<String, _>("player")?)?,
        row.try_get("name")?,
        TokenHash::from_hex(&hash).ok_or_else(|| corrupt("token hash"))?,
        row.try_get::<i64, _>("claimed")? != 0,
        bot,
    )
    .with_member(member))
}

/// An `events` row (v, kind, player, turn_text, detail, ack, at).
pub(super) fn event(row: &AnyRow) -> Result<Event, StoreError> {
    let kind: String = row.try_get("kind")?;
    let who: String = row.try_get("player")?;
    let p = if who == "-" {
        None
    } else {
        Some(player(&who)?)
    };
    let text: Option<String> = row.try_get("turn_text")?;
    let detail: Option<String> = row.try_get("detail")?;
    let kind = event::decode(&kind, p, text.as_deref(), detail.as_deref())?;
    let ack: Option<i64> = row.try_get("ack")?;
    Ok(Event {
        v: u64_of(row.try_get("v")?, "v")?,
        kind,
        ack: ack.map(|a| u64_of(a, "ack")).transpose()?,
        at: row.try_get("at")?,
    })
}

/// The stored `player` of an event: its player's letter, `-` for the server's own events.
pub(super) fn event_player(player: Option<Player>) -> String {
    player.map_or_else(|| "-".to_string(), letter)
}

/// A `chat` row (id, v, from_player, name, to_player, text, ack, at).
pub(super) fn chat(row: &AnyRow) -> Result<ChatLine, StoreError> {
    let ack: Option<i64> = row.try_get("ack")?;
    Ok(ChatLine {
        id: u64_of(row.try_get("id")?, "chat id")?,
        v: u64_of(row.try_get("v")?, "v")?,
        from: opt_player(row.try_get("from_player")?)?,
        name: row.try_get("name")?,
        to: opt_player(row.try_get("to_player")?)?,
        text: row.try_get("text")?,
        ack: ack.map(|a| u64_of(a, "ack")).transpose()?,
        at: row.try_get("at")?,
    })
}

/// A stored letter.
pub(super) fn letter(p: Player) -> String {
    p.char().to_string()
}

/// A version, ack or id as stored (they stay far below `i64::MAX`).
pub(super) fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
