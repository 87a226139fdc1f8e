//! Claiming a seat, decided against the state: with an invite's token (that seat), or without
//! one in an open game (a free seat, or the one asked for). A seat named at creation is kept for
//! whoever has its invite link. The name is checked like every display name.

use djambi_core::Player;

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
}

impl GameState {
    /// Decides a claim of a seat: with `token` (an invite) that seat, else (an open game) the
    /// seat `player` or the first free one; `name` (or the seat's preset name) checked with
    /// names of at most `max_name_chars` characters.
    pub fn decide_claim(
        &self,
        token: Option<&str>,
        player: Option<Player>,
        name: Option<&str>,
        max_name_chars: usize,
    ) -> Result<Claim, ClaimError> {
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
            None => (self.free_seat(player)?, SeatToken::generate()),
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
        })
    }

    /// The seat a claim without an invite gets in an open game: `wanted`, or the first free one.
    fn free_seat(&self, wanted: Option<Player>) -> Result<Player, ClaimError> {
        if !self.open {
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
        seat
    }
}
