//! The circles' SQL (migrations `0010_circles.sql` / `0011_circles.sql`), written once for
//! SQLite and Postgres, always parameterised.

use djambi_core::{Army, Player};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};
use uuid::Uuid;

use super::places::GamePlaces;
use super::{CircleGameRow, CircleRow, GameSeatRow, MemberRow, MemberStatus};
use crate::store::StoreError;
use crate::table::GameStatus;
use crate::token::TokenHash;

fn corrupt(what: String) -> StoreError {
    StoreError::Corrupt(what)
}

fn uuid(row: &AnyRow, column: &str) -> Result<Uuid, StoreError> {
    let s: String = row.try_get(column)?;
    Uuid::parse_str(&s).map_err(|_| corrupt(format!("{column} {s:?}")))
}

fn hash(row: &AnyRow, column: &str) -> Result<TokenHash, StoreError> {
    let s: String = row.try_get(column)?;
    TokenHash::from_hex(&s).ok_or_else(|| corrupt(format!("{column}: not a hash")))
}

/// A new circle and its creator, in one transaction.
pub async fn create(
    pool: &AnyPool,
    circle: &CircleRow,
    invite: &TokenHash,
    creator: &MemberRow,
    name_key: &str,
    key: &TokenHash,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO circles (id, name, invite_hash, creator, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(circle.id.to_string())
    .bind(circle.name.clone())
    .bind(invite.to_hex())
    .bind(circle.creator.to_string())
    .bind(circle.created_at)
    .execute(&mut *tx)
    .await?;
    insert_member(&mut tx, circle.id, creator, name_key, key).await?;
    tx.commit().await?;
    Ok(())
}

async fn insert_member(
    conn: &mut AnyConnection,
    circle: Uuid,
    m: &MemberRow,
    name_key: &str,
    key: &TokenHash,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO circle_members (id, circle_id, name, name_key, key_hash, status, joined_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(m.id.to_string())
    .bind(circle.to_string())
    .bind(m.name.clone())
    .bind(name_key.to_string())
    .bind(key.to_hex())
    .bind(m.status.as_str())
    .bind(m.joined_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Why a member could not be added.
pub enum JoinRefused {
    /// As many present members as allowed, or as many rows as a circle keeps.
    Full,
    /// A present member's name looks the same.
    NameTaken,
}

/// Adds a member, if the circle has room (`max_members` present, `max_rows` in all) and no
/// present member has a name with the same key. The circle's row is written first, so joins
/// of one circle queue behind each other (a row lock in Postgres, the writer's lock in
/// SQLite): the count and the name check see every earlier join.
pub async fn join(
    pool: &AnyPool,
    circle: Uuid,
    m: &MemberRow,
    name_key: &str,
    key: &TokenHash,
    max_members: usize,
    max_rows: usize,
) -> Result<Result<(), JoinRefused>, StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("UPDATE circles SET updated_at = $1 WHERE id = $2")
        .bind(m.joined_at)
        .bind(circle.to_string())
        .execute(&mut *tx)
        .await?;
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, \
         COALESCE(SUM(CASE WHEN status = $2 THEN 1 ELSE 0 END), 0) AS present, \
         COALESCE(SUM(CASE WHEN status = $2 AND name_key = $3 THEN 1 ELSE 0 END), 0) AS same \
         FROM circle_members WHERE circle_id = $1",
    )
    .bind(circle.to_string())
    .bind(MemberStatus::Member.as_str())
    .bind(name_key.to_string())
    .fetch_one(&mut *tx)
    .await?;
    let (n, present, same): (i64, i64, i64) = (
        row.try_get("n")?,
        row.try_get("present")?,
        row.try_get("same")?,
    );
    if same > 0 {
        return Ok(Err(JoinRefused::NameTaken));
    }
    if present as usize >= max_members || n as usize >= max_rows {
        return Ok(Err(JoinRefused::Full));
    }
    insert_member(&mut tx, circle, m, name_key, key).await?;
    tx.commit().await?;
    Ok(Ok(()))
}

/// A circle's row, with its invite's hash.
pub async fn circle(
    pool: &AnyPool,
    id: Uuid,
) -> Result<Option<(CircleRow, TokenHash)>, StoreError> {
    let Some(row) =
        sqlx::query("SELECT id, name, invite_hash, creator, created_at FROM circles WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(pool)
            .await?
    else {
        return Ok(None);
    };
    Ok(Some((
        CircleRow {
            id: uuid(&row, "id")?,
            name: row.try_get("name")?,
            creator: uuid(&row, "creator")?,
            created_at: row.try_get("created_at")?,
        },
        hash(&row, "invite_hash")?,
    )))
}

/// Every circle's id (the admin command).
pub async fn circle_ids(pool: &AnyPool) -> Result<Vec<Uuid>, StoreError> {
    sqlx::query("SELECT id FROM circles ORDER BY created_at, id")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| uuid(r, "id"))
        .collect()
}

/// A circle's members, present and past, in the order they joined, with their keys' hashes.
pub async fn members(
    pool: &AnyPool,
    circle: Uuid,
) -> Result<Vec<(MemberRow, TokenHash)>, StoreError> {
    sqlx::query(
        "SELECT id, name, key_hash, status, joined_at FROM circle_members \
         WHERE circle_id = $1 ORDER BY joined_at, id",
    )
    .bind(circle.to_string())
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        let status: String = row.try_get("status")?;
        Ok((
            MemberRow {
                id: uuid(row, "id")?,
                name: row.try_get("name")?,
                status: MemberStatus::parse(&status)
                    .ok_or_else(|| corrupt(format!("member status {status:?}")))?,
                joined_at: row.try_get("joined_at")?,
            },
            hash(row, "key_hash")?,
        ))
    })
    .collect()
}

/// A present member leaves (`left`) or is removed (`removed`): their key no longer works,
/// their browsers get no more pushes; when it was the creator, the longest-standing present
/// member becomes the creator. Whether the member was present.
pub async fn depart(
    pool: &AnyPool,
    circle: Uuid,
    member: Uuid,
    status: MemberStatus,
    at: i64,
) -> Result<bool, StoreError> {
    let mut tx = pool.begin().await?;
    let done = sqlx::query(
        "UPDATE circle_members SET status = $1, left_at = $2 \
         WHERE circle_id = $3 AND id = $4 AND status = $5",
    )
    .bind(status.as_str())
    .bind(at)
    .bind(circle.to_string())
    .bind(member.to_string())
    .bind(MemberStatus::Member.as_str())
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM circle_push WHERE member_id = $1")
        .bind(member.to_string())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE circles SET updated_at = $1, creator = COALESCE((SELECT m.id FROM circle_members m \
         WHERE m.circle_id = $2 AND m.status = $3 ORDER BY m.joined_at, m.id LIMIT 1), creator) \
         WHERE id = $2 AND creator = $4",
    )
    .bind(at)
    .bind(circle.to_string())
    .bind(MemberStatus::Member.as_str())
    .bind(member.to_string())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Renames a circle.
pub async fn rename(pool: &AnyPool, circle: Uuid, name: &str, at: i64) -> Result<(), StoreError> {
    sqlx::query("UPDATE circles SET name = $1, updated_at = $2 WHERE id = $3")
        .bind(name.to_string())
        .bind(at)
        .bind(circle.to_string())
        .execute(pool)
        .await?;
    Ok(())
}

/// A new invite (the old one stops working).
pub async fn reinvite(
    pool: &AnyPool,
    circle: Uuid,
    invite: &TokenHash,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE circles SET invite_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(invite.to_hex())
        .bind(at)
        .bind(circle.to_string())
        .execute(pool)
        .await?;
    Ok(())
}

/// A circle's newest `limit` games with their seats, newest first.
pub async fn games(
    pool: &AnyPool,
    circle: Uuid,
    limit: usize,
) -> Result<Vec<CircleGameRow>, StoreError> {
    let mut conn = pool.acquire().await?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = sqlx::query(
        "SELECT id, status, created_at FROM games WHERE circle_id = $1 \
         ORDER BY created_at DESC, id LIMIT $2",
    )
    .bind(circle.to_string())
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    let mut games = rows
        .iter()
        .map(|row| {
            let status: String = row.try_get("status")?;
            Ok(CircleGameRow {
                id: uuid(row, "id")?,
                status: GameStatus::parse(&status)
                    .ok_or_else(|| corrupt(format!("status {status:?}")))?,
                created_at: row.try_get("created_at")?,
                seats: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let seats = sqlx::query(
        "SELECT game_id, player, name, claimed, bot, member_id FROM seats WHERE game_id IN \
         (SELECT id FROM games WHERE circle_id = $1 ORDER BY created_at DESC, id LIMIT $2)",
    )
    .bind(circle.to_string())
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    for row in &seats {
        let game = uuid(row, "game_id")?;
        let player: String = row.try_get("player")?;
        let player: Player = player
            .chars()
            .next()
            .and_then(Army::from_char)
            .ok_or_else(|| corrupt(format!("player {player:?}")))?;
        let bot: Option<String> = row.try_get("bot")?;
        let member: Option<String> = row.try_get("member_id")?;
        let seat = GameSeatRow {
            player,
            name: row.try_get("name")?,
            claimed: row.try_get::<i64, _>("claimed")? != 0,
            bot: bot.and_then(|b| b.parse().ok()),
            member: member.and_then(|m| Uuid::parse_str(&m).ok()),
        };
        if let Some(g) = games.iter_mut().find(|g| g.id == game) {
            g.seats.push(seat);
        }
    }
    for g in &mut games {
        g.seats.sort_by_key(|s| s.player.index());
    }
    Ok(games)
}

/// The circle's finished games whose places are not stored yet.
pub async fn unplaced(pool: &AnyPool, circle: Uuid) -> Result<Vec<Uuid>, StoreError> {
    sqlx::query(
        "SELECT id FROM games WHERE circle_id = $1 AND status = $2 AND id NOT IN \
         (SELECT game_id FROM circle_places WHERE circle_id = $1) ORDER BY created_at, id",
    )
    .bind(circle.to_string())
    .bind(GameStatus::Finished.as_str())
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| uuid(r, "id"))
    .collect()
}

/// The circle's finished games (the admin command recomputes them all).
pub async fn finished(pool: &AnyPool, circle: Uuid) -> Result<Vec<Uuid>, StoreError> {
    sqlx::query("SELECT id FROM games WHERE circle_id = $1 AND status = $2 ORDER BY created_at, id")
        .bind(circle.to_string())
        .bind(GameStatus::Finished.as_str())
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| uuid(r, "id"))
        .collect()
}

/// Stores a game's places once: a copy stored first (by another node) stays.
pub async fn keep_places(pool: &AnyPool, circle: Uuid, p: &GamePlaces) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    insert_places(&mut conn, circle, p).await
}

async fn insert_places(
    conn: &mut AnyConnection,
    circle: Uuid,
    p: &GamePlaces,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO circle_places (game_id, circle_id, finished_at, rated, places) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(p.game.to_string())
    .bind(circle.to_string())
    .bind(p.finished_at)
    .bind(i64::from(p.rated))
    .bind(serde_json::to_string(&p.seats).expect("plain data serialises"))
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces a game's stored places (the admin command's `--repair`).
pub async fn replace_places(
    pool: &AnyPool,
    circle: Uuid,
    p: &GamePlaces,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM circle_places WHERE game_id = $1")
        .bind(p.game.to_string())
        .execute(&mut *tx)
        .await?;
    insert_places(&mut tx, circle, p).await?;
    tx.commit().await?;
    Ok(())
}

/// The stored places of a circle's games, in finishing order.
pub async fn places(pool: &AnyPool, circle: Uuid) -> Result<Vec<GamePlaces>, StoreError> {
    sqlx::query(
        "SELECT game_id, finished_at, rated, places FROM circle_places \
         WHERE circle_id = $1 ORDER BY finished_at, game_id",
    )
    .bind(circle.to_string())
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        let seats: String = row.try_get("places")?;
        Ok(GamePlaces {
            game: uuid(row, "game_id")?,
            finished_at: row.try_get("finished_at")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            seats: serde_json::from_str(&seats).map_err(|e| corrupt(format!("places: {e}")))?,
        })
    })
    .collect()
}
