//! What a player may do, decided against the game state: an action becomes the event it makes,
//! or a typed rejection. Nothing changes here; the actor applies the event to a copy.

use djambi_core::{IllegalKind, Player};

use super::Role;
use super::state::GameState;
use crate::protocol::{ErrorCode, GameStatus};
use crate::store::EventKind;

/// A command from a connection (chat aside, each one makes an event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a turn.
    Move(String),
    /// Resign.
    Resign,
    /// Offer a draw (or agree to the pending one).
    OfferDraw,
    /// Agree to the pending draw offer.
    AcceptDraw,
    /// Decline or withdraw the pending draw offer.
    DeclineDraw,
    /// Public chat.
    Chat(String),
    /// A whisper to one player.
    Whisper(Player, String),
}

impl Action {
    /// Whether the action is a turn (for the metrics).
    pub fn is_turn(&self) -> bool {
        matches!(self, Action::Move(_))
    }
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The typed error.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
    /// The core's kind, for `illegal`.
    pub kind: Option<IllegalKind>,
}

impl Rejection {
    /// A rejection with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Rejection {
        Rejection {
            code,
            message: message.into(),
            kind: None,
        }
    }
}

/// The event a game action by `role` would make, or why it may not happen.
pub fn decide(state: &GameState, role: Role, action: &Action) -> Result<EventKind, Rejection> {
    let Role::Player(player) = role else {
        return Err(Rejection::new(
            ErrorCode::Spectator,
            "spectators may only chat",
        ));
    };
    if state.is_over() {
        return Err(Rejection::new(ErrorCode::GameOver, "the game is over"));
    }
    if state.status() == GameStatus::Open {
        return Err(Rejection::new(
            ErrorCode::NotStarted,
            "the game starts when every seat is claimed",
        ));
    }
    let pos = state.position();
    if !pos.is_alive(player) {
        return Err(Rejection::new(
            ErrorCode::Eliminated,
            format!("{} is out of the game", player.name()),
        ));
    }
    match action {
        Action::Move(text) => {
            let to_move = pos.to_move().expect("an ongoing game has a player to move");
            if to_move != player {
                return Err(Rejection::new(
                    ErrorCode::NotYourTurn,
                    format!("it is {}'s turn", to_move.name()),
                ));
            }
            let turn = pos.parse_turn(text).map_err(|e| Rejection {
                code: ErrorCode::Illegal,
                message: e.message,
                kind: Some(e.kind),
            })?;
            Ok(EventKind::Turn {
                player,
                text: turn.to_string(),
            })
        }
        Action::Resign => Ok(EventKind::Resign(player)),
        Action::OfferDraw => match state.draw {
            None => Ok(EventKind::DrawOffered(player)),
            Some(_) => accept(state, player),
        },
        Action::AcceptDraw => accept(state, player),
        Action::DeclineDraw => match state.draw {
            None => Err(Rejection::new(
                ErrorCode::NoDrawOffer,
                "there is no draw offer",
            )),
            Some(_) => Ok(EventKind::DrawDeclined(player)),
        },
        // The actor routes chat elsewhere; this only keeps the match honest.
        Action::Chat(_) | Action::Whisper(..) => Err(Rejection::new(
            ErrorCode::Malformed,
            "chat is not a game action",
        )),
    }
}

fn accept(state: &GameState, player: Player) -> Result<EventKind, Rejection> {
    let Some(offer) = state.draw else {
        return Err(Rejection::new(
            ErrorCode::NoDrawOffer,
            "there is no draw offer",
        ));
    };
    if offer.accepted.contains(player) {
        return Err(Rejection::new(
            ErrorCode::DrawPending,
            "you have already agreed to the draw; the others have not yet",
        ));
    }
    let agreed = offer.accepted.with(player);
    if state.position().alive().iter().all(|p| agreed.contains(p)) {
        Ok(EventKind::DrawAgreed(player))
    } else {
        Ok(EventKind::DrawAccepted(player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Army, Position};
    use uuid::Uuid;

    fn four() -> GameState {
        let seats = Army::ALL
            .iter()
            .map(|&player| super::super::state::Seat {
                player,
                name: None,
                token_hash: crate::token::SeatToken::generate().hash(),
                claimed: true,
            })
            .collect();
        GameState::new(Uuid::new_v4(), Position::new(), seats, false, 0)
    }

    #[test]
    fn typed_rejections() {
        let s = four();
        let code = |role, action: Action| decide(&s, role, &action).unwrap_err().code;
        assert_eq!(
            code(Role::Spectator, Action::Move("b7-b5".into())),
            ErrorCode::Spectator
        );
        assert_eq!(
            code(Role::Player(Army::Blue), Action::Move("h7-h5".into())),
            ErrorCode::NotYourTurn
        );
        let e = decide(&s, Role::Player(Army::Red), &Action::Move("g7-e5".into())).unwrap_err();
        assert_eq!(e.code, ErrorCode::Illegal);
        assert!(e.kind.is_some());
        assert_eq!(
            code(Role::Player(Army::Red), Action::AcceptDraw),
            ErrorCode::NoDrawOffer
        );
        assert_eq!(
            decide(&s, Role::Player(Army::Red), &Action::Move("B7-B5".into())).unwrap(),
            EventKind::Turn {
                player: Army::Red,
                text: "b7-b5".into()
            }
        );
    }

    #[test]
    fn the_last_acceptance_agrees_the_draw() {
        let mut s = four();
        s.apply(&EventKind::DrawOffered(Army::Red)).unwrap();
        assert_eq!(
            decide(&s, Role::Player(Army::Red), &Action::AcceptDraw)
                .unwrap_err()
                .code,
            ErrorCode::DrawPending
        );
        for p in [Army::Blue, Army::Yellow] {
            let e = decide(&s, Role::Player(p), &Action::OfferDraw).unwrap();
            assert_eq!(e, EventKind::DrawAccepted(p));
            s.apply(&e).unwrap();
        }
        assert_eq!(
            decide(&s, Role::Player(Army::Green), &Action::AcceptDraw).unwrap(),
            EventKind::DrawAgreed(Army::Green)
        );
    }
}
