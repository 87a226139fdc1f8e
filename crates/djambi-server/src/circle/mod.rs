//! Circles of friends (issue 47, docs/CIRCLES.md): a named group joined through its invite
//! link, whose members each hold a secret key in their browser; the games created from its
//! page, their places, the members' ratings, the standings and the head-to-head grid.
//!
//! - [`places`]: the places of a finished game, from its event log (pure);
//! - [`rating`]: Weng-Lin ratings from the games' places in finishing order, bots as fixed
//!   anchors (pure);
//! - [`standings`]: what the circle's page shows (pure);
//! - [`sql`]: the rows;
//! - [`recompute`]: the admin command's check of everything against the logs.
//!
//! Keys and invites are secrets like seat tokens ([`crate::token`]): random, shown once, kept
//! as their SHA-256 and compared in constant time; they are never logged. Every node reads the
//! same database, so a circle read on any node sees every finished game; the places of a game
//! are computed from its log the first time a read finds it finished, and stored once.

pub mod places;
pub mod rating;
pub mod recompute;
pub mod sql;
pub mod standings;

use djambi_core::Player;
use djambi_engine::Level;
use uuid::Uuid;

use crate::clock::now_ms;
use crate::protocol::circle::CircleView;
use crate::store::{Store, StoreError};
use crate::table::GameStatus;
use crate::table::text::{TextError, display_name, name_key, plain_name};
use crate::token::{SeatToken, TokenHash};

pub use places::{End, GamePlaces, SeatPlace};

/// The longest circle name, in characters.
pub const MAX_CIRCLE_NAME_CHARS: usize = 48;
/// Games a circle's page lists (the newest; ratings count every finished game).
pub const MAX_LISTED_GAMES: usize = 200;
/// Member rows a circle keeps, present and past, as a multiple of its present members' cap
/// (a member who leaves keeps their row: their games stay theirs).
pub const ROWS_PER_MEMBER_SLOT: usize = 4;

/// A circle's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircleRow {
    /// Its id.
    pub id: Uuid,
    /// Its name.
    pub name: String,
    /// The member who may rename it and remove members.
    pub creator: Uuid,
    /// When it was created (ms).
    pub created_at: i64,
}

/// Whether a member is one now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberStatus {
    /// A member.
    Member,
    /// Left on their own.
    Left,
    /// Removed by the creator.
    Removed,
}

impl MemberStatus {
    /// As stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            MemberStatus::Member => "member",
            MemberStatus::Left => "left",
            MemberStatus::Removed => "removed",
        }
    }

    /// Parses [`as_str`](MemberStatus::as_str)'s output.
    pub fn parse(s: &str) -> Option<MemberStatus> {
        match s {
            "member" => Some(MemberStatus::Member),
            "left" => Some(MemberStatus::Left),
            "removed" => Some(MemberStatus::Removed),
            _ => None,
        }
    }
}

/// A member's row (without their key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    /// Their id.
    pub id: Uuid,
    /// Their display name.
    pub name: String,
    /// Member, left or removed.
    pub status: MemberStatus,
    /// When they joined (ms).
    pub joined_at: i64,
}

/// A game of a circle, with its seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircleGameRow {
    /// The game.
    pub id: Uuid,
    /// Where it stands.
    pub status: GameStatus,
    /// When it was created (ms).
    pub created_at: i64,
    /// Its seats, in base order.
    pub seats: Vec<GameSeatRow>,
}

/// A seat of a circle's game, as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSeatRow {
    /// The seat.
    pub player: Player,
    /// Its display name.
    pub name: Option<String>,
    /// Whether it was taken.
    pub claimed: bool,
    /// The bot that played it from the start.
    pub bot: Option<Level>,
    /// The member who took it.
    pub member: Option<Uuid>,
}

/// Why a circle's request was refused.
#[derive(Debug, thiserror::Error)]
pub enum CircleError {
    /// The key is no present member's of this circle (or there is no such circle: the answer
    /// says nothing about which).
    #[error("this key is not a member's of this circle")]
    BadKey,
    /// The invite is not this circle's (or there is no such circle).
    #[error("this invite does not open this circle")]
    BadInvite,
    /// A name that is not acceptable.
    #[error("{0}")]
    BadName(String),
    /// A present member's name looks the same.
    #[error("the name {0:?} is already in this circle")]
    NameTaken(String),
    /// The circle has as many members as allowed.
    #[error("this circle has as many members as it may ({0})")]
    Full(usize),
    /// Only the creator may do this.
    #[error("only the circle's creator may do this")]
    NotCreator,
    /// No present member with this id.
    #[error("no member {0} in this circle")]
    NoMember(Uuid),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A new member's secrets, shown once.
pub struct NewMember {
    /// The member's id.
    pub id: Uuid,
    /// Their key.
    pub key: SeatToken,
}

/// The circles, over the store.
pub struct Circles {
    store: Store,
    /// Present members a circle may have.
    pub max_members: usize,
    /// The longest member name, in characters.
    pub max_name_chars: usize,
}

impl Circles {
    /// Circles over `store`: at most `max_members` present members each, names of at most
    /// `max_name_chars`.
    pub fn new(store: Store, max_members: usize, max_name_chars: usize) -> Circles {
        Circles {
            store,
            max_members: max_members.max(1),
            max_name_chars,
        }
    }

    fn member_name(&self, name: &str) -> Result<String, CircleError> {
        display_name(name, self.max_name_chars, [])
            .map_err(|e| CircleError::BadName(format!("name: {e}")))
    }

    /// A new circle named `name`, with its creator `member_name`: the circle, its invite and
    /// the creator's secrets.
    pub async fn create(
        &self,
        name: &str,
        member_name: &str,
    ) -> Result<(CircleRow, SeatToken, NewMember), CircleError> {
        let name = plain_name(name, MAX_CIRCLE_NAME_CHARS)
            .map_err(|e: TextError| CircleError::BadName(format!("name: {e}")))?;
        let member_name = self
            .member_name(member_name)
            .map_err(|e| CircleError::BadName(format!("member_{e}")))?;
        let now = now_ms();
        let member = MemberRow {
            id: Uuid::new_v4(),
            name: member_name,
            status: MemberStatus::Member,
            joined_at: now,
        };
        let circle = CircleRow {
            id: Uuid::new_v4(),
            name,
            creator: member.id,
            created_at: now,
        };
        let invite = SeatToken::generate();
        let key = SeatToken::generate();
        sql::create(
            self.store.pool(),
            &circle,
            &invite.hash(),
            &member,
            &name_key(&member.name),
            &key.hash(),
        )
        .await?;
        tracing::info!(circle = %circle.id, member = %member.id, "circle created");
        Ok((circle, invite, NewMember { id: member.id, key }))
    }

    /// Joins the circle `id` with its `invite`, as `name`.
    pub async fn join(
        &self,
        id: Uuid,
        invite: &str,
        name: &str,
    ) -> Result<(CircleRow, NewMember), CircleError> {
        let Some((circle, invite_hash)) = sql::circle(self.store.pool(), id).await? else {
            return Err(CircleError::BadInvite);
        };
        if !invite_hash.matches(&TokenHash::of(invite)) {
            return Err(CircleError::BadInvite);
        }
        let name = self.member_name(name)?;
        let member = MemberRow {
            id: Uuid::new_v4(),
            name,
            status: MemberStatus::Member,
            joined_at: now_ms(),
        };
        let key = SeatToken::generate();
        let max_rows = self.max_members.saturating_mul(ROWS_PER_MEMBER_SLOT);
        match sql::join(
            self.store.pool(),
            id,
            &member,
            &name_key(&member.name),
            &key.hash(),
            self.max_members,
            max_rows,
        )
        .await?
        {
            Ok(()) => {}
            Err(sql::JoinRefused::NameTaken) => return Err(CircleError::NameTaken(member.name)),
            Err(sql::JoinRefused::Full) => return Err(CircleError::Full(self.max_members)),
        }
        tracing::info!(circle = %id, member = %member.id, "member joined");
        Ok((circle, NewMember { id: member.id, key }))
    }

    /// The present member of circle `id` whose key is `key`, with the circle. Every present
    /// member's hash is compared, in constant time, so the time taken says nothing about
    /// which matched.
    pub async fn member(&self, id: Uuid, key: &str) -> Result<(CircleRow, MemberRow), CircleError> {
        let Some((circle, _)) = sql::circle(self.store.pool(), id).await? else {
            return Err(CircleError::BadKey);
        };
        let presented = TokenHash::of(key);
        let mut found = None;
        for (member, hash) in sql::members(self.store.pool(), id).await? {
            if hash.matches(&presented) && member.status == MemberStatus::Member {
                found = Some(member);
            }
        }
        found.map(|m| (circle, m)).ok_or(CircleError::BadKey)
    }

    /// The circle's page as `you` reads it: the places of games finished since the last read
    /// are computed from their logs and stored first.
    pub async fn view(&self, circle: &CircleRow, you: Uuid) -> Result<CircleView, CircleError> {
        let pool = self.store.pool();
        self.place_new_games(circle.id).await?;
        let members: Vec<MemberRow> = sql::members(pool, circle.id)
            .await?
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        let games = sql::games(pool, circle.id, MAX_LISTED_GAMES).await?;
        let places = sql::places(pool, circle.id).await?;
        Ok(standings::view(circle, you, &members, &games, &places))
    }

    /// Computes and stores the places of the circle's finished games that have none yet.
    async fn place_new_games(&self, circle: Uuid) -> Result<(), CircleError> {
        for game in sql::unplaced(self.store.pool(), circle).await? {
            match recompute::places_of(&self.store, game).await? {
                Some(places) => sql::keep_places(self.store.pool(), circle, &places).await?,
                None => tracing::warn!(%circle, %game, "a finished circle game without places"),
            }
        }
        Ok(())
    }

    /// Renames the circle (its creator only).
    pub async fn rename(
        &self,
        circle: &CircleRow,
        by: &MemberRow,
        name: &str,
    ) -> Result<String, CircleError> {
        if circle.creator != by.id {
            return Err(CircleError::NotCreator);
        }
        let name = plain_name(name, MAX_CIRCLE_NAME_CHARS)
            .map_err(|e| CircleError::BadName(format!("name: {e}")))?;
        sql::rename(self.store.pool(), circle.id, &name, now_ms()).await?;
        Ok(name)
    }

    /// A new invite for the circle (its creator only): the old link stops working.
    pub async fn reinvite(
        &self,
        circle: &CircleRow,
        by: &MemberRow,
    ) -> Result<SeatToken, CircleError> {
        if circle.creator != by.id {
            return Err(CircleError::NotCreator);
        }
        let invite = SeatToken::generate();
        sql::reinvite(self.store.pool(), circle.id, &invite.hash(), now_ms()).await?;
        Ok(invite)
    }

    /// `member` leaves (when it is `by`) or is removed (by the creator). Their games stay.
    pub async fn depart(
        &self,
        circle: &CircleRow,
        by: &MemberRow,
        member: Uuid,
    ) -> Result<MemberStatus, CircleError> {
        let status = if member == by.id {
            MemberStatus::Left
        } else if circle.creator == by.id {
            MemberStatus::Removed
        } else {
            return Err(CircleError::NotCreator);
        };
        if !sql::depart(self.store.pool(), circle.id, member, status, now_ms()).await? {
            return Err(CircleError::NoMember(member));
        }
        tracing::info!(circle = %circle.id, %member, status = status.as_str(), "member departed");
        Ok(status)
    }
}
