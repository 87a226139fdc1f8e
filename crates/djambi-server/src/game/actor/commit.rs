//! The commit pipeline of the actor: a draft of events applied to the state in place, what
//! follows by itself (forced passes, a start, a vote decided), one commit to the store, and
//! only then the events out to every socket and the legal turns to the seat to move. A commit
//! that fails rolls the state back to the draft's checkpoint: nothing changed.

use std::time::Instant;

use djambi_core::Player;

use super::{Actor, encode};
use crate::clock::now_ms;
use crate::game::outbound::{Audience, Outbound, Seq, Text};
use crate::protocol::ServerMessage;
use crate::protocol::view::{event_view, legal_message, legal_seat};
use crate::store::{Commit, GameSummaryRow, StoreError};
use crate::table::{ApplyError, Before, Checkpoint, Event, EventKind, Refusal, Seat, consequences};

/// Why a draft could not be made (a bug in what decided it: the actor logs it and refuses).
#[derive(Debug, thiserror::Error)]
pub(super) enum DraftError {
    /// An event did not apply.
    #[error(transparent)]
    Apply(#[from] ApplyError),
    /// Events kept following one another.
    #[error("too many events follow one another")]
    Endless,
}

/// How often a game's summary (the columns lists read) is written while nothing but moves
/// change: a change of status is written with its command; moves, at most this often.
const SUMMARY_EVERY_MS: i64 = 1000;

/// Events that follow by themselves in a row before the actor stops and reports a bug (R12.3
/// ends a game of passes long before: when every living player has passed).
const MAX_FOLLOW_UPS: usize = 16;

/// Events being made: applied to the state in place (rolled back to `checkpoint` if they
/// cannot be committed), stored, serialised.
pub(super) struct Draft {
    pub(super) checkpoint: Checkpoint,
    pub(super) rows: Vec<Event>,
    pub(super) out: Vec<(u64, Text)>,
    pub(super) now: i64,
    /// Where the game stood before (what alerts compare with).
    pub(super) before: Before,
}

impl Actor {
    /// Commits to the game's journal; a fenced commit means another node runs the game now.
    pub(super) async fn commit(&mut self, commit: Commit) -> Result<(), StoreError> {
        let started = Instant::now();
        let result = self.journal.commit(commit).await;
        match &result {
            Ok(()) => self.ctx.metrics.observe_commit(started.elapsed()),
            Err(StoreError::Fenced) => self.lose(),
            Err(_) => {}
        }
        result
    }

    /// A draft of changes to the state, starting now.
    pub(super) fn draft(&mut self) -> Draft {
        let now = now_ms();
        let checkpoint = self.state.checkpoint();
        let before = Before::of(&self.state);
        self.state.updated_at = now;
        Draft {
            checkpoint,
            rows: Vec::new(),
            out: Vec::new(),
            now,
            before,
        }
    }

    /// Applies one event to the state in place, stores and serialises it (with the state right
    /// after it).
    pub(super) fn apply(
        &mut self,
        draft: &mut Draft,
        kind: EventKind,
        ack: Option<u64>,
    ) -> Result<(), ApplyError> {
        if kind.rewinds() {
            draft.checkpoint.keep_history(&self.state);
        }
        let applied = self.state.apply(&kind, draft.now)?;
        let v = self.state.v;
        draft.out.push((
            v,
            encode(&ServerMessage::Event {
                v,
                event: Box::new(event_view(&self.state, &kind, applied)),
            }),
        ));
        draft.rows.push(Event {
            v,
            kind,
            ack,
            at: draft.now,
        });
        Ok(())
    }

    /// Applies `events` (the first one carrying the command's `ack`) and what follows from
    /// them, commits, and makes it the state. Returns the version of the first event.
    pub(super) async fn advance(
        &mut self,
        events: Vec<EventKind>,
        ack: Option<u64>,
    ) -> Result<u64, Refusal> {
        let mut draft = self.draft();
        for (i, kind) in events.into_iter().enumerate() {
            if let Err(why) = self.apply(&mut draft, kind, if i == 0 { ack } else { None }) {
                self.abandon(draft);
                return Err(internal(&why));
            }
        }
        let v = draft.rows.first().map(|r| r.v);
        if let Err(why) = self.follow(&mut draft) {
            self.abandon(draft);
            return Err(internal(&why));
        }
        self.finish(draft, Vec::new(), None).await?;
        Ok(v.unwrap_or(self.state.v))
    }

    /// Adds what follows by itself to a draft: forced passes, and the consequences of the
    /// events (a start, a vote decided, a takeback agreed).
    pub(super) fn follow(&mut self, draft: &mut Draft) -> Result<(), DraftError> {
        let table = self.at_table(draft.now);
        for _ in 0..MAX_FOLLOW_UPS {
            if let Some(pass) = self.state.forced_pass() {
                self.apply(draft, pass, None)?;
                continue;
            }
            let follow = consequences(&self.state, &table);
            if follow.is_empty() {
                return Ok(());
            }
            for kind in follow {
                self.apply(draft, kind, None)?;
            }
        }
        Err(DraftError::Endless)
    }

    /// Commits a draft (with seat rows changed on the way) and sends its events; if the commit
    /// fails, the state goes back to the draft's checkpoint.
    pub(super) async fn finish(
        &mut self,
        draft: Draft,
        seats: Vec<Seat>,
        claim: Option<Seat>,
    ) -> Result<(), Refusal> {
        let Draft {
            checkpoint,
            rows,
            out,
            now,
            before,
        } = draft;
        let turns = rows.iter().filter(|r| r.kind.turn().is_some()).count();
        let others = rows.len() - turns;
        let kinds: Vec<EventKind> = rows.iter().map(|r| r.kind).collect();
        // The summary goes with the command when the status changes (lists filter on it) or
        // the last one is old; otherwise a timer writes it a little later.
        let summary = (self.state.status() != self.summary_written.0
            || claim.is_some()
            || !seats.is_empty()
            || now - self.summary_written.2 >= SUMMARY_EVERY_MS)
            .then(|| GameSummaryRow::of(&self.state));
        let commit = Commit {
            game: self.state.id,
            events: rows,
            summary,
            seats,
            claim,
            ..Commit::default()
        };
        let wrote_summary = commit.summary.is_some();
        if let Err(e) = self.commit(commit).await {
            tracing::error!(game = %self.state.id, error = %e, "could not commit; nothing changed");
            self.state.rollback(checkpoint);
            return Err(Refusal::unsaved());
        }
        if wrote_summary {
            self.summary_written = (self.state.status(), self.state.v, now);
        }
        self.install(turns, others, out);
        self.alert_after(before, &kinds);
        Ok(())
    }

    /// When the summary should be written (none: it is up to date).
    pub(super) fn summary_due(&self) -> Option<i64> {
        let (status, v, at) = self.summary_written;
        (status != self.state.status() || v != self.state.v).then_some(at + SUMMARY_EVERY_MS)
    }

    /// Writes the game's summary now.
    pub(super) async fn write_summary(&mut self) {
        let commit = Commit {
            game: self.state.id,
            summary: Some(GameSummaryRow::of(&self.state)),
            ..Commit::default()
        };
        match self.commit(commit).await {
            Ok(()) => self.summary_written = (self.state.status(), self.state.v, now_ms()),
            Err(e) => {
                tracing::warn!(game = %self.state.id, error = %e, "could not write the summary");
                // Try again later.
                self.summary_written.2 = now_ms();
            }
        }
    }

    /// Rolls back a draft that will not be committed.
    pub(super) fn abandon(&mut self, draft: Draft) {
        self.state.rollback(draft.checkpoint);
    }

    /// What follows by itself from who is at the table (a vote on a player who came back),
    /// committed now.
    pub(super) async fn follow_up(&mut self) {
        let mut draft = self.draft();
        if let Err(e) = self.follow(&mut draft) {
            tracing::error!(game = %self.state.id, error = %e, "could not play what follows");
            self.abandon(draft);
            return;
        }
        if draft.rows.is_empty() {
            self.abandon(draft);
        } else if let Err(e) = self.finish(draft, Vec::new(), None).await {
            tracing::error!(game = %self.state.id, error = %e, "could not commit what follows");
        }
    }

    /// At start-up: the server's downtime paused the clock; then what follows (passes owed by a
    /// restored or imported game, a game full but not started).
    pub(super) async fn settle(&mut self) {
        // The game ran until its last change at least: a pause never starts before it (a stale
        // "last seen alive" would give time back that nobody waited).
        let last_change = self.state.updated_at;
        let mut draft = self.draft();
        if let (Some(down), Some(_), Some(_)) =
            (self.down_since, self.state.clock_runner(), self.state.clock)
            && let from = down.max(last_change)
            && draft.now > from
        {
            let paused = EventKind::Paused {
                from,
                until: draft.now,
            };
            if let Err(e) = self.apply(&mut draft, paused, None) {
                tracing::error!(game = %self.state.id, error = %e, "could not pause the clock");
            }
        }
        if let Err(e) = self.follow(&mut draft) {
            tracing::error!(game = %self.state.id, error = %e, "could not play what is owed");
            self.abandon(draft);
            return;
        }
        if draft.rows.is_empty() {
            self.abandon(draft);
        } else if let Err(e) = self.finish(draft, Vec::new(), None).await {
            tracing::error!(game = %self.state.id, error = %e, "could not commit what is owed");
        }
        self.after_change();
    }

    /// Committed: the events go out.
    pub(super) fn install(&mut self, turns: usize, others: usize, out: Vec<(u64, Text)>) {
        self.touched = self.state.updated_at;
        self.ctx.metrics.turns_accepted.inc_by(turns as u64);
        if others > 0 {
            self.ctx.metrics.commands_accepted.inc_by(others as u64);
        }
        for (v, text) in out {
            self.recent.push_back((v, text.clone()));
            while self.recent.len() > self.ctx.limits.replay_memory.max(1) {
                self.recent.pop_front();
            }
            self.send(Outbound::new(Seq::Event(v), Audience::All, text));
        }
        // The player to move (if a person, and connected) gets its legal turns.
        if let Some(player) = legal_seat(&self.state).filter(|p| self.presence.seat(*p) > 0)
            && let Some(legal) = self.legal_for(player)
        {
            self.send(legal);
        }
        if self.state.is_over() {
            tracing::info!(game = %self.state.id, result = ?self.state.result(), v = self.state.v, "game over");
        }
    }
}

impl Actor {
    /// The `legal` message for `seat` if it is to move now (serialised once per version).
    pub(super) fn legal_for(&mut self, seat: Player) -> Option<Outbound> {
        if legal_seat(&self.state) != Some(seat) {
            return None;
        }
        let v = self.state.v;
        let text = match &self.legal {
            Some((at, text)) if *at == v => text.clone(),
            _ => {
                let text = encode(&legal_message(&self.state));
                self.legal = Some((v, text.clone()));
                text
            }
        };
        Some(Outbound::new(Seq::None, Audience::Seat(seat), text))
    }
}

/// A decided event that did not apply (a bug): logged, and refused as internal.
pub(super) fn internal(why: &dyn std::fmt::Display) -> Refusal {
    tracing::error!(error = %why, "a decided event did not apply");
    Refusal::Internal("the server could not apply this".into())
}

impl Actor {
    /// A commit was refused: another node runs the game now.
    pub(super) fn lose(&mut self) {
        tracing::warn!(game = %self.state.id, "another node took the game: this actor stops");
        self.lost = true;
        self.ctx.metrics.cluster_fenced.inc();
    }
}
