//! The protocol's views of the table: the state after an event, the compact legal turns,
//! events, clocks and snapshots, each built from the table's own types.

use djambi_core::{Player, Position};

use super::http::SeatSummary;
use super::lifecycle::{
    BotLevel, ClockSpec, ClockView, SeatTimes, TakebackView, VoteView, players,
};
use super::{
    ChatView, ControlView, DrawOfferView, EffectsView, EventView, GameView, LegalView,
    SeatPresence, SeatView, ServerMessage, StateView, TurnEntry,
};
use crate::clock::rfc3339;
use crate::table::{Applied, ChatLine, ChatSight, Clock, EventKind, GameState, Seat, may_see};

/// How many coming turns `order` lists.
const ORDER_LEN: usize = 8;

/// The legal turns of the player to move, grouped by piece and destination (PROTOCOL §3.4).
/// A player whose only turn is `pass` passes at once (the server plays it), so that list is
/// never shown.
pub fn legal_view(pos: &Position) -> LegalView {
    LegalView::new(pos.legal_turns())
}

/// The seat that receives the legal turns now: the one to move, when a person may move (the
/// game has started, is not over, and no bot plays that seat).
pub fn legal_seat(state: &GameState) -> Option<Player> {
    if !state.started || state.is_over() {
        return None;
    }
    let player = state.position().to_move()?;
    let bot = state
        .seats
        .iter()
        .any(|s| s.player == player && s.bot.is_some());
    (!bot).then_some(player)
}

/// The `legal` message of the current state: the legal turns of the player to move.
pub fn legal_message(state: &GameState) -> ServerMessage {
    ServerMessage::Legal {
        v: state.v,
        turns: legal_view(state.position()),
    }
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
        clock: state.clock.as_ref().map(clock_view),
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

/// The view of an event just applied to `state` (which is the state after it), with what
/// applying it did.
pub fn event_view(state: &GameState, kind: &EventKind, applied: Applied) -> EventView {
    EventView {
        event: *kind,
        number: applied.number,
        effects: applied.effects.map(EffectsView),
        undone: applied.undone,
        state: kind.shows_state().then(|| state_view(state)),
    }
}

/// The clock as clients see it.
pub fn clock_view(clock: &Clock) -> ClockView {
    match clock.spec() {
        ClockSpec::Live {
            initial_s,
            increment_s,
        } => ClockView::Live {
            initial_s,
            increment_s,
            remaining_ms: SeatTimes::from_fn(|p| clock.remaining(p)),
            running: clock.running(),
            since: clock.since(),
            deadline: clock.deadline_at(),
            first_turn: clock.first_turn(),
        },
        ClockSpec::Correspondence { per_turn_s } => ClockView::Correspondence {
            per_turn_s,
            running: clock.running(),
            deadline: clock.deadline_at(),
        },
    }
}

/// The turns that stand (passes included) with their versions, oldest first.
pub fn turns(state: &GameState) -> Vec<TurnEntry> {
    state
        .turns()
        .into_iter()
        .map(|t| TurnEntry {
            v: t.v,
            number: t.number,
            player: t.player,
            turn: t.turn.to_string(),
        })
        .collect()
}

/// The open vote, as snapshots show it.
pub fn vote_view(state: &GameState) -> Option<VoteView> {
    state.vote.map(|v| VoteView {
        by: v.by,
        target: v.target,
        action: v.action,
        voters: players(v.voters),
        yes: players(v.yes),
        no: players(v.no),
    })
}

/// A chat line as sent.
pub fn chat_view(row: &ChatLine) -> ChatView {
    ChatView {
        id: row.id,
        from: row.from,
        name: row.name.clone(),
        to: row.to,
        text: row.text.clone(),
        at: rfc3339(row.at),
    }
}

/// A seat as a snapshot shows it; `away_since`: since when it has had no connection (none
/// while connected).
pub fn seat_view(seat: &Seat, alive: bool, away_since: Option<i64>) -> SeatView {
    SeatView {
        player: seat.player,
        name: seat.name.clone(),
        claimed: seat.claimed,
        connected: away_since.is_none(),
        alive,
        bot: seat.bot.map(BotLevel),
        away_since: away_since.map(rfc3339),
        member: seat.member,
    }
}

/// A seat as `presence` shows it: whether a connection plays it, and since when none does.
pub fn seat_presence(seat: &Seat, connected: bool, away_since: Option<i64>) -> SeatPresence {
    SeatPresence {
        player: seat.player,
        name: seat.name.clone(),
        claimed: seat.claimed,
        connected,
        bot: seat.bot.map(BotLevel),
        away_since: away_since.map(rfc3339),
    }
}

/// A stored seat as game lists show it (its bot: the one it started with).
pub fn seat_summary(seat: Seat, connected: bool) -> SeatSummary {
    SeatSummary {
        player: seat.player,
        name: seat.name,
        claimed: seat.claimed,
        connected,
        bot: seat.start_bot.map(BotLevel),
        member: seat.member,
    }
}

/// Who is at a game's table, for its views.
pub struct Attendance {
    /// Since when each seat has had no connection (ms); none while connected.
    pub away_since: [Option<i64>; 4],
    /// How many spectators watch.
    pub spectators: u32,
    /// How long a player must be away before a vote, in seconds.
    pub grace_s: u64,
}

/// The snapshot of a game for a reader (its `sight`: a player's seat, or a spectator or the
/// public API), with the recent `chat` it may see.
pub fn game_view<'a>(
    state: &GameState,
    sight: ChatSight,
    table: Attendance,
    chat: impl Iterator<Item = &'a ChatLine>,
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
            .map(|s| {
                let away = table.away_since[s.player.index()];
                seat_view(s, pos.is_alive(s.player), away)
            })
            .collect(),
        spectators: table.spectators,
        state: state_view(state),
        turns: turns(state),
        draw_offer: state.draw.map(|d| DrawOfferView {
            by: d.by,
            accepted: d.accepted.iter().collect(),
        }),
        cancelled: state.cancelled,
        settings: state.settings,
        absent_grace_s: table.grace_s,
        vote: vote_view(state),
        takeback: state.takeback.map(|t| TakebackView {
            by: t.by,
            accepted: players(t.accepted),
        }),
        chat: chat
            .filter(|c| may_see(c, sight, state.settings.players_chat_public))
            .map(chat_view)
            .collect(),
        rematch: state.rematch.clone(),
        created_at: rfc3339(state.created_at),
        updated_at: rfc3339(state.updated_at),
        circle: state.circle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_turns_group_by_piece_and_destination() {
        let legal = serde_json::to_value(legal_view(&Position::new())).unwrap();
        assert_eq!(crate::protocol::expand_legal(&legal).len(), 30);
        assert_eq!(legal["b7"]["b5"], serde_json::json!(""));
        // A kill offers its placements as suffixes.
        let pos = Position::from_dpn(
            "Cr8/9/9/9/9/9/9/1Mb7/Cb8 r rb-- - 0 - 0 1",
            djambi_core::Rules::default(),
        )
        .unwrap();
        let legal = serde_json::to_value(legal_view(&pos)).unwrap();
        assert!(legal["a9"]["a1"].as_str().unwrap().starts_with('@'));
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;
    use djambi_core::Army::Red;

    #[test]
    fn a_first_turn_shows_in_the_clock_view() {
        let mut c = Clock::new(ClockSpec::Live {
            initial_s: 60,
            increment_s: 5,
        });
        c.start_turn(Some(Red), 1_000);
        assert!(matches!(
            clock_view(&c),
            ClockView::Live {
                first_turn: true,
                ..
            }
        ));
    }
}
