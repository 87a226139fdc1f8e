//! The JSON bodies of the circles' API (PROTOCOL §2.5, docs/CIRCLES.md): a circle of friends,
//! its members, its games with their places, the standings and the head-to-head grid.

use std::collections::BTreeMap;

use djambi_core::Player;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::lifecycle::BotLevel;
use super::server::GameStatus;

/// `POST /api/circles`: a new circle, with its creator as its first member.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateCircle {
    /// The circle's name.
    pub name: String,
    /// The creator's display name in it.
    pub member_name: String,
}

/// The answer to a new circle: the only time its invite and the creator's key are shown.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CreatedCircle {
    /// The circle's id.
    pub id: Uuid,
    /// Its page.
    pub url: String,
    /// The link that lets a friend join (the invite rides in its `#` part).
    pub invite_url: String,
    /// The creator's membership.
    pub member: MemberKey,
}

/// A member's id and secret key (shown once; the browser keeps it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MemberKey {
    /// The member's id.
    pub id: Uuid,
    /// The member's key: `Authorization: Bearer KEY` on the circle's API.
    pub key: String,
}

/// `POST /api/circles/{id}/members`: join with the invite.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinCircle {
    /// The invite (the `#` part of the invite link).
    pub invite: String,
    /// The display name in the circle.
    pub name: String,
}

/// The answer to a join.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JoinedCircle {
    /// The new member.
    pub member: MemberKey,
    /// The circle's name (for the joining page).
    pub name: String,
}

/// `PATCH /api/circles/{id}`: the creator renames the circle.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenameCircle {
    /// The new name.
    pub name: String,
}

/// `"circle"` of `POST /api/games`: the game is the circle's, created by this member.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleAuth {
    /// The circle.
    pub id: Uuid,
    /// The creating member's key.
    pub key: String,
}

/// `"member"` of `POST /api/games/{id}/seats`: a member takes a free seat of a circle game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberAuth {
    /// The circle.
    pub circle: Uuid,
    /// The member's id.
    pub id: Uuid,
    /// The member's key.
    pub key: String,
}

/// `GET /api/circles/{id}`: everything the circle's page shows.
#[derive(Clone, Debug, Serialize)]
pub struct CircleView {
    /// The circle's id.
    pub id: Uuid,
    /// Its name.
    pub name: String,
    /// The member who may rename it and remove members.
    pub creator: Uuid,
    /// Who reads it (the key's member).
    pub you: Uuid,
    /// The standings: every member, present and past, best conservative rating first.
    pub members: Vec<Standing>,
    /// The circle's games, newest first.
    pub games: Vec<CircleGame>,
    /// For each pair of members who finished a rated game together: how often `a` finished
    /// ahead of `b` (`ahead`) and behind (`behind`); `a` < `b` by id.
    pub head_to_head: Vec<HeadToHead>,
    /// Each rated game, in finishing order, with the conservative ratings of its members
    /// after it (the chart).
    pub history: Vec<RatingPoint>,
    /// The bots' fixed ratings (their anchors), by level.
    pub anchors: BTreeMap<String, f64>,
}

/// A member in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The member's id.
    pub id: Uuid,
    /// Their display name (raw: clients escape it).
    pub name: String,
    /// `member`, `left` or `removed`.
    pub status: &'static str,
    /// The conservative rating, μ − 2σ (docs/CIRCLES.md), two decimals.
    pub rating: f64,
    /// The rating's mean μ.
    pub mu: f64,
    /// Its uncertainty σ.
    pub sigma: f64,
    /// Fewer than 5 rated games.
    pub provisional: bool,
    /// Rated games finished.
    pub games: u32,
    /// Of those, won.
    pub wins: u32,
    /// Of those, drawn (sharing the draw).
    pub draws: u32,
    /// The mean place in them (1 is first), two decimals; none before a game.
    pub average_place: Option<f64>,
    /// When their last rated game finished (RFC 3339).
    pub last_played: Option<String>,
}

/// A circle game in the list.
#[derive(Clone, Debug, Serialize)]
pub struct CircleGame {
    /// The game's id.
    pub id: Uuid,
    /// Open, live, finished or cancelled.
    pub status: GameStatus,
    /// When it ended (RFC 3339): the event that finished it.
    pub finished: Option<String>,
    /// Whether it counts for the ratings (finished, with at least two members seated).
    pub rated: bool,
    /// Each seat's place (1 is first; sharers of a draw share it); empty until it is over.
    pub places: BTreeMap<Player, u8>,
    /// Its seats.
    pub seats: Vec<CircleSeat>,
    /// When it was created (RFC 3339).
    pub created_at: String,
}

/// A seat of a circle game.
#[derive(Clone, Debug, Serialize)]
pub struct CircleSeat {
    /// The seat.
    pub player: Player,
    /// Its display name (raw).
    pub name: Option<String>,
    /// Whether someone took it.
    pub claimed: bool,
    /// The member who took it.
    pub member: Option<Uuid>,
    /// The bot that played it from the start.
    pub bot: Option<BotLevel>,
    /// How its player's game ended: `won`, `drew`, `out` (eliminated or resigned) or
    /// `replaced` (handed to a bot by a vote or a timeout); none until the game is over.
    pub end: Option<&'static str>,
}

/// One pair of the head-to-head grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeadToHead {
    /// One member.
    pub a: Uuid,
    /// The other.
    pub b: Uuid,
    /// Rated games where `a` finished ahead of `b`.
    pub ahead: u32,
    /// Rated games where `b` finished ahead of `a`.
    pub behind: u32,
    /// Rated games both played (sharing a place counts in neither of the above).
    pub games: u32,
}

/// The ratings after one rated game.
#[derive(Clone, Debug, Serialize)]
pub struct RatingPoint {
    /// The game.
    pub game: Uuid,
    /// When it finished (RFC 3339).
    pub finished: String,
    /// The conservative rating of each member who played it, after it.
    pub ratings: BTreeMap<Uuid, f64>,
}
