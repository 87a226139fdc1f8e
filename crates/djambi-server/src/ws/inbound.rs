//! Client frames in: size limit and parsing into the closed [`ClientMessage`] enum.
//! What does not parse becomes a typed error here and goes no further.

use crate::protocol::client::{AckOnly, VoteKind};
use crate::protocol::{ClientMessage, ErrorCode};
use crate::table::{Action, VoteAction};

/// The largest ack id: JSON's safe integers (2^53 − 1), so every client can count to it.
pub const MAX_ACK: u64 = (1 << 53) - 1;

/// A frame refused before reaching the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The message's ack id, if it could be read.
    pub ack: Option<u64>,
    /// The typed error.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
}

/// Parses one text frame of at most `max_bytes`.
pub fn parse(text: &str, max_bytes: usize) -> Result<ClientMessage, Refused> {
    if text.len() > max_bytes {
        return Err(Refused {
            ack: None,
            code: ErrorCode::TooLarge,
            message: format!("a message may have at most {max_bytes} bytes"),
        });
    }
    match serde_json::from_str::<ClientMessage>(text) {
        Ok(message) => match message.ack() {
            Some(ack) if ack > MAX_ACK => Err(Refused {
                ack: None,
                code: ErrorCode::Malformed,
                message: format!("ack: at most {MAX_ACK}"),
            }),
            _ => Ok(message),
        },
        Err(e) => Err(Refused {
            ack: ack_of(text, max_bytes),
            code: ErrorCode::Malformed,
            message: format!("not a valid message: {e}"),
        }),
    }
}

/// The `ack` of a frame that is refused, if it can be read (frames over the size limit are not
/// read at all).
pub fn ack_of(text: &str, max_bytes: usize) -> Option<u64> {
    if text.len() > max_bytes {
        return None;
    }
    serde_json::from_str::<AckOnly>(text)
        .ok()
        .and_then(|a| a.ack)
        .filter(|a| *a <= MAX_ACK)
}

/// The game command a message carries, with its ack id.
pub fn action(message: ClientMessage) -> Option<(u64, Action)> {
    Some(match message {
        ClientMessage::Move { ack, turn } => (ack, Action::Move(turn)),
        ClientMessage::Resign { ack } => (ack, Action::Resign),
        ClientMessage::OfferDraw { ack } => (ack, Action::OfferDraw),
        ClientMessage::AcceptDraw { ack } => (ack, Action::AcceptDraw),
        ClientMessage::DeclineDraw { ack } => (ack, Action::DeclineDraw),
        ClientMessage::Chat { ack, text } => (ack, Action::Chat(text)),
        ClientMessage::Whisper { ack, to, text } => (ack, Action::Whisper(to, text)),
        ClientMessage::Reclaim { ack } => (ack, Action::Reclaim),
        ClientMessage::Vote {
            ack,
            target,
            action,
            level,
        } => {
            let action = match (action, level) {
                (VoteKind::Bot, Some(level)) => Action::Vote(target, VoteAction::Bot(level.0)),
                (VoteKind::Bot, None) => Action::VoteBot(target),
                (VoteKind::Resign, _) => Action::Vote(target, VoteAction::Resign),
            };
            (ack, action)
        }
        ClientMessage::VoteAnswer { ack, yes } => (ack, Action::VoteAnswer(yes)),
        ClientMessage::Takeback { ack } => (ack, Action::Takeback),
        ClientMessage::TakebackAnswer { ack, yes } => (ack, Action::TakebackAnswer(yes)),
        ClientMessage::Rematch { ack } => (ack, Action::Rematch),
        ClientMessage::Hello { .. }
        | ClientMessage::Sync { .. }
        | ClientMessage::SpectatorRoom { .. }
        | ClientMessage::Ping => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_typed() {
        assert_eq!(
            parse(&"x".repeat(10), 4).unwrap_err().code,
            ErrorCode::TooLarge
        );
        let e = parse(r#"{"type":"move","ack":3}"#, 100).unwrap_err();
        assert_eq!((e.code, e.ack), (ErrorCode::Malformed, Some(3)));
        assert_eq!(parse("nope", 100).unwrap_err().ack, None);
        let e = parse(r#"{"type":"resign","ack":9007199254740992}"#, 100).unwrap_err();
        assert_eq!(e.code, ErrorCode::Malformed);
        assert!(parse(r#"{"type":"resign","ack":9007199254740991}"#, 100).is_ok());
    }
}
