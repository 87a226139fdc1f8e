//! Undoing changes to a game's state: the actor applies a command's events to its state in
//! place (no copy of the whole state per command) and, if the commit fails, rolls back to the
//! checkpoint it took before. A checkpoint is small and `Copy`-like: the core's game mark, the
//! lengths of what only grows, and the few small fields; only the rare changes that rewrite
//! history (a takeback) or the seats (claims, the creator's changes) keep a copy of what they
//! change.

use djambi_core::{Game, GameMark};
use djambi_engine::Level;

use super::{Clock, DrawOffer, GameState, Takeback, Vote};
use crate::table::Seat;
use crate::table::event::CancelReason;

/// What rolling back a state to an earlier point needs.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    game: GameMark,
    /// The whole game, when history may be rewritten (a takeback).
    game_copy: Option<Game>,
    v: u64,
    log: usize,
    turn_versions: usize,
    turn_versions_copy: Option<Vec<u64>>,
    bots: [Option<Level>; 4],
    seats: Option<Vec<Seat>>,
    draw: Option<DrawOffer>,
    vote: Option<Vote>,
    takeback: Option<Takeback>,
    cancelled: Option<CancelReason>,
    started: bool,
    clock: Option<Clock>,
    updated_at: i64,
    bots_alone_since: Option<u32>,
}

impl GameState {
    /// A point to roll back to.
    pub fn checkpoint(&self) -> Checkpoint {
        // Every field of the state, named: a field added to `GameState` does not compile here
        // until it is either kept by the checkpoint or said to be one no command changes.
        let GameState {
            // Fixed when the game is created: no command changes them.
            id: _,
            players: _,
            hostage: _,
            open: _,
            listed: _,
            created_at: _,
            settings: _,
            admin_hash: _,
            bot_seed: _,
            circle: _,
            // Set once the game is over, and committed on its own: never rolled back.
            rematch: _,
            // What commands change: kept.
            updated_at,
            game,
            v,
            seats,
            draw,
            log,
            turn_versions,
            cancelled,
            started,
            clock,
            vote,
            takeback,
            bots_alone_since,
        } = self;
        let mut bots = [None; 4];
        for seat in seats {
            bots[seat.player.index()] = seat.bot;
        }
        Checkpoint {
            game: game.mark(),
            game_copy: None,
            v: *v,
            log: log.len(),
            turn_versions: turn_versions.len(),
            turn_versions_copy: None,
            bots,
            seats: None,
            draw: *draw,
            vote: *vote,
            takeback: *takeback,
            cancelled: *cancelled,
            started: *started,
            clock: *clock,
            updated_at: *updated_at,
            bots_alone_since: *bots_alone_since,
        }
    }

    /// Back to `checkpoint`: everything applied since is undone.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        match checkpoint.game_copy {
            Some(game) => self.game = game,
            None => {
                self.game.rewind(checkpoint.game);
            }
        }
        self.v = checkpoint.v;
        self.log.truncate(checkpoint.log);
        match checkpoint.turn_versions_copy {
            Some(versions) => self.turn_versions = versions,
            None => self.turn_versions.truncate(checkpoint.turn_versions),
        }
        if let Some(seats) = checkpoint.seats {
            self.seats = seats;
        }
        for seat in &mut self.seats {
            seat.bot = checkpoint.bots[seat.player.index()];
        }
        self.draw = checkpoint.draw;
        self.vote = checkpoint.vote;
        self.takeback = checkpoint.takeback;
        self.cancelled = checkpoint.cancelled;
        self.started = checkpoint.started;
        self.clock = checkpoint.clock;
        self.updated_at = checkpoint.updated_at;
        self.bots_alone_since = checkpoint.bots_alone_since;
    }
}

impl Checkpoint {
    /// Before a change that rewrites history (a takeback): keep a copy of what it replaces,
    /// once.
    pub fn keep_history(&mut self, state: &GameState) {
        if self.game_copy.is_none() {
            // The game as it was at the checkpoint: the state now, rewound.
            let mut game = state.game.clone();
            game.rewind(self.game);
            self.game_copy = Some(game);
            let mut versions = state.turn_versions.clone();
            versions.truncate(self.turn_versions);
            self.turn_versions_copy = Some(versions);
        }
    }

    /// Before the seats themselves change (a claim, the creator's changes): keep them, once.
    pub fn keep_seats(&mut self, state: &GameState) {
        if self.seats.is_none() {
            self.seats = Some(state.seats.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::EventKind;
    use djambi_core::Army::*;

    fn turn(player: djambi_core::Player, text: &str) -> EventKind {
        let djambi_core::TurnText(turn) = text.parse().unwrap();
        EventKind::Turn { player, turn }
    }

    #[test]
    fn a_rollback_undoes_turns_takebacks_and_seat_changes() {
        let mut s = GameState::new(
            uuid::Uuid::new_v4(),
            djambi_core::Position::new(),
            super::super::tests::seats(&djambi_core::Army::ALL),
            false,
            0,
        );
        s.apply(&EventKind::Started, 0).unwrap();
        s.apply(&turn(Red, "b7-b5"), 0).unwrap();
        let before = s.clone();
        let mut cp = s.checkpoint();
        s.apply(&turn(Blue, "h7-h5"), 5).unwrap();
        s.apply(&EventKind::TakebackRequested { by: Blue }, 6)
            .unwrap();
        for p in [Red, Yellow, Green] {
            s.apply(&EventKind::TakebackAnswered { by: p, yes: true }, 7)
                .unwrap();
        }
        cp.keep_history(&s);
        s.apply(&EventKind::TakenBack { player: Blue }, 8).unwrap();
        cp.keep_seats(&s);
        s.seats[0].name = Some("Zed".into());
        s.apply(
            &EventKind::SeatToBot {
                player: Green,
                level: Level::Easy,
                reason: crate::table::BotReason::Vote,
            },
            9,
        )
        .unwrap();
        s.rollback(cp);
        assert_eq!(s.v, before.v);
        assert_eq!(s.position(), before.position());
        assert_eq!(s.game.events(), before.game.events());
        assert_eq!(s.turn_versions, before.turn_versions);
        assert_eq!(s.log, before.log);
        assert_eq!(s.seats[0].name, None);
        assert_eq!(s.bot(Green), None);
        assert_eq!(s.takeback, None);
    }
}
