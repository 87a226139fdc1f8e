//! Applying one event of the log to a game's state: the rules engine plays turns and
//! resignations (refusing anything illegal), the rest keeps the seats, the pending offers and
//! votes, and the clock. An event that does not apply changes nothing.

use djambi_core::{Effect, Game, GameEvent, Player, Turn};

use super::{DrawOffer, GameState, Takeback, Vote};
use crate::table::event::EventKind;

/// Why an event does not apply to a game (a bug in what decided it, or a corrupt or foreign
/// log); nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The game was cancelled.
    #[error("the game was cancelled")]
    Cancelled,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A turn by a player who is not to move.
    #[error("{turn}: it is not {player}'s turn")]
    NotTheirTurn {
        /// The turn.
        turn: Turn,
        /// Who played it.
        player: Player,
    },
    /// The rules engine refused it (its reason).
    #[error("{0}")]
    Rules(String),
    /// The player is not a living player of the game.
    #[error("{0}: not a living player")]
    NotLiving(Player),
    /// The game has no such seat.
    #[error("{0}: no such seat")]
    NoSeat(Player),
    /// What it answers is not pending (what, in words).
    #[error("{0}")]
    NotPending(&'static str),
    /// Someone has not agreed to the draw.
    #[error("{0} has not agreed to the draw")]
    NotAgreed(Player),
    /// Only living players are excused from a draw.
    #[error("only living players are excused")]
    ExcusedNotLiving,
    /// The game has already started.
    #[error("the game has already started")]
    AlreadyStarted,
    /// A bot already plays the seat.
    #[error("{0}: a bot already plays this seat")]
    BotAlready(Player),
    /// No bot plays the seat.
    #[error("{0}: no bot plays this seat")]
    NoBot(Player),
    /// A vote is already open.
    #[error("a vote is already open")]
    VoteOpen,
    /// A vote about someone who is not a person to move.
    #[error("{0}: not a person to move")]
    NotAPersonToMove(Player),
    /// A vote whose author does not vote, or whose target does.
    #[error("the author votes, the target does not")]
    Voters,
    /// A vote cast by someone who may not (or already did).
    #[error("{0} may not vote (again)")]
    MayNotVote(Player),
    /// A vote closed against its ballots.
    #[error("the vote's outcome does not match its ballots")]
    VoteOutcome,
    /// A takeback is already asked for.
    #[error("a takeback is already asked for")]
    TakebackAsked,
    /// The player has no turn to take back.
    #[error("{0} has no turn to take back")]
    NoTurnToTakeBack(Player),
    /// A takeback answered by someone who may not (or already did).
    #[error("{0} may not answer (again)")]
    MayNotAnswer(Player),
    /// A takeback by someone who did not ask for it.
    #[error("{0} did not ask to take back a turn")]
    DidNotAsk(Player),
    /// A timeout of a clock that does not run.
    #[error("{0}'s clock does not run")]
    ClockNotRunning(Player),
    /// A pause that ends before it starts.
    #[error("a pause ends before it starts")]
    PauseBackwards,
}

/// What applying an event did besides changing the state: what a view of the event adds to
/// the event's own fields (the turn's number, its effects, the turns a takeback removed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The turn's number, for a turn.
    pub number: Option<u32>,
    /// What a turn or a resignation changed on the board, in order (none for other events).
    pub effects: Option<Vec<Effect>>,
    /// The versions of the turns a takeback removed (they leave the turn list).
    pub undone: Vec<u64>,
}

impl GameState {
    /// Applies an event made at `at` (ms since the epoch: the clock runs on events' times): the
    /// one place where an event changes a game, live and in replay. Returns what it did beyond
    /// the state; on error nothing changed.
    pub fn apply(&mut self, kind: &EventKind, at: i64) -> Result<Applied, ApplyError> {
        if self.cancelled.is_some() {
            return Err(ApplyError::Cancelled);
        }
        let applied = self.apply_kind(kind)?;
        self.v += 1;
        self.log.push((*kind, at));
        self.tick(kind, at);
        self.track_bots_alone();
        Ok(applied)
    }

    /// Notes when every living seat became a bot (and forgets it when a person plays again).
    fn track_bots_alone(&mut self) {
        let alone = self.started && !self.is_over() && self.living_humans().is_empty();
        self.bots_alone_since = if alone {
            Some(self.bots_alone_since.unwrap_or(self.turn_count()))
        } else {
            None
        };
    }

    fn apply_kind(&mut self, kind: &EventKind) -> Result<Applied, ApplyError> {
        use EventKind::*;
        let next_v = self.v + 1;
        let nothing = Applied::default;
        Ok(match *kind {
            Turn { player, turn } => {
                if self.position().to_move() != Some(player) {
                    return Err(ApplyError::NotTheirTurn { turn, player });
                }
                let effects = self
                    .game
                    .play(&turn)
                    .map_err(|e| ApplyError::Rules(e.to_string()))?;
                self.turn_versions.push(next_v);
                self.lapse();
                let number = match self.game.events().last() {
                    Some(GameEvent::Turn { number, .. }) => Some(*number),
                    _ => None,
                };
                Applied {
                    number,
                    effects: Some(effects),
                    undone: Vec::new(),
                }
            }
            Resign { player: p } => {
                let effects = self
                    .game
                    .resign(p)
                    .map_err(|e| ApplyError::Rules(e.to_string()))?;
                self.lapse();
                Applied {
                    effects: Some(effects),
                    ..nothing()
                }
            }
            DrawOffered { by: p } => {
                self.check_living(p)?;
                self.draw = Some(DrawOffer {
                    by: p,
                    accepted: djambi_core::ArmySet::EMPTY.with(p),
                    since: next_v,
                });
                nothing()
            }
            DrawAccepted { by: p } => {
                self.check_living(p)?;
                let offer = self
                    .draw
                    .as_mut()
                    .ok_or(ApplyError::NotPending("no draw offer to accept"))?;
                offer.accepted = offer.accepted.with(p);
                nothing()
            }
            DrawDeclined { by: p } => {
                self.check_living(p)?;
                self.draw
                    .take()
                    .ok_or(ApplyError::NotPending("no draw offer to decline"))?;
                nothing()
            }
            DrawAgreed { by, excused } => {
                self.check_living(by)?;
                let offer = self
                    .draw
                    .ok_or(ApplyError::NotPending("no draw offer to agree to"))?;
                let agreed = offer.accepted.with(by);
                let alive = self.position().alive();
                if let Some(q) = alive
                    .iter()
                    .find(|q| !agreed.contains(*q) && !excused.contains(*q))
                {
                    return Err(ApplyError::NotAgreed(q));
                }
                if excused.iter().any(|q| !alive.contains(q)) {
                    return Err(ApplyError::ExcusedNotLiving);
                }
                self.game
                    .agree_draw()
                    .map_err(|e| ApplyError::Rules(e.to_string()))?;
                self.lapse();
                nothing()
            }
            Cancelled { reason } => {
                if self.position().is_game_over() {
                    return Err(ApplyError::Over);
                }
                self.cancelled = Some(reason);
                self.lapse();
                nothing()
            }
            Started => {
                if self.started {
                    return Err(ApplyError::AlreadyStarted);
                }
                self.started = true;
                nothing()
            }
            SeatToBot { player, level, .. } => {
                self.check_living(player)?;
                let seat = self.seat_mut(player)?;
                if seat.bot.is_some() {
                    return Err(ApplyError::BotAlready(player));
                }
                seat.bot = Some(level);
                if self.vote.is_some_and(|v| v.target == player) {
                    self.vote = None;
                }
                nothing()
            }
            SeatToHuman { player } => {
                self.check_living(player)?;
                let seat = self.seat_mut(player)?;
                if seat.bot.take().is_none() {
                    return Err(ApplyError::NoBot(player));
                }
                nothing()
            }
            VoteOpened {
                by,
                target,
                action,
                voters,
            } => {
                if self.vote.is_some() {
                    return Err(ApplyError::VoteOpen);
                }
                self.check_living(by)?;
                self.check_living(target)?;
                if self.position().to_move() != Some(target) || self.bot(target).is_some() {
                    return Err(ApplyError::NotAPersonToMove(target));
                }
                if !voters.contains(by) || voters.contains(target) {
                    return Err(ApplyError::Voters);
                }
                self.vote = Some(Vote {
                    by,
                    target,
                    action,
                    voters,
                    yes: djambi_core::ArmySet::EMPTY.with(by),
                    no: djambi_core::ArmySet::EMPTY,
                });
                nothing()
            }
            VoteCast { by, yes } => {
                let vote = self
                    .vote
                    .as_mut()
                    .ok_or(ApplyError::NotPending("no vote is open"))?;
                if !vote.voters.contains(by) || vote.yes.contains(by) || vote.no.contains(by) {
                    return Err(ApplyError::MayNotVote(by));
                }
                if yes {
                    vote.yes = vote.yes.with(by);
                } else {
                    vote.no = vote.no.with(by);
                }
                nothing()
            }
            VoteClosed { passed } => {
                let vote = self
                    .vote
                    .take()
                    .ok_or(ApplyError::NotPending("no vote is open"))?;
                if passed != vote.passed() {
                    self.vote = Some(vote);
                    return Err(ApplyError::VoteOutcome);
                }
                nothing()
            }
            TakebackRequested { by: p } => {
                if self.takeback.is_some() {
                    return Err(ApplyError::TakebackAsked);
                }
                if !self.can_take_back(p) {
                    return Err(ApplyError::NoTurnToTakeBack(p));
                }
                self.takeback = Some(Takeback {
                    by: p,
                    accepted: djambi_core::ArmySet::EMPTY,
                });
                nothing()
            }
            TakebackAnswered { by, yes } => {
                let request = self
                    .takeback
                    .as_mut()
                    .ok_or(ApplyError::NotPending("no takeback is asked for"))?;
                if request.by == by || request.accepted.contains(by) {
                    return Err(ApplyError::MayNotAnswer(by));
                }
                if yes {
                    request.accepted = request.accepted.with(by);
                } else {
                    self.takeback = None;
                }
                nothing()
            }
            TakenBack { player: p } => {
                if self.takeback.is_none_or(|t| t.by != p) {
                    return Err(ApplyError::DidNotAsk(p));
                }
                let undone = self.undo_last_turn(p)?;
                self.lapse();
                Applied {
                    undone,
                    ..nothing()
                }
            }
            Timeout { player: p } => {
                if self.runner() != Some(p) {
                    return Err(ApplyError::ClockNotRunning(p));
                }
                nothing()
            }
            Paused { from, until } => {
                if until < from {
                    return Err(ApplyError::PauseBackwards);
                }
                nothing()
            }
        })
    }

    /// Brings the clock up to the event at `at`.
    fn tick(&mut self, kind: &EventKind, at: i64) {
        let runner = self.clock_runner();
        let Some(clock) = &mut self.clock else {
            return;
        };
        use EventKind::*;
        match *kind {
            Paused { from, until } => clock.pause(from, until),
            Turn { player, .. } => {
                clock.charge(at);
                clock.turn_played(player);
                clock.start_turn(runner, at);
            }
            Timeout { player: p } => {
                clock.charge(at);
                clock.ran_out(p);
            }
            Started | TakenBack { .. } => {
                clock.charge(at);
                clock.start_turn(runner, at);
            }
            _ => {
                clock.charge(at);
                clock.keep_turn(runner, at);
            }
        }
    }

    /// A change of position drops what was pending about the old one.
    fn lapse(&mut self) {
        self.draw = None;
        self.vote = None;
        self.takeback = None;
    }

    fn check_living(&self, p: Player) -> Result<(), ApplyError> {
        if self.is_over() {
            Err(ApplyError::Over)
        } else if !self.position().is_alive(p) {
            Err(ApplyError::NotLiving(p))
        } else {
            Ok(())
        }
    }

    fn seat_mut(&mut self, player: Player) -> Result<&mut crate::table::Seat, ApplyError> {
        self.seats
            .iter_mut()
            .find(|s| s.player == player)
            .ok_or(ApplyError::NoSeat(player))
    }

    /// Takes back `player`'s last turn and the passes it forced: the rules engine's game is
    /// replayed without them (the log keeps them, with the `taken_back` event after). Returns
    /// the versions of the turns taken back.
    fn undo_last_turn(&mut self, player: Player) -> Result<Vec<u64>, ApplyError> {
        if !self.can_take_back(player) {
            return Err(ApplyError::NoTurnToTakeBack(player));
        }
        let events = self.game.events();
        let mut cut = events.len();
        for (i, e) in events.iter().enumerate().rev() {
            cut = i;
            if matches!(e, GameEvent::Turn { turn, .. } if *turn != Turn::Pass) {
                break;
            }
        }
        let removed = events.len() - cut;
        let mut game = Game::new(*self.game.start());
        for e in &events[..cut] {
            game.apply(e)
                .map_err(|e| ApplyError::Rules(e.to_string()))?;
        }
        self.game = game;
        let kept = self.turn_versions.len().saturating_sub(removed);
        Ok(self.turn_versions.split_off(kept))
    }
}
