//! Building the protocol's views of a game state: the state after an event, the compact legal
//! turns, events and snapshots.

use djambi_core::{Effect, Player, Position};

use super::state::GameState;
use crate::clock::rfc3339;
use crate::protocol::{
    ChatView, ControlView, DrawOfferView, EventView, GameView, LegalView, SeatView, StateView,
};
use crate::store::{ChatRow, EventKind};

/// How many coming turns `order` lists.
const ORDER_LEN: usize = 8;

/// The legal turns of the player to move, grouped by `from-to` (PROTOCOL §3.3).
pub fn legal_view(pos: &Position) -> LegalView {
    LegalView::new(pos.legal_turns())
}

/// The state after the last event.
pub fn state_view(state: &GameState) -> StateView {
    let pos = state.position();
    StateView {
        dpn: pos.to_dpn(),
        to_move: pos.to_move(),
        bonus: pos.bonus(),
        order: pos.coming_turns(ORDER_LEN),
        ruler: pos.ruler(),
        control: ControlView::from_fn(|a| pos.control(a)),
        eliminated: eliminated(state),
        ranking: state.game.ranking(),
        result: state.result(),
        legal: legal_view(pos),
    }
}

fn eliminated(state: &GameState) -> Vec<Player> {
    let pos = state.position();
    state
        .game
        .players()
        .iter()
        .filter(|p| !pos.is_alive(*p))
        .collect()
}

/// The view of an event just applied to `state` (which is the state after it).
pub fn event_view(state: &GameState, kind: &EventKind, effects: Vec<Effect>) -> EventView {
    match kind {
        EventKind::Turn { player, .. } => {
            let (number, turn) = state.last_turn().expect("a turn was just played");
            EventView::Turn {
                number,
                player: *player,
                turn,
                effects,
                state: state_view(state),
            }
        }
        EventKind::Resign(player) => EventView::Resign {
            player: *player,
            effects,
            state: state_view(state),
        },
        EventKind::DrawOffered(by) => EventView::DrawOffered { by: *by },
        EventKind::DrawAccepted(by) => EventView::DrawAccepted { by: *by },
        EventKind::DrawDeclined(by) => EventView::DrawDeclined { by: *by },
        EventKind::DrawAgreed(_) => EventView::DrawAgreed {
            state: state_view(state),
        },
    }
}

/// A chat row as sent.
pub fn chat_view(row: &ChatRow) -> ChatView {
    ChatView {
        id: row.id,
        from: row.from,
        name: row.name.clone(),
        to: row.to,
        text: row.text.clone(),
        at: rfc3339(row.at),
    }
}

/// Whether a viewer playing `seat` (none for a spectator) may see a chat row: public chat
/// everyone, a whisper only its two players.
pub fn may_see(row: &ChatRow, seat: Option<Player>) -> bool {
    match row.to {
        None => true,
        Some(to) => seat.is_some() && (seat == Some(to) || seat == row.from),
    }
}

/// The snapshot of a game for a viewer playing `seat` (none: a spectator or the public API).
/// `connected` says which seats have a connection.
pub fn game_view<'a>(
    state: &GameState,
    seat: Option<Player>,
    connected: impl Fn(Player) -> bool,
    spectators: u32,
    chat: impl Iterator<Item = &'a ChatRow>,
) -> GameView {
    let pos = state.position();
    GameView {
        id: state.id,
        v: state.v,
        status: state.status(),
        rules: state.rules(),
        players: state.players,
        hostage: state.hostage,
        open: state.open,
        start: state.game.start().to_dpn(),
        seats: state
            .seats
            .iter()
            .map(|s| SeatView {
                player: s.player,
                name: s.name.clone(),
                claimed: s.claimed,
                connected: connected(s.player),
                alive: pos.is_alive(s.player),
            })
            .collect(),
        spectators,
        state: state_view(state),
        turns: state.turns(),
        draw_offer: state.draw.map(|d| DrawOfferView {
            by: d.by,
            accepted: d.accepted.iter().collect(),
        }),
        chat: chat.filter(|c| may_see(c, seat)).map(chat_view).collect(),
        created_at: rfc3339(state.created_at),
        updated_at: rfc3339(state.updated_at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_turns_group_by_from_to() {
        let legal = serde_json::to_value(legal_view(&Position::new())).unwrap();
        assert_eq!(legal.as_object().unwrap().len(), 30);
        assert_eq!(legal["b7-b5"], serde_json::json!([""]));
        // A kill offers its placements as suffixes.
        let pos = Position::from_dpn(
            "Cr8/9/9/9/9/9/9/1Mb7/Cb8 r rb-- - 0 - 0 1",
            djambi_core::Rules::default(),
        )
        .unwrap();
        let legal = serde_json::to_value(legal_view(&pos)).unwrap();
        assert!(legal["a9-a1"][0].as_str().unwrap().starts_with('@'));
    }

    #[test]
    fn whispers_are_for_their_two_players() {
        let row = ChatRow {
            id: 1,
            v: 0,
            from: Some(Player::Red),
            name: "Ann".into(),
            to: Some(Player::Blue),
            text: "psst".into(),
            ack: None,
            at: 0,
        };
        assert!(may_see(&row, Some(Player::Red)));
        assert!(may_see(&row, Some(Player::Blue)));
        assert!(!may_see(&row, Some(Player::Green)));
        assert!(!may_see(&row, None));
    }
}
