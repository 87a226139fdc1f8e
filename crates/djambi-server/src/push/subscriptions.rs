//! The subscriptions' rows: each seat's browsers (endpoint and keys, with their language), at
//! most a few per seat (the oldest goes), deleted with their game (`ON DELETE CASCADE`) or when
//! their push service says they are gone.

use djambi_core::{Army, Player};
use sqlx::{AnyPool, Row};
use uuid::Uuid;

use super::texts::Lang;
use crate::clock::now_ms;
use crate::store::StoreError;

/// One browser's subscription (its `PushSubscription`, checked), with its language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    /// The push service's URL for this browser (checked by the guard).
    pub endpoint: String,
    /// The browser's P-256 public key (base64url, 65 bytes).
    pub p256dh: String,
    /// The browser's authentication secret (base64url, 16 bytes).
    pub auth: String,
    /// The notifications' language.
    pub lang: Lang,
}

fn letter(p: Player) -> String {
    p.char().to_string()
}

/// Keeps `sub` for the seat (its keys and language renewed if the endpoint was there), and at
/// most `max` subscriptions for the seat: the oldest beyond go.
pub async fn keep(
    pool: &AnyPool,
    game: Uuid,
    player: Player,
    sub: &Subscription,
    max: usize,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO push_subscriptions (game_id, player, endpoint, p256dh, auth, lang, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (game_id, player, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, \
         auth = EXCLUDED.auth, lang = EXCLUDED.lang, created_at = EXCLUDED.created_at",
    )
    .bind(game.to_string())
    .bind(letter(player))
    .bind(sub.endpoint.clone())
    .bind(sub.p256dh.clone())
    .bind(sub.auth.clone())
    .bind(sub.lang.code())
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM push_subscriptions WHERE game_id = $1 AND player = $2 AND endpoint NOT IN \
         (SELECT endpoint FROM push_subscriptions WHERE game_id = $1 AND player = $2 \
         ORDER BY created_at DESC, endpoint LIMIT $3)",
    )
    .bind(game.to_string())
    .bind(letter(player))
    .bind(i64::try_from(max.max(1)).unwrap_or(i64::MAX))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Removes the seat's subscription at `endpoint`; whether there was one.
pub async fn remove(
    pool: &AnyPool,
    game: Uuid,
    player: Player,
    endpoint: &str,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "DELETE FROM push_subscriptions WHERE game_id = $1 AND player = $2 AND endpoint = $3",
    )
    .bind(game.to_string())
    .bind(letter(player))
    .bind(endpoint.to_string())
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Removes every subscription of a seat (its token changed hands); how many there were.
pub async fn remove_seat(pool: &AnyPool, game: Uuid, player: Player) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM push_subscriptions WHERE game_id = $1 AND player = $2")
        .bind(game.to_string())
        .bind(letter(player))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// The seat's subscriptions, newest first.
pub async fn of_seat(
    pool: &AnyPool,
    game: Uuid,
    player: Player,
) -> Result<Vec<Subscription>, StoreError> {
    let rows = sqlx::query(
        "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions \
         WHERE game_id = $1 AND player = $2 ORDER BY created_at DESC, endpoint",
    )
    .bind(game.to_string())
    .bind(letter(player))
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Subscription {
                endpoint: row.try_get(0)?,
                p256dh: row.try_get(1)?,
                auth: row.try_get(2)?,
                lang: Lang::of_tag(&row.try_get::<String, _>(3)?),
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// How many subscriptions the seats of `game` have, per seat (for tests and operations).
pub async fn count(pool: &AnyPool, game: Uuid) -> Result<Vec<(Player, usize)>, StoreError> {
    let rows = sqlx::query(
        "SELECT player, COUNT(*) FROM push_subscriptions WHERE game_id = $1 \
         GROUP BY player ORDER BY player",
    )
    .bind(game.to_string())
    .fetch_all(pool)
    .await?;
    let mut out = Vec::new();
    for row in rows {
        let letter: String = row.try_get(0)?;
        let n: i64 = row.try_get(1)?;
        if let Some(p) = letter.chars().next().and_then(Army::from_char) {
            out.push((p, n.max(0) as usize));
        }
    }
    Ok(out)
}
