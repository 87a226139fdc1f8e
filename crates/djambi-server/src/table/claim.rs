//! Claiming a seat, decided against the state: with an invite's token (that seat), or without
//! one in an open game (a free seat, or the one asked for), or by a member of the game's circle
//! (a free seat, open game or not; one per member). A seat named at creation is kept for
//! whoever has its invite link. The name is checked like every display name.

use djambi_core::Player;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::GameState;
use super::refusal::ClaimError;
use super::text::display_name;
use crate::token::{SeatToken, TokenHash};

/// A claim the state accepted: the seat, its holder's name and token (the presented one, or a
/// new one for a claim without an invite).
#[derive(Clone, Debug)]
pub struct Claim {
    /// The seat.
    pub player: Player,
    /// The holder's display name.
    pub name: String,
    /// The seat's token from now on.
    pub token: SeatToken,
    /// Whether the seat's token changes (whoever held the old one loses the seat).
    pub replaces: bool,
    /// The circle's member who takes it, if a member does.
    pub member: Option<Uuid>,
}

/// A circle's member asking for a seat of a game of that circle. The edge has checked the
/// member's key against the circle; the table checks the game is the circle's and the member
/// has no seat in it yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSeat {
    /// The circle.
    pub circle: Uuid,
    /// The member.
    pub member: Uuid,
}

impl GameState {
    /// Decides a claim of a seat: with `token` (an invite) that seat, else (an open game, or
    /// a `member` of the game's circle) the seat `player` or the first free one; `name` (or
    /// the seat's preset name) checked with names of at most `max_name_chars` characters.
    pub fn decide_claim(
        &self,
        token: Option<&str>,
        player: Option<Player>,
        name: Option<&str>,
        member: Option<MemberSeat>,
        max_name_chars: usize,
    ) -> Result<Claim, ClaimError> {
        if let Some(m) = member {
            if self.circle != Some(m.circle) || token.is_some() {
                return Err(ClaimError::NotCircleGame);
            }
            if self.seats.iter().any(|s| s.member == Some(m.member)) {
                return Err(ClaimError::MemberSeated);
            }
        }
        let (player, token) = match token {
            Some(token) => {
                let seat = self
                    .seat_of_token(&TokenHash::of(token))
                    .ok_or(ClaimError::BadToken)?;
                if player.is_some_and(|p| p != seat) {
                    return Err(ClaimError::BadToken);
                }
                (seat, SeatToken::from_client(token.to_string()))
            }
            None => (
                self.free_seat(player, member.is_some())?,
                SeatToken::generate(),
            ),
        };
        if self.is_over() {
            return Err(ClaimError::Over);
        }
        let seat = self.seat(player).ok_or(ClaimError::NoSuchSeat(player))?;
        if seat.claimed {
            return Err(ClaimError::AlreadyClaimed(player));
        }
        let others = self
            .seats
            .iter()
            .filter(|s| s.player != player)
            .filter_map(|s| s.name.as_deref());
        let name = match name.or(seat.name.as_deref()) {
            Some(name) => display_name(name, max_name_chars, others)
                .map_err(|e| ClaimError::Name(e.to_string()))?,
            None => return Err(ClaimError::NameRequired),
        };
        Ok(Claim {
            player,
            name,
            replaces: !seat.token_hash.matches(&token.hash()),
            token,
            member: member.map(|m| m.member),
        })
    }

    /// The seat a claim without an invite gets in an open game (or, `by_member`, in any game
    /// of a circle, for its member): `wanted`, or the first free one.
    fn free_seat(&self, wanted: Option<Player>, by_member: bool) -> Result<Player, ClaimError> {
        if !self.open && !by_member {
            return Err(ClaimError::InviteOnly);
        }
        // A seat named at creation is kept for whoever has its invite link.
        let free = |p: Player| {
            self.seat(p).is_some_and(|s| !s.claimed && s.name.is_none())
                && self.position().is_alive(p)
        };
        match wanted {
            Some(p) => {
                let Some(seat) = self.seat(p) else {
                    return Err(ClaimError::NoSuchSeat(p));
                };
                if let Some(name) = &seat.name
                    && !seat.claimed
                {
                    return Err(ClaimError::Kept {
                        player: p,
                        name: name.clone(),
                    });
                }
                if !free(p) {
                    return Err(ClaimError::Taken(p));
                }
                Ok(p)
            }
            None => self
                .seats
                .iter()
                .map(|s| s.player)
                .find(|p| free(*p))
                .ok_or(ClaimError::AllTaken),
        }
    }

    /// Gives the seat to the claim's holder (the caller keeps the seats in its checkpoint).
    pub fn apply_claim(&mut self, claim: &Claim) -> &super::Seat {
        let seat = self
            .seats
            .iter_mut()
            .find(|s| s.player == claim.player)
            .expect("a decided claim's seat exists");
        seat.claimed = true;
        seat.name = Some(claim.name.clone());
        seat.token_hash = claim.token.hash();
        // A rematch's seat kept for a member stays theirs when they claim it with its token.
        if claim.member.is_some() {
            seat.member = claim.member;
        }
        seat
    }
}
