//! A game's state as its actor owns it: the core's [`Game`], the seats, the version and the draw
//! offer. Pure: no I/O. Applying an event here is the one place where the log changes the game,
//! for live play and for replay alike, so a restored game is exactly the game that was played.

use djambi_core::{
    Army, ArmySet, Effect, Game, GameEvent, Player, Position, ResultRecord, Rules, Turn,
};
use uuid::Uuid;

use crate::protocol::{GameStatus, TurnEntry};
use crate::store::{EventKind, EventRow, GameRow, GameSummaryRow, SeatRow, StoredGame};
use crate::token::TokenHash;

/// A seat of the game.
#[derive(Clone, Debug)]
pub struct Seat {
    /// Its player.
    pub player: Player,
    /// Its display name.
    pub name: Option<String>,
    /// The hash of its token.
    pub token_hash: TokenHash,
    /// Whether someone claimed it.
    pub claimed: bool,
}

impl Seat {
    /// The seat as stored.
    pub fn row(&self) -> SeatRow {
        SeatRow {
            player: self.player,
            name: self.name.clone(),
            token_hash: self.token_hash,
            claimed: self.claimed,
        }
    }

    /// The name shown for the seat: its display name, else the army's.
    pub fn display_name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| self.player.name().to_string())
    }
}

/// A pending draw offer (R12.2): it needs every living player's agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOffer {
    /// Who offered it.
    pub by: Player,
    /// Who agreed so far (the author included).
    pub accepted: ArmySet,
}

/// Why an event of the log cannot be applied (a corrupt or foreign log).
#[derive(Clone, Debug, thiserror::Error)]
#[error("event {v}: {message}")]
pub struct ReplayError {
    /// The event's version.
    pub v: u64,
    /// What is wrong.
    pub message: String,
}

/// The state of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The game's id.
    pub id: Uuid,
    /// 3 or 4.
    pub players: u8,
    /// The hostage army of a 3-player game.
    pub hostage: Option<Army>,
    /// Whether free seats may be claimed without an invite.
    pub open: bool,
    /// When the game was created.
    pub created_at: i64,
    /// When it last changed.
    pub updated_at: i64,
    /// The rules engine's game.
    pub game: Game,
    /// The version of the last event (0 before any).
    pub v: u64,
    /// The seats, in base order.
    pub seats: Vec<Seat>,
    /// The pending draw offer.
    pub draw: Option<DrawOffer>,
    /// The version of each turn event so far, in order (the turns themselves are the core
    /// game's; only numbers here, so copying the state stays cheap).
    pub turn_versions: Vec<u64>,
}

impl GameState {
    /// A new game from `start`, with no event yet.
    pub fn new(id: Uuid, start: Position, seats: Vec<Seat>, open: bool, now: i64) -> GameState {
        let game = Game::new(start);
        GameState {
            id,
            players: game.players().len() as u8,
            hostage: start.hostage(),
            open,
            created_at: now,
            updated_at: now,
            game,
            v: 0,
            seats,
            draw: None,
            turn_versions: Vec::new(),
        }
    }

    /// Rebuilds a stored game by replaying its log from its start position.
    pub fn restore(stored: &StoredGame) -> Result<GameState, ReplayError> {
        let row = &stored.row;
        let start = Position::from_dpn(&row.start, row.rules).map_err(|e| ReplayError {
            v: 0,
            message: format!("start position: {e}"),
        })?;
        let seats = stored
            .seats
            .iter()
            .map(|s| Seat {
                player: s.player,
                name: s.name.clone(),
                token_hash: s.token_hash,
                claimed: s.claimed,
            })
            .collect();
        let mut state = GameState::new(row.id, start, seats, row.open, row.created_at);
        state.updated_at = row.summary.updated_at;
        for event in &stored.events {
            state.replay(event)?;
        }
        Ok(state)
    }

    /// The same game back at its start, seats and all (to replay the log again).
    pub fn at_start(&self) -> GameState {
        GameState {
            game: Game::new(*self.game.start()),
            v: 0,
            draw: None,
            turn_versions: Vec::new(),
            ..self.clone()
        }
    }

    /// Applies one stored event, checking it is the next one.
    pub fn replay(&mut self, event: &EventRow) -> Result<Vec<Effect>, ReplayError> {
        if event.v != self.v + 1 {
            return Err(ReplayError {
                v: event.v,
                message: format!("expected version {}", self.v + 1),
            });
        }
        self.apply(&event.kind).map_err(|message| ReplayError {
            v: event.v,
            message,
        })
    }

    /// The ruleset.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The seat of `player`, if the game has one.
    pub fn seat(&self, player: Player) -> Option<&Seat> {
        self.seats.iter().find(|s| s.player == player)
    }

    /// The seat whose token hashes to `hash`. Every seat is compared, in constant time, so the
    /// time taken says nothing about which one matched.
    pub fn seat_of_token(&self, hash: &TokenHash) -> Option<Player> {
        let mut found = None;
        for seat in &self.seats {
            if seat.token_hash.matches(hash) {
                found = Some(seat.player);
            }
        }
        found
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// Open until every living player's seat is claimed, then live, then finished.
    pub fn status(&self) -> GameStatus {
        if self.is_over() {
            GameStatus::Finished
        } else if self
            .seats
            .iter()
            .any(|s| !s.claimed && self.position().is_alive(s.player))
        {
            GameStatus::Open
        } else {
            GameStatus::Live
        }
    }

    /// The result, once over.
    pub fn result(&self) -> Option<ResultRecord> {
        ResultRecord::from_outcome(self.game.outcome())
    }

    /// The game's row, for creating it in the store.
    pub fn row(&self) -> GameRow {
        GameRow {
            id: self.id,
            players: self.players,
            hostage: self.hostage,
            rules: self.rules(),
            start: self.game.start().to_dpn(),
            open: self.open,
            created_at: self.created_at,
            summary: self.summary(),
        }
    }

    /// Where the game stands, as stored with every commit.
    pub fn summary(&self) -> GameSummaryRow {
        let pos = self.position();
        GameSummaryRow {
            status: self.status(),
            v: self.v,
            dpn: pos.to_dpn(),
            to_move: pos.to_move(),
            turn: pos.turn(),
            result: self.result(),
            ranking: self.game.ranking(),
            updated_at: self.updated_at,
        }
    }

    /// Applies an event: the core plays it (refusing anything illegal, in which case nothing
    /// changed), then the version and the draw offer follow. Returns the effects.
    pub fn apply(&mut self, kind: &EventKind) -> Result<Vec<Effect>, String> {
        let effects = match kind {
            EventKind::Turn { player, text } => {
                let pos = self.position();
                if pos.to_move() != Some(*player) {
                    return Err(format!("{text}: it is not {player}'s turn"));
                }
                let (_, effects) = self.game.play_text(text).map_err(|e| e.to_string())?;
                self.turn_versions.push(self.v + 1);
                self.draw = None;
                effects
            }
            EventKind::Resign(p) => {
                let effects = self.game.resign(*p).map_err(|e| e.to_string())?;
                self.draw = None;
                effects
            }
            EventKind::DrawOffered(p) => {
                self.check_draw_player(*p)?;
                self.draw = Some(DrawOffer {
                    by: *p,
                    accepted: ArmySet::EMPTY.with(*p),
                });
                Vec::new()
            }
            EventKind::DrawAccepted(p) => {
                self.check_draw_player(*p)?;
                let offer = self.draw.as_mut().ok_or("no draw offer to accept")?;
                offer.accepted = offer.accepted.with(*p);
                Vec::new()
            }
            EventKind::DrawDeclined(p) => {
                self.check_draw_player(*p)?;
                self.draw.take().ok_or("no draw offer to decline")?;
                Vec::new()
            }
            EventKind::DrawAgreed(p) => {
                self.check_draw_player(*p)?;
                let offer = self.draw.ok_or("no draw offer to agree to")?;
                let agreed = offer.accepted.with(*p);
                if let Some(q) = self
                    .position()
                    .alive()
                    .iter()
                    .find(|q| !agreed.contains(*q))
                {
                    return Err(format!("{q} has not agreed to the draw"));
                }
                self.draw = None;
                self.game.agree_draw().map_err(|e| e.to_string())?;
                Vec::new()
            }
        };
        self.v += 1;
        Ok(effects)
    }

    fn check_draw_player(&self, p: Player) -> Result<(), String> {
        if self.is_over() {
            Err("the game is over".into())
        } else if !self.position().is_alive(p) {
            Err(format!("{p}: not a living player"))
        } else {
            Ok(())
        }
    }

    /// The turns so far (passes included) with their versions, oldest first.
    pub fn turns(&self) -> Vec<TurnEntry> {
        self.game
            .events()
            .iter()
            .filter_map(|e| match e {
                GameEvent::Turn {
                    number,
                    player,
                    turn,
                } => Some((*number, *player, turn.to_string())),
                _ => None,
            })
            .zip(&self.turn_versions)
            .map(|((number, player, turn), v)| TurnEntry {
                v: *v,
                number,
                player,
                turn,
            })
            .collect()
    }

    /// The last turn played, if any: (number, canonical text).
    pub fn last_turn(&self) -> Option<(u32, String)> {
        self.game.events().iter().rev().find_map(|e| match e {
            GameEvent::Turn { number, turn, .. } => Some((*number, turn.to_string())),
            _ => None,
        })
    }

    /// The pass owed now: the player to move has `pass` as its only legal turn (R8.6).
    pub fn forced_pass(&self) -> Option<EventKind> {
        let pos = self.position();
        let player = pos.to_move()?;
        (pos.legal_turns() == [Turn::Pass]).then(|| EventKind::Turn {
            player,
            text: "pass".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::SeatToken;

    pub(crate) fn seats(players: &[Player]) -> Vec<Seat> {
        players
            .iter()
            .map(|&player| Seat {
                player,
                name: None,
                token_hash: SeatToken::generate().hash(),
                claimed: true,
            })
            .collect()
    }

    fn four() -> GameState {
        GameState::new(Uuid::new_v4(), Position::new(), seats(&Army::ALL), false, 0)
    }

    #[test]
    fn events_advance_the_version_and_illegal_ones_change_nothing() {
        let mut s = four();
        assert_eq!(s.status(), GameStatus::Live);
        let e = s
            .apply(&EventKind::Turn {
                player: Army::Red,
                text: "b7-b5".into(),
            })
            .unwrap();
        assert!(!e.is_empty());
        assert_eq!(s.v, 1);
        let before = s.clone();
        assert!(
            s.apply(&EventKind::Turn {
                player: Army::Red,
                text: "a7-a6".into()
            })
            .is_err()
        );
        assert!(
            s.apply(&EventKind::Turn {
                player: Army::Blue,
                text: "g7-e5".into()
            })
            .is_err()
        );
        assert_eq!(s.v, before.v);
        assert_eq!(s.position(), before.position());
    }

    #[test]
    fn a_draw_needs_an_offer_and_ends_the_game() {
        let mut s = four();
        assert!(s.apply(&EventKind::DrawAccepted(Army::Blue)).is_err());
        s.apply(&EventKind::DrawOffered(Army::Red)).unwrap();
        s.apply(&EventKind::DrawAccepted(Army::Blue)).unwrap();
        assert_eq!(s.draw.unwrap().accepted.len(), 2);
        assert!(s.apply(&EventKind::DrawAgreed(Army::Green)).is_err());
        s.apply(&EventKind::DrawAccepted(Army::Yellow)).unwrap();
        s.apply(&EventKind::DrawAgreed(Army::Green)).unwrap();
        assert_eq!(s.status(), GameStatus::Finished);
        assert!(matches!(s.result(), Some(ResultRecord::Draw(p)) if p.len() == 4));
    }

    #[test]
    fn an_unclaimed_seat_keeps_the_game_open() {
        let mut s = four();
        s.seats[2].claimed = false;
        assert_eq!(s.status(), GameStatus::Open);
    }
}
