//! Fenced writes (several nodes, docs/SCALING.md): a commit made under a game's ownership
//! carries its [`Fence`] (the owning node and the ownership's epoch), and its transaction writes
//! nothing unless that is still the game's owner — checked inside the same transaction, with
//! the ownership rows locked `FOR SHARE`, so a takeover waits for a commit in flight and a
//! commit after a takeover fails ([`StoreError::Fenced`]). Who owns what is the cluster's
//! business; the store only checks what a commit carries.

use std::sync::Arc;

use sqlx::AnyConnection;
use uuid::Uuid;

use super::{Commit, StoreError};

/// A fencing token: the node that owns a game, and the epoch of that ownership.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The owning node's id.
    pub node: Arc<str>,
    /// The ownership's epoch (grows by one at every take).
    pub epoch: i64,
}

/// A fence of a batch: a game and the ownership its writes were made under.
pub(super) type Guard<'a> = (Uuid, &'a Fence);

/// The distinct fences of a batch's commands.
pub(super) fn guards<'a>(commits: &[&'a Commit]) -> Vec<Guard<'a>> {
    let mut fences: Vec<Guard<'a>> = Vec::new();
    for commit in commits {
        if let Some(fence) = &commit.fence
            && !fences.iter().any(|(g, f)| *g == commit.game && *f == fence)
        {
            fences.push((commit.game, fence));
        }
    }
    fences
}

/// The condition of a guarded statement: every fence's row was found (and locked).
pub(super) const FENCES_HELD: &str = "(SELECT count(*) FROM fence) = (SELECT n FROM wanted)";

/// `WITH fence AS (…), wanted AS (…) `: the ownership rows of the fences, locked `FOR SHARE`
/// until the transaction ends, and how many there must be; its two parameters are `$first`
/// and the next ([`bind_fences`]). A statement that follows uses [`FENCES_HELD`]. Whatever the
/// number of fences it has one shape (the fences are one text, `game,node,epoch;…`, split by
/// Postgres), so it is parsed and planned once per connection. Game ids are UUIDs, and node
/// ids are letters, digits, `-`, `_` and `.` (see `lease::incarnation_id`).
pub(super) fn fence_guard(first: usize) -> String {
    format!(
        "WITH fence AS (SELECT o.game_id FROM game_owners o JOIN \
         (SELECT split_part(f, ',', 1) AS game_id, split_part(f, ',', 2) AS node, \
         split_part(f, ',', 3)::bigint AS epoch FROM unnest(string_to_array(${first}::text, ';')) AS f) w \
         ON o.game_id = w.game_id AND o.node = w.node AND o.epoch = w.epoch FOR SHARE OF o), \
         wanted AS (SELECT ${}::bigint AS n) ",
        first + 1
    )
}

/// Binds the two parameters of [`fence_guard`], after those bound before.
pub(super) fn bind_fences<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    fences: &[Guard<'_>],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    let list: Vec<String> = fences
        .iter()
        .map(|(game, f)| format!("{game},{},{}", f.node, f.epoch))
        .collect();
    query.bind(list.join(";")).bind(fences.len() as i64)
}

/// Inside a commit's transaction without events: every fence must hold, else nothing of the
/// batch is written ([`StoreError::Fenced`]). The rows stay locked (`FOR SHARE`) until the
/// transaction ends, so a takeover either waits for this commit (and then reads its writes) or
/// has already happened (and this commit fails).
pub(super) async fn check_fences(
    conn: &mut AnyConnection,
    fences: &[Guard<'_>],
) -> Result<(), StoreError> {
    if fences.is_empty() {
        return Ok(());
    }
    let sql = fence_guard(1) + "SELECT 1 AS held WHERE " + FENCES_HELD;
    let held = bind_fences(sqlx::query(sqlx::AssertSqlSafe(sql)), fences)
        .fetch_optional(&mut *conn)
        .await?;
    match held {
        Some(_) => Ok(()),
        None => Err(StoreError::Fenced),
    }
}
