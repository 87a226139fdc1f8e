//! Table talk: a chat line (public, a whisper, or a spectator's word) and who may read it.
//! The rule is the domain's, applied alike to live messages, snapshots, the chat resent after a
//! reconnection and the public API.

use djambi_core::Player;

/// One chat message or whisper of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Its id within the game.
    pub id: u64,
    /// The game's version when it was said.
    pub v: u64,
    /// The author's seat; none for a spectator.
    pub from: Option<Player>,
    /// The author's name.
    pub name: String,
    /// A whisper's recipient.
    pub to: Option<Player>,
    /// The text (checked: see [`chat_text`](super::text::chat_text)).
    pub text: String,
    /// The author's ack id (a player's).
    pub ack: Option<u64>,
    /// When (ms since the Unix epoch).
    pub at: i64,
}

/// What of the table talk a reader may see: its seat (none for a spectator or the public API)
/// and whether it is in the spectators' room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatSight {
    /// The reader's seat.
    pub seat: Option<Player>,
    /// Whether spectators' messages reach it.
    pub spectator_room: bool,
}

impl ChatSight {
    /// A spectator's sight (also the public API's).
    pub const SPECTATOR: ChatSight = ChatSight {
        seat: None,
        spectator_room: true,
    };
}

/// Whether a reader may see a chat line: a whisper only its two players; a spectator's message
/// (the spectators' room) only readers in that room; a player's public message the players,
/// and spectators too unless the creator kept the players' chat to the table
/// (`players_public` false).
pub fn may_see(line: &ChatLine, sight: ChatSight, players_public: bool) -> bool {
    match (line.from, line.to) {
        (_, Some(to)) => {
            sight.seat.is_some() && (sight.seat == Some(to) || sight.seat == line.from)
        }
        (None, None) => sight.spectator_room,
        (Some(_), None) => sight.seat.is_some() || players_public,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whispers_are_for_their_two_players() {
        let line = ChatLine {
            id: 1,
            v: 0,
            from: Some(Player::Red),
            name: "Ann".into(),
            to: Some(Player::Blue),
            text: "psst".into(),
            ack: None,
            at: 0,
        };
        let seat = |p| ChatSight {
            seat: Some(p),
            spectator_room: true,
        };
        assert!(may_see(&line, seat(Player::Red), true));
        assert!(may_see(&line, seat(Player::Blue), true));
        assert!(!may_see(&line, seat(Player::Green), true));
        assert!(!may_see(&line, ChatSight::SPECTATOR, true));
    }

    #[test]
    fn spectators_talk_in_their_own_room() {
        let said = |from: Option<Player>| ChatLine {
            id: 1,
            v: 0,
            from,
            name: "Zed".into(),
            to: None,
            text: "hi".into(),
            ack: None,
            at: 0,
        };
        let closed = ChatSight {
            seat: Some(Player::Red),
            spectator_room: false,
        };
        let opened = ChatSight {
            spectator_room: true,
            ..closed
        };
        // A spectator's message: spectators, and a player only once the room is open.
        assert!(may_see(&said(None), ChatSight::SPECTATOR, true));
        assert!(!may_see(&said(None), closed, true));
        assert!(may_see(&said(None), opened, true));
        // A player's public message: every player; spectators unless the creator said no.
        assert!(may_see(&said(Some(Player::Blue)), closed, false));
        assert!(may_see(
            &said(Some(Player::Blue)),
            ChatSight::SPECTATOR,
            true
        ));
        assert!(!may_see(
            &said(Some(Player::Blue)),
            ChatSight::SPECTATOR,
            false
        ));
    }
}
