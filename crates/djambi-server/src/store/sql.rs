//! The SQL, written once for SQLite and Postgres (`$n` parameters work in both), always
//! parameterised.

use sqlx::{AnyConnection, AnyPool, Row};
use uuid::Uuid;

use super::fence::{self, Guard};
use super::rows::{self, game_columns, int, letter};
use super::{Commit, GameRow, StoreError, StoredGame, event};
use crate::table::{ChatLine, Event, GameStatus, Seat};

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

pub(super) async fn insert_game(conn: &mut AnyConnection, g: &GameRow) -> Result<(), StoreError> {
    let s = &g.summary;
    sqlx::query(
        "INSERT INTO games (id, players, hostage, rules, start_dpn, open, status, v, dpn, \
         to_move, turn, result, ranking, created_at, updated_at, settings, admin_hash, bot_seed, \
         listed, rematch, circle_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20, $21)",
    )
    .bind(g.id.to_string())
    .bind(i64::from(g.players))
    .bind(g.hostage.map(letter))
    .bind(json(&g.rules))
    .bind(g.start.clone())
    .bind(i64::from(g.open))
    .bind(s.status.as_str())
    .bind(int(s.v))
    .bind(s.dpn.clone())
    .bind(s.to_move.map(letter))
    .bind(i64::from(s.turn))
    .bind(s.result.as_ref().map(json))
    .bind(json(&s.ranking))
    .bind(g.created_at)
    .bind(s.updated_at)
    .bind(json(&g.settings))
    .bind(g.admin_hash.map(|h| h.to_hex()))
    .bind(g.bot_seed.map(|s| s as i64))
    .bind(i64::from(g.listed))
    .bind(s.rematch.as_ref().map(json))
    .bind(g.circle.map(|c| c.to_string()))
    .execute(conn)
    .await?;
    Ok(())
}

pub(super) async fn insert_seat(
    conn: &mut AnyConnection,
    game: Uuid,
    seat: &Seat,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO seats (game_id, player, name, token_hash, claimed, bot, member_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game.to_string())
    .bind(letter(seat.player))
    .bind(seat.name.clone())
    .bind(seat.token_hash.to_hex())
    .bind(i64::from(seat.claimed))
    .bind(seat.start_bot.map(|b| b.name().to_string()))
    .bind(seat.member.map(|m| m.to_string()))
    .execute(conn)
    .await?;
    Ok(())
}

pub(super) async fn insert_event(
    conn: &mut AnyConnection,
    game: Uuid,
    event: &Event,
) -> Result<(), StoreError> {
    insert_events(conn, &[(game, event)], &[]).await
}

/// The SQL types of the columns of an events INSERT, in order.
const EVENT_TYPES: [&str; 8] = [
    "text", "bigint", "text", "text", "text", "text", "bigint", "bigint",
];

/// Events (of any games) inserted this many to a statement.
const EVENTS_PER_STATEMENT: usize = 64;

/// Inserts events with one statement per [`EVENTS_PER_STATEMENT`] rows (a statement costs a
/// round trip to the database's thread or server; a batch of moves is one or two). With
/// `fences` (several nodes), the first statement checks them too: its rows are inserted only
/// if every fence holds (see [`fence::fence_guard`](super::cluster)), else
/// [`StoreError::Fenced`] — the check costs no round trip of its own.
pub(super) async fn insert_events(
    conn: &mut AnyConnection,
    events: &[(Uuid, &Event)],
    fences: &[Guard<'_>],
) -> Result<(), StoreError> {
    for (c, chunk) in events.chunks(EVENTS_PER_STATEMENT).enumerate() {
        let guarded = c == 0 && !fences.is_empty();
        let mut sql = String::from(
            "INSERT INTO events (game_id, v, kind, player, turn_text, detail, ack, at) ",
        );
        let mut rows = String::new();
        for i in 0..chunk.len() {
            let n = i * 8;
            if i > 0 {
                rows.push_str(", ");
            }
            rows.push('(');
            for (k, ty) in EVENT_TYPES.iter().enumerate() {
                if k > 0 {
                    rows.push_str(", ");
                }
                rows.push_str(&format!("${}", n + k + 1));
                // Postgres (several nodes only): typed, for a SELECT's VALUES.
                if guarded {
                    rows.push_str("::");
                    rows.push_str(ty);
                }
            }
            rows.push(')');
        }
        if guarded {
            sql = fence::fence_guard(chunk.len() * 8 + 1) + &sql;
            sql.push_str(&format!(
                "SELECT * FROM (VALUES {rows}) AS e WHERE {}",
                fence::FENCES_HELD
            ));
        } else {
            sql.push_str("VALUES ");
            sql.push_str(&rows);
        }
        // Placeholders only: every value is bound.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (game, event) in chunk {
            let stored = event::encode(&event.kind);
            query = query
                .bind(game.to_string())
                .bind(int(event.v))
                .bind(stored.kind)
                .bind(rows::event_player(stored.player))
                .bind(stored.turn_text)
                .bind(stored.detail)
                .bind(event.ack.map(int))
                .bind(event.at);
        }
        if guarded {
            query = fence::bind_fences(query, fences);
        }
        let inserted = query.execute(&mut *conn).await?.rows_affected();
        if guarded && inserted != chunk.len() as u64 {
            return Err(StoreError::Fenced);
        }
    }
    Ok(())
}

async fn insert_chat(conn: &mut AnyConnection, game: Uuid, c: &ChatLine) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO chat (game_id, id, v, from_player, name, to_player, text, ack, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(game.to_string())
    .bind(int(c.id))
    .bind(int(c.v))
    .bind(c.from.map(letter))
    .bind(c.name.clone())
    .bind(c.to.map(letter))
    .bind(c.text.clone())
    .bind(c.ack.map(int))
    .bind(c.at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes a batch of commands (of any games) inside the caller's transaction: each command's
/// seats and chat, then every event in as few statements as possible (the first one also
/// checking, with several nodes, the fences of their games' ownership; a batch without events
/// checks them on their own), then each game's latest summary once. A fence that does not hold
/// fails the whole transaction.
pub(super) async fn write_batch(
    conn: &mut AnyConnection,
    commits: &[&Commit],
) -> Result<(), StoreError> {
    let fences = fence::guards(commits);
    for commit in commits {
        write_seats_and_chat(conn, commit).await?;
    }
    let events: Vec<(Uuid, &Event)> = commits
        .iter()
        .flat_map(|c| c.events.iter().map(move |e| (c.game, e)))
        .collect();
    if events.is_empty() {
        fence::check_fences(conn, &fences).await?;
    } else {
        insert_events(conn, &events, &fences).await?;
    }
    // The last summary of each game in the batch is the one that counts.
    let mut summaries: Vec<(Uuid, &super::GameSummaryRow)> = Vec::new();
    for commit in commits.iter().rev() {
        if let Some(s) = &commit.summary
            && !summaries.iter().any(|(g, _)| *g == commit.game)
        {
            summaries.push((commit.game, s));
        }
    }
    for (game, summary) in summaries {
        update_summary(conn, game, summary).await?;
    }
    Ok(())
}

/// A command's seat changes and chat.
async fn write_seats_and_chat(conn: &mut AnyConnection, commit: &Commit) -> Result<(), StoreError> {
    let game = commit.game;
    if let Some(seat) = &commit.claim {
        // Only an unclaimed seat can be claimed: the actor checked, the database agrees.
        let done = sqlx::query(
            "UPDATE seats SET name = $1, token_hash = $2, claimed = $3, member_id = $7 \
             WHERE game_id = $4 AND player = $5 AND claimed = $6",
        )
        .bind(seat.name.clone())
        .bind(seat.token_hash.to_hex())
        .bind(1_i64)
        .bind(game.to_string())
        .bind(letter(seat.player))
        .bind(0_i64)
        .bind(seat.member.map(|m| m.to_string()))
        .execute(&mut *conn)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Corrupt(format!(
                "seat {} of game {game} is not free",
                seat.player
            )));
        }
    }
    for seat in &commit.seats {
        // The creator's changes before the start: a new invite (unclaimed again), or a bot.
        sqlx::query(
            "UPDATE seats SET name = $1, token_hash = $2, claimed = $3, bot = $4, member_id = $7 \
             WHERE game_id = $5 AND player = $6",
        )
        .bind(seat.name.clone())
        .bind(seat.token_hash.to_hex())
        .bind(i64::from(seat.claimed))
        .bind(seat.start_bot.map(|b| b.name().to_string()))
        .bind(game.to_string())
        .bind(letter(seat.player))
        .bind(seat.member.map(|m| m.to_string()))
        .execute(&mut *conn)
        .await?;
    }
    if let Some(chat) = &commit.chat {
        insert_chat(conn, game, chat).await?;
    }
    Ok(())
}

/// A game's summary (the columns the lists read).
async fn update_summary(
    conn: &mut AnyConnection,
    game: Uuid,
    s: &super::GameSummaryRow,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE games SET status = $1, v = $2, dpn = $3, to_move = $4, turn = $5, \
         result = $6, ranking = $7, updated_at = $8, rematch = $9 WHERE id = $10",
    )
    .bind(s.status.as_str())
    .bind(int(s.v))
    .bind(s.dpn.clone())
    .bind(s.to_move.map(letter))
    .bind(i64::from(s.turn))
    .bind(s.result.as_ref().map(json))
    .bind(json(&s.ranking))
    .bind(s.updated_at)
    .bind(s.rematch.as_ref().map(json))
    .bind(game.to_string())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub(super) async fn load_game(
    pool: &AnyPool,
    id: Uuid,
    recent_chat: usize,
) -> Result<Option<StoredGame>, StoreError> {
    let mut conn = pool.acquire().await?;
    let key = id.to_string();
    let Some(row) = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM games WHERE id = $1"
    ))
    .bind(key.clone())
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let row = rows::game(&row)?;
    let mut seats = sqlx::query(
        "SELECT player, name, token_hash, claimed, bot, member_id FROM seats WHERE game_id = $1",
    )
    .bind(key.clone())
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(rows::seat)
    .collect::<Result<Vec<_>, _>>()?;
    seats.sort_by_key(|s| s.player.index());
    let events = sqlx::query(
        "SELECT v, kind, player, turn_text, detail, ack, at FROM events WHERE game_id = $1 ORDER BY v",
    )
    .bind(key.clone())
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(rows::event)
    .collect::<Result<Vec<_>, _>>()?;
    let mut chat = sqlx::query(
        "SELECT id, v, from_player, name, to_player, text, ack, at FROM chat \
         WHERE game_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(key.clone())
    .bind(recent_chat as i64)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(rows::chat)
    .collect::<Result<Vec<_>, _>>()?;
    chat.reverse();
    let last: i64 = sqlx::query("SELECT COALESCE(MAX(id), 0) AS last FROM chat WHERE game_id = $1")
        .bind(key.clone())
        .fetch_one(&mut *conn)
        .await?
        .try_get("last")?;
    let chat_acks = sqlx::query(
        "SELECT from_player, ack, v FROM chat \
         WHERE game_id = $1 AND ack IS NOT NULL AND from_player IS NOT NULL",
    )
    .bind(key)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| {
        let p: String = r.try_get("from_player")?;
        let ack: i64 = r.try_get("ack")?;
        let v: i64 = r.try_get("v")?;
        Ok((rows::player(&p)?, ack as u64, v as u64))
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Some(StoredGame {
        row,
        seats,
        events,
        recent_chat: chat,
        last_chat_id: last.max(0) as u64,
        chat_acks,
    }))
}

pub(super) async fn events_since(
    pool: &AnyPool,
    id: Uuid,
    since: u64,
) -> Result<Vec<Event>, StoreError> {
    sqlx::query(
        "SELECT v, kind, player, turn_text, detail, ack, at FROM events \
         WHERE game_id = $1 AND v > $2 ORDER BY v",
    )
    .bind(id.to_string())
    .bind(int(since))
    .fetch_all(pool)
    .await?
    .iter()
    .map(rows::event)
    .collect()
}

pub(super) async fn unfinished_games(pool: &AnyPool) -> Result<Vec<Uuid>, StoreError> {
    sqlx::query("SELECT id FROM games WHERE status IN ($1, $2) ORDER BY created_at")
        .bind(GameStatus::Open.as_str())
        .bind(GameStatus::Live.as_str())
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| rows::game_id(r, "id"))
        .collect()
}

pub(super) async fn list_games(
    pool: &AnyPool,
    status: Option<GameStatus>,
    limit: u32,
) -> Result<Vec<(GameRow, Vec<Seat>)>, StoreError> {
    let mut conn = pool.acquire().await?;
    let (games, seats) = match status {
        Some(status) => {
            let games = sqlx::query(concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE listed = 1 AND status = $1 ORDER BY updated_at DESC, id LIMIT $2"
            ))
            .bind(status.as_str())
            .bind(i64::from(limit))
            .fetch_all(&mut *conn)
            .await?;
            let seats = sqlx::query(
                "SELECT game_id, player, name, token_hash, claimed, bot, member_id FROM seats WHERE game_id IN \
                 (SELECT id FROM games WHERE listed = 1 AND status = $1 \
                 ORDER BY updated_at DESC, id LIMIT $2)",
            )
            .bind(status.as_str())
            .bind(i64::from(limit))
            .fetch_all(&mut *conn)
            .await?;
            (games, seats)
        }
        None => {
            let games = sqlx::query(concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE listed = 1 ORDER BY updated_at DESC, id LIMIT $1"
            ))
            .bind(i64::from(limit))
            .fetch_all(&mut *conn)
            .await?;
            let seats = sqlx::query(
                "SELECT game_id, player, name, token_hash, claimed, bot, member_id FROM seats WHERE game_id IN \
                 (SELECT id FROM games WHERE listed = 1 ORDER BY updated_at DESC, id LIMIT $1)",
            )
            .bind(i64::from(limit))
            .fetch_all(&mut *conn)
            .await?;
            (games, seats)
        }
    };
    group_seats(&games, &seats)
}

/// Games with their seats, in the games' order.
fn group_seats(
    games: &[sqlx::any::AnyRow],
    seats: &[sqlx::any::AnyRow],
) -> Result<Vec<(GameRow, Vec<Seat>)>, StoreError> {
    let mut out: Vec<(GameRow, Vec<Seat>)> = games
        .iter()
        .map(|r| rows::game(r).map(|g| (g, Vec::new())))
        .collect::<Result<_, _>>()?;
    for row in seats {
        let id: String = row.try_get("game_id")?;
        let seat = rows::seat(row)?;
        if let Some((_, list)) = out.iter_mut().find(|(g, _)| g.id.to_string() == id) {
            list.push(seat);
        }
    }
    for (_, list) in &mut out {
        list.sort_by_key(|s| s.player.index());
    }
    Ok(out)
}

pub(super) async fn games_by_ids(
    pool: &AnyPool,
    ids: &[Uuid],
) -> Result<Vec<(GameRow, Vec<Seat>)>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = pool.acquire().await?;
    // One placeholder per id: still a parameterised query.
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let marks = marks.join(", ");
    let games_sql = format!(
        "SELECT {} FROM games WHERE id IN ({marks}) ORDER BY updated_at DESC, id",
        game_columns!()
    );
    let seats_sql = format!(
        "SELECT game_id, player, name, token_hash, claimed, bot, member_id FROM seats WHERE game_id IN ({marks})"
    );
    let mut games = sqlx::query(sqlx::AssertSqlSafe(games_sql));
    let mut seats = sqlx::query(sqlx::AssertSqlSafe(seats_sql));
    for id in ids {
        games = games.bind(id.to_string());
        seats = seats.bind(id.to_string());
    }
    let games = games.fetch_all(&mut *conn).await?;
    let seats = seats.fetch_all(&mut *conn).await?;
    group_seats(&games, &seats)
}

pub(super) async fn heartbeat(pool: &AnyPool, at: i64) -> Result<(), StoreError> {
    let done = sqlx::query("UPDATE heartbeat SET at = $1 WHERE id = $2")
        .bind(at)
        .bind(1_i64)
        .execute(pool)
        .await?;
    if done.rows_affected() == 0 {
        sqlx::query("INSERT INTO heartbeat (id, at) VALUES ($1, $2)")
            .bind(1_i64)
            .bind(at)
            .execute(pool)
            .await?;
    }
    Ok(())
}

pub(super) async fn last_alive(pool: &AnyPool) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query("SELECT at FROM heartbeat WHERE id = $1")
        .bind(1_i64)
        .fetch_optional(pool)
        .await?
        .map(|r| r.try_get::<i64, _>("at"))
        .transpose()?)
}
