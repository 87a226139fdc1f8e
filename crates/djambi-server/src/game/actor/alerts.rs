//! The actor's alerts (Web Push): after each commit, the notices the table owes to seats with
//! no socket open on any node (the owner's presence counts every node's sockets), and the
//! warning of a correspondence deadline near its end, a timer of the actor's loop, once per
//! turn. They go to the [`Alerts`] port, which never waits.
//!
//! [`Alerts`]: crate::game::ports::Alerts

use super::Actor;
use crate::clock::now_ms;
use crate::game::ports::Alert;
use crate::table::{Before, EventKind, Notice, deadline_warning, notices};

impl Actor {
    /// After a commit of `events` (the game having been at `before`): the notices owed to the
    /// seats that nobody has open.
    pub(super) fn alert_after(&self, before: Before, events: &[EventKind]) {
        let Some(alerts) = &self.ctx.alerts else {
            return;
        };
        for (seat, notice) in notices(before, &self.state, events) {
            if self.presence.seat(seat) == 0 {
                alerts.alert(Alert {
                    game: self.state.id,
                    seat,
                    notice,
                });
            }
        }
    }

    /// When the warning of the running correspondence deadline is due (ms); none without
    /// alerts, without such a deadline, or once it was given for this turn.
    pub(super) fn next_warning(&self) -> Option<i64> {
        self.ctx.alerts.as_ref()?;
        let (player, at, deadline) = deadline_warning(&self.state)?;
        (self.warned != Some((player, deadline))).then_some(at)
    }

    /// The warning's time came: the player to move is told how long is left, if away.
    pub(super) fn warn_deadline(&mut self) {
        let Some((player, at, deadline)) = deadline_warning(&self.state) else {
            return;
        };
        let now = now_ms();
        if now < at || self.warned == Some((player, deadline)) {
            return;
        }
        self.warned = Some((player, deadline));
        if let Some(alerts) = &self.ctx.alerts
            && now < deadline
            && self.presence.seat(player) == 0
        {
            alerts.alert(Alert {
                game: self.state.id,
                seat: player,
                notice: Notice::Deadline {
                    left_ms: deadline - now,
                },
            });
        }
    }
}
