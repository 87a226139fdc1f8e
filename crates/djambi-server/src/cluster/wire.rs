//! How nodes' messages are encoded: postcard, a compact binary form of the serde types (the
//! game's vocabulary, its outbound messages, presence digests), so an event's JSON text crosses
//! as it is, without a second JSON escaping.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

/// Encodes a message for another node.
pub fn encode<T: Serialize>(message: &T) -> Bytes {
    Bytes::from(postcard::to_allocvec(message).expect("node messages serialise"))
}

/// Decodes a message from another node (`None` if it does not read).
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{
        Answer, Audience, Call, CloseReason, JoinError, Outbound, Seq, Text, Viewer,
    };
    use crate::table::{Action, Role, VoteAction};
    use crate::token::TokenHash;
    use djambi_core::{ArmySet, Player};

    fn round_trip(o: &Outbound) -> Outbound {
        decode::<Outbound>(&encode(o)).unwrap()
    }

    #[test]
    fn outbound_messages_cross_unchanged() {
        let players = ArmySet::EMPTY.with(Player::Red).with(Player::Green);
        for (seq, audience, close) in [
            (Seq::Event(7), Audience::All, None),
            (Seq::Snapshot(3), Audience::Players(players), None),
            (Seq::None, Audience::Seat(Player::Blue), None),
            (Seq::None, Audience::Spectators, None),
            (
                Seq::None,
                Audience::Conn(5 << 32 | 9),
                Some(CloseReason::SeatOpenedElsewhere),
            ),
            (Seq::None, Audience::Node(5), Some(CloseReason::Restarting)),
        ] {
            let o = Outbound {
                seq,
                audience,
                text: Text::from(r#"{"type":"event","text":"é \"q\""}"#),
                close,
            };
            let back = round_trip(&o);
            assert_eq!(back.seq, o.seq);
            assert_eq!(back.audience, o.audience);
            assert_eq!(back.text, o.text);
            assert_eq!(back.close, o.close);
        }
    }

    #[test]
    fn calls_and_answers_cross_unchanged() {
        let viewer = Viewer {
            conn: 3 << 32 | 1,
            role: Role::Player(Player::Yellow),
            name: "Ann".into(),
            token: Some(TokenHash::of("secret")),
            spectator_room: true,
            address: Some(crate::net::IpKey::of([192, 0, 2, 7].into())),
        };
        let call = Call::Act {
            viewer: viewer.clone(),
            ack: 12,
            action: Action::Vote(Player::Red, VoteAction::Bot(djambi_engine::Level::Easy)),
        };
        let Some(Call::Act {
            viewer: back,
            ack,
            action,
        }) = decode::<Call>(&encode(&call))
        else {
            panic!("not an act");
        };
        assert_eq!(back, viewer);
        assert_eq!(ack, 12);
        assert_eq!(
            action,
            Action::Vote(Player::Red, VoteAction::Bot(djambi_engine::Level::Easy))
        );
        let answer = Answer::Joined(Err(JoinError::BadName("x".into())));
        assert!(matches!(
            decode::<Answer>(&encode(&answer)),
            Some(Answer::Joined(Err(JoinError::BadName(n)))) if n == "x"
        ));
    }

    #[test]
    fn garbage_is_refused_not_a_panic() {
        assert!(decode::<Call>(&[0xff, 0xff, 0xff]).is_none());
        assert!(decode::<Outbound>(&[]).is_none());
    }
}
