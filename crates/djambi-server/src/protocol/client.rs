//! Client → server socket messages (PROTOCOL §3.1).

use djambi_core::Player;
use serde::{Deserialize, Serialize};

use super::lifecycle::BotLevel;

/// The version of the socket protocol this server speaks (PROTOCOL §3). Version 2 sends the
/// legal turns only to the seat to move, in their own `legal` message.
pub const PROTOCOL_VERSION: u32 = 2;

/// One message from a browser: a closed set, tagged by `type`. The socket layer parses every text
/// frame into this enum (or answers `malformed`) before anything else looks at it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: who the client is, and what it has already seen.
    Hello {
        /// The protocol version the client speaks: it must be [`PROTOCOL_VERSION`] (a client
        /// of an older version, which sends none, is told to reload).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        protocol: Option<u32>,
        /// A seat token (the connection plays that seat), or none for a spectator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// The last event version the client saw: it receives the missed events instead of a
        /// snapshot when the server still has them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
        /// The last chat id the client saw: the missed chat messages it may see are sent again
        /// when the server still has them in memory.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chat_since: Option<u64>,
        /// A spectator's display name for chat (players chat under their seat's name).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Play a turn (canonical turn text, NOTATION §3; any case).
    Move {
        /// The client's id for this command.
        ack: u64,
        /// The turn text.
        turn: String,
    },
    /// Resign (R9.6), at any time.
    Resign {
        /// The client's id for this command.
        ack: u64,
    },
    /// Offer a draw to the other living players (R12.2).
    OfferDraw {
        /// The client's id for this command.
        ack: u64,
    },
    /// Accept the pending draw offer.
    AcceptDraw {
        /// The client's id for this command.
        ack: u64,
    },
    /// Decline (or, for its author, withdraw) the pending draw offer.
    DeclineDraw {
        /// The client's id for this command.
        ack: u64,
    },
    /// Public table talk.
    Chat {
        /// The client's id for this command.
        ack: u64,
        /// The message, raw (the browser escapes it when showing it).
        text: String,
    },
    /// A private message to one other player, seen only by the two of them.
    Whisper {
        /// The client's id for this command.
        ack: u64,
        /// The recipient.
        to: Player,
        /// The message, raw.
        text: String,
    },
    /// Take the seat back from the bot that plays it.
    Reclaim {
        /// The client's id for this command.
        ack: u64,
    },
    /// Open a vote on the player to move, away for longer than the grace period.
    Vote {
        /// The client's id for this command.
        ack: u64,
        /// The absent player.
        target: Player,
        /// `bot` (hand the seat to a bot) or `resign`.
        action: VoteKind,
        /// The bot's level, for `bot` (default `medium`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<BotLevel>,
    },
    /// Answer the open vote.
    VoteAnswer {
        /// The client's id for this command.
        ack: u64,
        /// Yes or no.
        yes: bool,
    },
    /// Ask to take back one's last turn (before the next turn is played).
    Takeback {
        /// The client's id for this command.
        ack: u64,
    },
    /// Answer a takeback request.
    TakebackAnswer {
        /// The client's id for this command.
        ack: u64,
        /// Agreed or not.
        yes: bool,
    },
    /// A player opens (or closes) the spectators' room on this connection: spectators'
    /// messages reach it from now on (or no longer). Answered by a snapshot, whose `chat`
    /// holds the room's recent messages when open. A spectator is always in the room.
    SpectatorRoom {
        /// Open or closed.
        open: bool,
    },
    /// After the game, ask for a rematch: the same table, seats rotated (PROTOCOL §6.7).
    Rematch {
        /// The client's id for this command.
        ack: u64,
    },
    /// Ask again for the events after `since` (or a snapshot).
    Sync {
        /// The last event version the client saw; none asks for a snapshot.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Keep-alive; answered by `pong`.
    Ping,
}

impl ClientMessage {
    /// The command's ack id, if the message carries one.
    pub fn ack(&self) -> Option<u64> {
        match self {
            ClientMessage::Move { ack, .. }
            | ClientMessage::Resign { ack }
            | ClientMessage::OfferDraw { ack }
            | ClientMessage::AcceptDraw { ack }
            | ClientMessage::DeclineDraw { ack }
            | ClientMessage::Chat { ack, .. }
            | ClientMessage::Whisper { ack, .. }
            | ClientMessage::Reclaim { ack }
            | ClientMessage::Vote { ack, .. }
            | ClientMessage::VoteAnswer { ack, .. }
            | ClientMessage::Takeback { ack }
            | ClientMessage::TakebackAnswer { ack, .. }
            | ClientMessage::Rematch { ack } => Some(*ack),
            ClientMessage::Hello { .. }
            | ClientMessage::Sync { .. }
            | ClientMessage::SpectatorRoom { .. }
            | ClientMessage::Ping => None,
        }
    }
}

/// What a vote on an absent player would do, as a client asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoteKind {
    /// Hand the seat to a bot.
    Bot,
    /// Make the player resign.
    Resign,
}

/// What is left of a message that does not parse: its `ack`, if it had a readable one, so the
/// `malformed` error can name it.
#[derive(Debug, Deserialize)]
pub struct AckOnly {
    /// The ack id, if any.
    #[serde(default)]
    pub ack: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        let m: ClientMessage =
            serde_json::from_str(r#"{"type":"move","ack":7,"turn":"b7-b5"}"#).unwrap();
        assert_eq!(
            m,
            ClientMessage::Move {
                ack: 7,
                turn: "b7-b5".into()
            }
        );
        assert_eq!(m.ack(), Some(7));
        let m: ClientMessage = serde_json::from_str(r#"{"type":"hello"}"#).unwrap();
        assert_eq!(
            m,
            ClientMessage::Hello {
                token: None,
                since: None,
                chat_since: None,
                name: None,
                protocol: None
            }
        );
        let m: ClientMessage =
            serde_json::from_str(r#"{"type":"whisper","ack":1,"to":"b","text":"hi"}"#).unwrap();
        assert_eq!(m.ack(), Some(1));
        assert!(
            serde_json::from_str::<ClientMessage>(
                r#"{"type":"whisper","ack":1,"to":"x","text":"hi"}"#
            )
            .is_err()
        );
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"fly"}"#).is_err());
        assert!(
            serde_json::from_str::<ClientMessage>(r#"{"type":"move","ack":-1,"turn":"a"}"#)
                .is_err()
        );
    }

    #[test]
    fn a_broken_message_still_yields_its_ack() {
        let a: AckOnly = serde_json::from_str(r#"{"type":"move","ack":9}"#).unwrap();
        assert_eq!(a.ack, Some(9));
    }
}
