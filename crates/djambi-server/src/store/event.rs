//! How an event of the log is stored: a kind name, the acting player (or `-` for the server's
//! own events) and, for some kinds, a `detail` text.

use djambi_core::{ArmySet, Player, TurnText};

use super::StoreError;
use crate::table::{BotReason, CancelReason, EventKind, VoteAction};

/// How an event kind is stored: its name, player, turn text and detail.
pub trait StoredKind: Sized {
    /// The stored turn text, for a turn.
    fn turn_text(&self) -> Option<String>;
    /// What the kind stores in `detail`, if anything.
    fn detail(&self) -> Option<String>;
    /// Reads a stored event back.
    fn decode(
        kind: &str,
        player: Option<Player>,
        text: Option<&str>,
        detail: Option<&str>,
    ) -> Result<Self, StoreError>;
}

impl StoredKind for EventKind {
    fn turn_text(&self) -> Option<String> {
        match self {
            EventKind::Turn { turn, .. } => Some(turn.to_string()),
            _ => None,
        }
    }

    fn detail(&self) -> Option<String> {
        use EventKind::*;
        let yes_no = |yes: bool| if yes { "yes" } else { "no" }.to_string();
        match *self {
            DrawAgreed { excused, .. } if !excused.is_empty() => Some(letters(excused)),
            Cancelled(reason) => Some(reason.as_str().into()),
            SeatToBot { level, reason, .. } => Some(format!("{level};{}", reason.as_str())),
            VoteOpened {
                target,
                action,
                voters,
                ..
            } => Some(format!("{target};{};{}", action.to_text(), letters(voters))),
            VoteCast { yes, .. } | TakebackAnswered { yes, .. } => Some(yes_no(yes)),
            VoteClosed { passed } => Some(if passed { "passed" } else { "failed" }.into()),
            Paused { from, until } => Some(format!("{from};{until}")),
            _ => None,
        }
    }

    fn decode(
        kind: &str,
        player: Option<Player>,
        text: Option<&str>,
        detail: Option<&str>,
    ) -> Result<EventKind, StoreError> {
        use EventKind::*;
        let bad = |what: &str| StoreError::Corrupt(format!("{kind} event: {what}"));
        let p = || player.ok_or_else(|| bad("no player"));
        let detail_of = || detail.ok_or_else(|| bad("no detail"));
        let yes = || match detail_of()? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(bad(other)),
        };
        Ok(match kind {
            "turn" => {
                let text = text.ok_or_else(|| bad("no turn text"))?;
                let TurnText(turn) = text.parse().map_err(|_| bad(text))?;
                Turn { player: p()?, turn }
            }
            "resign" => Resign(p()?),
            "draw_offered" => DrawOffered(p()?),
            "draw_accepted" => DrawAccepted(p()?),
            "draw_declined" => DrawDeclined(p()?),
            "draw_agreed" => DrawAgreed {
                by: p()?,
                excused: parse_letters(detail.unwrap_or("")).ok_or_else(|| bad("excused"))?,
            },
            "cancelled" => {
                Cancelled(CancelReason::parse(detail_of()?).ok_or_else(|| bad("reason"))?)
            }
            "started" => Started,
            "seat_to_bot" => {
                let (level, reason) = detail_of()?.split_once(';').ok_or_else(|| bad("detail"))?;
                SeatToBot {
                    player: p()?,
                    level: level.parse().map_err(|_| bad(level))?,
                    reason: BotReason::parse(reason).ok_or_else(|| bad(reason))?,
                }
            }
            "seat_to_human" => SeatToHuman(p()?),
            "vote_opened" => {
                let mut parts = detail_of()?.split(';');
                let (Some(target), Some(action), Some(voters), None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(bad("detail"));
                };
                VoteOpened {
                    by: p()?,
                    target: parse_letters(target)
                        .and_then(|s| s.iter().next())
                        .ok_or_else(|| bad(target))?,
                    action: VoteAction::parse(action).ok_or_else(|| bad(action))?,
                    voters: parse_letters(voters).ok_or_else(|| bad(voters))?,
                }
            }
            "vote_cast" => VoteCast {
                by: p()?,
                yes: yes()?,
            },
            "vote_closed" => VoteClosed {
                passed: detail_of()? == "passed",
            },
            "takeback_requested" => TakebackRequested(p()?),
            "takeback_answered" => TakebackAnswered {
                by: p()?,
                yes: yes()?,
            },
            "taken_back" => TakenBack(p()?),
            "timeout" => Timeout(p()?),
            "paused" => {
                let (from, until) = detail_of()?.split_once(';').ok_or_else(|| bad("detail"))?;
                Paused {
                    from: from.parse().map_err(|_| bad(from))?,
                    until: until.parse().map_err(|_| bad(until))?,
                }
            }
            other => return Err(StoreError::Corrupt(format!("event kind {other:?}"))),
        })
    }
}

/// A set of players as letters in base order (`ry`).
pub fn letters(set: ArmySet) -> String {
    set.iter().map(|p| p.char()).collect()
}

/// Reads [`letters`]' output.
pub fn parse_letters(s: &str) -> Option<ArmySet> {
    s.chars()
        .map(djambi_core::Army::from_char)
        .collect::<Option<ArmySet>>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Army;
    use djambi_engine::Level;

    #[test]
    fn every_kind_round_trips_through_its_stored_form() {
        let kinds = [
            EventKind::Turn {
                player: Army::Red,
                turn: "h2-e5>d6@a5".parse::<TurnText>().unwrap().0,
            },
            EventKind::DrawAgreed {
                by: Army::Blue,
                excused: ArmySet::EMPTY.with(Army::Green),
            },
            EventKind::DrawAgreed {
                by: Army::Blue,
                excused: ArmySet::EMPTY,
            },
            EventKind::Cancelled(CancelReason::Creator),
            EventKind::Started,
            EventKind::SeatToBot {
                player: Army::Yellow,
                level: Level::Easy,
                reason: BotReason::Vote,
            },
            EventKind::SeatToHuman(Army::Yellow),
            EventKind::VoteOpened {
                by: Army::Red,
                target: Army::Green,
                action: VoteAction::Bot(Level::Hard),
                voters: ArmySet::EMPTY.with(Army::Red).with(Army::Blue),
            },
            EventKind::VoteOpened {
                by: Army::Red,
                target: Army::Green,
                action: VoteAction::Resign,
                voters: ArmySet::EMPTY.with(Army::Red),
            },
            EventKind::VoteCast {
                by: Army::Blue,
                yes: false,
            },
            EventKind::VoteClosed { passed: true },
            EventKind::TakebackRequested(Army::Red),
            EventKind::TakebackAnswered {
                by: Army::Green,
                yes: true,
            },
            EventKind::TakenBack(Army::Red),
            EventKind::Timeout(Army::Blue),
            EventKind::Paused {
                from: 1_795_255_200_000,
                until: 1_795_255_260_000,
            },
        ];
        for kind in kinds {
            let back = EventKind::decode(
                kind.name(),
                kind.player(),
                kind.turn_text().as_deref(),
                kind.detail().as_deref(),
            )
            .unwrap();
            assert_eq!(back, kind);
        }
        assert!(size_of::<EventKind>() <= 24, "{}", size_of::<EventKind>());
    }
}
