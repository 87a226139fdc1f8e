//! Lists of games, from the store, with who is connected and the clocks of live games.

use uuid::Uuid;

use super::Registry;
use crate::clock::rfc3339;
use crate::game::error::GameError;
use crate::game::presence::Digest;
use crate::protocol::http::{GameList, GameSummary};
use crate::protocol::view::seat_summary;
use crate::store::GameRow;
use crate::table::{GameStatus, Seat};

impl Registry {
    /// Games from the store, most recently changed first.
    pub async fn list(
        &self,
        status: Option<GameStatus>,
        limit: u32,
    ) -> Result<GameList, GameError> {
        let rows = self.ctx.store.list_games(status, limit).await?;
        Ok(self.summaries(rows))
    }

    /// These games (a browser's own), most recently changed first.
    pub async fn list_ids(&self, ids: &[Uuid]) -> Result<GameList, GameError> {
        let rows = self.ctx.store.games_by_ids(ids).await?;
        Ok(self.summaries(rows))
    }

    fn summaries(&self, rows: Vec<(GameRow, Vec<Seat>)>) -> GameList {
        let games = rows
            .into_iter()
            .map(|(row, seats)| {
                let digest = self.digest(row.id);
                let presence = digest.as_ref();
                let s = row.summary;
                GameSummary {
                    id: row.id,
                    players: row.players,
                    hostage: row.hostage,
                    open: row.open,
                    listed: row.listed,
                    status: s.status,
                    seats: seats
                        .into_iter()
                        .map(|seat| {
                            let connected =
                                presence.is_some_and(|p| p.seats[seat.player.index()] > 0);
                            seat_summary(seat, connected)
                        })
                        .collect(),
                    spectators: presence.map_or(0, |p| p.spectators),
                    to_move: s.to_move,
                    turn: s.turn,
                    deadline: presence.and_then(|p| p.deadline),
                    v: s.v,
                    result: s.result,
                    created_at: rfc3339(row.created_at),
                    updated_at: rfc3339(s.updated_at),
                }
            })
            .collect();
        GameList { games }
    }

    /// Who is connected to a loaded game: from its actor here, or from what its node
    /// publishes.
    fn digest(&self, id: Uuid) -> Option<Digest> {
        match self.cached(id) {
            Some(handle) => Some(Digest::of(handle.presence())),
            None => self.site.digest(id),
        }
    }
}
