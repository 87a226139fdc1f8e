//! The engine's analyses of finished games: one row per game, written once. The body is the
//! analysis as its edge serialised it; the store keeps it as text and never reads inside it.
//! And a game's status alone, to answer about its analysis without loading its log.

use sqlx::Row;
use uuid::Uuid;

use super::{Store, StoreError};
use crate::table::GameStatus;

/// A stored analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// Each search's move time, in milliseconds, for the search-based analyses of old; 0 for
    /// those of the value model, which searches nothing (the body's `model` names it).
    pub movetime_ms: u64,
    /// The analysis, as JSON.
    pub body: String,
    /// When it was stored (ms since the epoch).
    pub created_at: i64,
}

impl Store {
    /// Stores `game`'s analysis unless one is stored already (several nodes may have computed
    /// it at once: the first stored stays). Whether this one was stored.
    pub async fn save_analysis(
        &self,
        game: Uuid,
        analysis: &StoredAnalysis,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO analyses (game_id, movetime_ms, body, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game.to_string())
        .bind(i64::try_from(analysis.movetime_ms).unwrap_or(i64::MAX))
        .bind(analysis.body.clone())
        .bind(analysis.created_at)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `game`'s stored analysis, if any.
    pub async fn load_analysis(&self, game: Uuid) -> Result<Option<StoredAnalysis>, StoreError> {
        let row =
            sqlx::query("SELECT movetime_ms, body, created_at FROM analyses WHERE game_id = $1")
                .bind(game.to_string())
                .fetch_optional(self.pool())
                .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let movetime_ms: i64 = row.try_get("movetime_ms")?;
        Ok(Some(StoredAnalysis {
            movetime_ms: u64::try_from(movetime_ms)
                .map_err(|_| StoreError::Corrupt(format!("analysis movetime {movetime_ms}")))?,
            body: row.try_get("body")?,
            created_at: row.try_get("created_at")?,
        }))
    }

    /// Where game `id` stands and how many turns it has (its row alone, without its log);
    /// none if there is no such game.
    pub async fn game_size(&self, game: Uuid) -> Result<Option<(GameStatus, u32)>, StoreError> {
        let row = sqlx::query("SELECT status, turn FROM games WHERE id = $1")
            .bind(game.to_string())
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let status: String = row.try_get("status")?;
        let turn: i64 = row.try_get("turn")?;
        let status = GameStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("game status {status:?}")))?;
        Ok(Some((
            status,
            u32::try_from(turn.saturating_sub(1).max(0)).unwrap_or(u32::MAX),
        )))
    }

    /// Where game `id` stands (its row's status alone, without its log); none if there is no
    /// such game.
    pub async fn game_status(&self, game: Uuid) -> Result<Option<GameStatus>, StoreError> {
        let row = sqlx::query("SELECT status FROM games WHERE id = $1")
            .bind(game.to_string())
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let status: String = row.try_get("status")?;
        GameStatus::parse(&status)
            .map(Some)
            .ok_or_else(|| StoreError::Corrupt(format!("game status {status:?}")))
    }
}
