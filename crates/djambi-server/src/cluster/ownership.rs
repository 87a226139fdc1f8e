//! The cluster's SQL (docs/SCALING.md): each node's lease, and which node owns each loaded game
//! with the fencing epoch of that ownership. Every time here is the database's clock
//! ([`DB_NOW_MS`]), so the nodes' own clocks never have to agree.
//!
//! The rules the SQL keeps:
//! - a node may take a game only while its own lease is valid, and only from nobody (released,
//!   never owned) or from a node whose lease has expired; each take adds one to the epoch;
//! - a commit carries the (node, epoch) it was made under and is refused unless that is still
//!   the game's owner (the store checks it inside the commit's transaction: `store::fence`).

use sqlx::{AnyConnection, Row};
use uuid::Uuid;

use futures_util::FutureExt;

use crate::store::{Fence, GameRow, Store, StoreError};
use crate::table::{Event, GameStatus, Seat};

/// Now, in milliseconds since the Unix epoch, by the database's clock (`clock_timestamp()`, not
/// the transaction's start).
const DB_NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Who runs a game, as the database says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    /// The owning node (none: nobody; released or never taken).
    pub node: Option<String>,
    /// Whether that node's lease is still valid.
    pub alive: bool,
    /// Since when nobody ran the game, if known (ms): the release, or the last renewal of the
    /// lease of an owner that died. A running clock is paused from there when it is taken.
    pub idle_since: Option<i64>,
    /// Whether the game is over (finished or cancelled): nothing runs on its own then.
    pub ended: bool,
}

/// The cluster's view of the database.
#[derive(Clone)]
pub struct Ownerships {
    store: Store,
}

impl Ownerships {
    /// The ownership records of `store`'s database.
    pub fn new(store: Store) -> Ownerships {
        Ownerships { store }
    }

    /// The store underneath.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Stores a new game with its seats and (imported) events, owned by node `node` from the
    /// same transaction on (no other node can take it in between); the ownership's epoch.
    /// [`StoreError::NoLease`] when `node`'s lease has expired: nothing is stored then.
    pub async fn create_owned(
        &self,
        game: &GameRow,
        seats: &[Seat],
        events: &[Event],
        node: &str,
    ) -> Result<i64, StoreError> {
        let id = game.id;
        let node = node.to_string();
        self.store
            .create_game_and(game, seats, events, move |tx| {
                async move { own_new(tx, id, &node).await }.boxed()
            })
            .await
    }

    /// Registers node `node` (or renews its lease) for `lease_ms` from now; returns when the
    /// lease ends, by the database's clock.
    pub async fn renew_node(&self, node: &str, tag: u32, lease_ms: i64) -> Result<i64, StoreError> {
        let sql = format!(
            "INSERT INTO cluster_nodes (id, tag, renewed_at, expires_at) \
             VALUES ($1, $2, {DB_NOW_MS}, {DB_NOW_MS} + $3) \
             ON CONFLICT (id) DO UPDATE SET renewed_at = EXCLUDED.renewed_at, \
             expires_at = EXCLUDED.expires_at RETURNING expires_at"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(node.to_string())
            .bind(i64::from(tag))
            .bind(lease_ms)
            .fetch_one(self.store.pool())
            .await?;
        Ok(row.try_get("expires_at")?)
    }

    /// Ends node `node`'s lease now (a clean stop, once its games are released).
    pub async fn remove_node(&self, node: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM cluster_nodes WHERE id = $1")
            .bind(node.to_string())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The nodes whose lease is valid now: (id, tag).
    pub async fn live_nodes(&self) -> Result<Vec<(String, u32)>, StoreError> {
        let sql = format!("SELECT id, tag FROM cluster_nodes WHERE expires_at > {DB_NOW_MS}");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(self.store.pool())
            .await?
            .iter()
            .map(|r| {
                let tag: i64 = r.try_get("tag")?;
                Ok((r.try_get("id")?, u32::try_from(tag).unwrap_or(0)))
            })
            .collect()
    }

    /// Who runs game `game`; `None` if there is no such game.
    pub async fn owner_of(&self, game: Uuid) -> Result<Option<Ownership>, StoreError> {
        let sql = format!(
            "SELECT g.status, o.node, o.released_at, n.renewed_at, \
             (CASE WHEN n.expires_at > {DB_NOW_MS} THEN 1 ELSE 0 END) AS alive \
             FROM games g LEFT JOIN game_owners o ON o.game_id = g.id \
             LEFT JOIN cluster_nodes n ON n.id = o.node WHERE g.id = $1"
        );
        let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game.to_string())
            .fetch_optional(self.store.pool())
            .await?
        else {
            return Ok(None);
        };
        let status: String = row.try_get("status")?;
        let node: Option<String> = row.try_get("node")?;
        let alive: i32 = row.try_get("alive")?;
        let released: Option<i64> = row.try_get("released_at")?;
        let renewed: Option<i64> = row.try_get("renewed_at")?;
        Ok(Some(Ownership {
            alive: node.is_some() && alive == 1,
            idle_since: if node.is_some() { renewed } else { released },
            node,
            ended: !matches!(
                GameStatus::parse(&status),
                Some(GameStatus::Open | GameStatus::Live)
            ),
        }))
    }

    /// Takes game `game` for node `node` if it may (its own lease is valid, and the game is
    /// nobody's, its own, or a dead node's): the new epoch, or `None` if it may not.
    pub async fn acquire(&self, game: Uuid, node: &str) -> Result<Option<i64>, StoreError> {
        let sql = format!(
            "INSERT INTO game_owners (game_id, node, epoch, released_at) \
             SELECT g.id, $2, 1, NULL FROM games g WHERE g.id = $1 AND EXISTS \
             (SELECT 1 FROM cluster_nodes me WHERE me.id = $2 AND me.expires_at > {DB_NOW_MS}) \
             ON CONFLICT (game_id) DO UPDATE SET node = EXCLUDED.node, \
             epoch = game_owners.epoch + 1, released_at = NULL \
             WHERE game_owners.node IS NULL OR game_owners.node = EXCLUDED.node OR NOT EXISTS \
             (SELECT 1 FROM cluster_nodes n WHERE n.id = game_owners.node \
             AND n.expires_at > {DB_NOW_MS}) \
             RETURNING epoch"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game.to_string())
            .bind(node.to_string())
            .fetch_optional(self.store.pool())
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get("epoch")?),
            None => None,
        })
    }

    /// Gives game `game` up (its actor stopped cleanly): anyone may take it at once.
    pub async fn release(&self, game: Uuid, fence: &Fence) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE game_owners SET node = NULL, released_at = {DB_NOW_MS} \
             WHERE game_id = $1 AND node = $2 AND epoch = $3"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game.to_string())
            .bind(fence.node.to_string())
            .bind(fence.epoch)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// Gives up every game node `node` still owns.
    pub async fn release_all(&self, node: &str) -> Result<u64, StoreError> {
        let sql = format!(
            "UPDATE game_owners SET node = NULL, released_at = {DB_NOW_MS} WHERE node = $1"
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(node.to_string())
            .execute(self.store.pool())
            .await?;
        Ok(done.rows_affected())
    }

    /// Unfinished games nobody runs (released, never taken, or their owner's lease expired), at
    /// most `limit`, in random order (so that nodes adopting them at once spread them).
    pub async fn orphans(&self, limit: u32) -> Result<Vec<Uuid>, StoreError> {
        let sql = format!(
            "SELECT g.id FROM games g LEFT JOIN game_owners o ON o.game_id = g.id \
             LEFT JOIN cluster_nodes n ON n.id = o.node \
             WHERE g.status IN ($1, $2) \
             AND (o.node IS NULL OR n.id IS NULL OR n.expires_at <= {DB_NOW_MS}) \
             ORDER BY random() LIMIT $3"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(GameStatus::Open.as_str())
            .bind(GameStatus::Live.as_str())
            .bind(i64::from(limit))
            .fetch_all(self.store.pool())
            .await?
            .iter()
            .map(|r| crate::store::game_id(r, "id"))
            .collect()
    }
}

/// Inside the transaction that creates game `game`: its first ownership, by node `node` (whose
/// lease must be valid, else [`StoreError::NoLease`]); the epoch.
async fn own_new(conn: &mut AnyConnection, game: Uuid, node: &str) -> Result<i64, StoreError> {
    let sql = format!(
        "INSERT INTO game_owners (game_id, node, epoch, released_at) \
         SELECT $1, $2, 1, NULL WHERE EXISTS \
         (SELECT 1 FROM cluster_nodes me WHERE me.id = $2 AND me.expires_at > {DB_NOW_MS}) \
         RETURNING epoch"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(game.to_string())
        .bind(node.to_string())
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(StoreError::NoLease)?;
    Ok(row.try_get("epoch")?)
}
