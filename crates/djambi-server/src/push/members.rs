//! Circle members' subscriptions (issue 47): a member's browser asks to be told when a game of
//! their circle is created (`circle_game`), as a seat's browser asks for its notices. The rows
//! of `circle_push`: at most a few per member (the oldest goes), deleted when the member
//! leaves or is removed, or when the push service says they are gone.

use sqlx::{AnyPool, Row};
use uuid::Uuid;

use super::subscriptions::Subscription;
use super::texts::Lang;
use crate::clock::now_ms;
use crate::store::StoreError;

/// Keeps `sub` for the member (its keys and language renewed if the endpoint was there), and at
/// most `max` subscriptions for the member: the oldest beyond go.
pub async fn keep(
    pool: &AnyPool,
    circle: Uuid,
    member: Uuid,
    sub: &Subscription,
    max: usize,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO circle_push (circle_id, member_id, endpoint, p256dh, auth, lang, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (member_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, \
         auth = EXCLUDED.auth, lang = EXCLUDED.lang, created_at = EXCLUDED.created_at",
    )
    .bind(circle.to_string())
    .bind(member.to_string())
    .bind(sub.endpoint.clone())
    .bind(sub.p256dh.clone())
    .bind(sub.auth.clone())
    .bind(sub.lang.code())
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM circle_push WHERE member_id = $1 AND endpoint NOT IN \
         (SELECT endpoint FROM circle_push WHERE member_id = $1 \
         ORDER BY created_at DESC, endpoint LIMIT $2)",
    )
    .bind(member.to_string())
    .bind(i64::try_from(max.max(1)).unwrap_or(i64::MAX))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Removes the member's subscription at `endpoint`; whether there was one.
pub async fn remove(pool: &AnyPool, member: Uuid, endpoint: &str) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM circle_push WHERE member_id = $1 AND endpoint = $2")
        .bind(member.to_string())
        .bind(endpoint.to_string())
        .execute(pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The subscriptions of the circle's present members, but `except`'s: (member, subscription).
pub async fn of_circle(
    pool: &AnyPool,
    circle: Uuid,
    except: Uuid,
) -> Result<Vec<(Uuid, Subscription)>, StoreError> {
    let rows = sqlx::query(
        "SELECT p.member_id, p.endpoint, p.p256dh, p.auth, p.lang FROM circle_push p \
         JOIN circle_members m ON m.id = p.member_id \
         WHERE p.circle_id = $1 AND m.status = $2 AND p.member_id <> $3 \
         ORDER BY p.member_id, p.created_at DESC, p.endpoint",
    )
    .bind(circle.to_string())
    .bind("member")
    .bind(except.to_string())
    .fetch_all(pool)
    .await?;
    let mut out = Vec::new();
    for row in rows {
        let member: String = row.try_get(0)?;
        let member = Uuid::parse_str(&member)
            .map_err(|_| StoreError::Corrupt(format!("member id {member:?}")))?;
        out.push((
            member,
            Subscription {
                endpoint: row.try_get(1)?,
                p256dh: row.try_get(2)?,
                auth: row.try_get(3)?,
                lang: Lang::of_tag(&row.try_get::<String, _>(4)?),
            },
        ));
    }
    Ok(out)
}

/// How many subscriptions a member has (tests and operations).
pub async fn count(pool: &AnyPool, member: Uuid) -> Result<usize, StoreError> {
    let n: i64 = sqlx::query("SELECT COUNT(*) FROM circle_push WHERE member_id = $1")
        .bind(member.to_string())
        .fetch_one(pool)
        .await?
        .try_get(0)?;
    Ok(n.max(0) as usize)
}
