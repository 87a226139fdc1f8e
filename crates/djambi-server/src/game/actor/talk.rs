//! Table talk: public chat and whispers, committed like everything else, then sent to the
//! connections that may see them.

use djambi_core::{ArmySet, Player};

use super::Actor;
use super::encode;
use crate::clock::now_ms;
use crate::game::outbound::{Audience, Outbound, Seq};
use crate::game::viewer::Viewer;
use crate::protocol::ServerMessage;
use crate::protocol::view::chat_view;
use crate::store::Commit;
use crate::table::text::{TextError, chat_text};
use crate::table::{ChatLine, Refusal};

impl Actor {
    pub(super) async fn chat(
        &mut self,
        viewer: &Viewer,
        ack: u64,
        to: Option<Player>,
        text: String,
    ) -> Result<u64, Refusal> {
        let text = chat_text(&text, self.ctx.limits.max_chat_chars).map_err(|e| match e {
            TextError::TooLong(_) => Refusal::TooLarge(e.to_string()),
            _ => Refusal::Malformed(e.to_string()),
        })?;
        let from = viewer.role.seat();
        let audience = match to {
            None => chat_audience(from, None, self.state.settings.players_chat_public),
            Some(to) => {
                let Some(from) = from else {
                    return Err(Refusal::Spectator("spectators cannot whisper".into()));
                };
                if to == from || self.state.seat(to).is_none() {
                    return Err(Refusal::NotAPlayer);
                }
                Audience::Players(ArmySet::EMPTY.with(from).with(to))
            }
        };
        if self.chat_budget.check().is_err() {
            return Err(Refusal::RateLimited);
        }
        let row = ChatLine {
            id: self.last_chat_id + 1,
            v: self.state.v,
            from,
            name: viewer.name.clone(),
            to,
            text,
            ack: from.map(|_| ack),
            at: now_ms(),
        };
        let commit = Commit {
            game: self.state.id,
            chat: Some(row.clone()),
            ..Commit::default()
        };
        self.commit(commit).await.map_err(|e| {
            tracing::error!(game = %self.state.id, error = %e, "could not commit chat");
            Refusal::unsaved()
        })?;
        self.last_chat_id = row.id;
        self.touched = row.at;
        let mut outbound = chat_outbound(&row, self.state.settings.players_chat_public);
        outbound.audience = audience;
        self.chat.push_back(row);
        while self.chat.len() > self.ctx.limits.recent_chat.max(1) {
            self.chat.pop_front();
        }
        self.send(outbound);
        Ok(self.state.v)
    }
}

/// Who receives a chat row (as `may_see` reads it): a whisper its two players, a spectator's
/// message the spectators' room, a player's public message everyone, or the players only when
/// the creator kept their chat from spectators.
fn chat_audience(from: Option<Player>, to: Option<Player>, players_public: bool) -> Audience {
    match (from, to) {
        (Some(from), Some(to)) => Audience::Players(ArmySet::EMPTY.with(from).with(to)),
        (None, _) => Audience::Spectators,
        (Some(_), None) if players_public => Audience::All,
        (Some(_), None) => {
            Audience::Players(Player::ALL.into_iter().fold(ArmySet::EMPTY, ArmySet::with))
        }
    }
}

/// A chat line as a message to the connections that may read it.
pub(super) fn chat_outbound(row: &ChatLine, players_public: bool) -> Outbound {
    Outbound::new(
        Seq::None,
        chat_audience(row.from, row.to, players_public),
        encode(&ServerMessage::Chat(chat_view(row))),
    )
}
