//! What a player may do ([`Action`], the commands a socket's frames become), decided against the
//! game state and who is at the table: an action becomes the event it makes, or a typed
//! [`Refusal`]. Nothing changes here; the actor applies
//! the event to its state, then the consequences it has ([`consequences`]).

use djambi_core::{ArmySet, Player};

use super::event::{BotReason, EventKind, VoteAction};
use super::refusal::Refusal;
use super::seat::Role;
use super::settings::{ClockSpec, OnTimeout};
use super::state::{BOTS_ALONE_QUIET_TURNS, GameState, HOUSE_QUIET_TURNS};
use super::status::GameStatus;

/// A command from a connection (chat aside, each one makes an event). Nodes send it to a
/// game's owner as it is (serde; a vote's action in its stored text form).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Play a turn.
    Move(String),
    /// Resign.
    Resign,
    /// Offer a draw (or agree to the pending one).
    OfferDraw,
    /// Agree to the pending draw offer.
    AcceptDraw,
    /// Decline or withdraw the pending draw offer.
    DeclineDraw,
    /// Public chat.
    Chat(String),
    /// A whisper to one player.
    Whisper(Player, String),
    /// Take the seat back from the bot playing it.
    Reclaim,
    /// Open a vote on an absent player.
    Vote(Player, #[serde(with = "vote_text")] VoteAction),
    /// Open a vote to hand an absent player's seat to a bot of the table's level (the level of
    /// the other bots at the table, else medium): a vote whose author named no level.
    VoteBot(Player),
    /// Answer the open vote.
    VoteAnswer(bool),
    /// Ask to take back one's last turn.
    Takeback,
    /// Answer a takeback request.
    TakebackAnswer(bool),
    /// After the game, a rematch (the actor creates it: no event of this game).
    Rematch,
}

impl Action {
    /// Whether the action is a turn (for the metrics).
    pub fn is_turn(&self) -> bool {
        matches!(self, Action::Move(_))
    }

    /// Whether the action is table talk (chat or a whisper).
    pub fn is_chat(&self) -> bool {
        matches!(self, Action::Chat(_) | Action::Whisper(..))
    }
}

/// A vote's action as its stored text (`bot:medium`, `resign`): the JSON form of
/// [`VoteAction`] names no level.
mod vote_text {
    use crate::table::VoteAction;

    pub fn serialize<S: serde::Serializer>(action: &VoteAction, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&action.to_text())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<VoteAction, D::Error> {
        let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        VoteAction::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a vote action: {text:?}")))
    }
}

/// Who is at the table now: what decisions about absent players need (not part of the log).
#[derive(Clone, Copy, Debug, Default)]
pub struct AtTable {
    /// The seats with at least one connection.
    pub connected: ArmySet,
    /// Since when each seat has had no connection (ms; none while connected).
    pub away_since: [Option<i64>; 4],
    /// Now (ms).
    pub now: i64,
    /// How long a player must be away before the others may vote on it.
    pub grace_ms: i64,
}

impl AtTable {
    /// Whether `p` has been away for longer than the grace period.
    pub fn long_away(&self, p: Player) -> bool {
        !self.connected.contains(p)
            && self.away_since[p.index()].is_some_and(|since| self.now - since >= self.grace_ms)
    }
}

/// The event a game action by `role` would make, or why it may not happen.
pub fn decide(
    state: &GameState,
    role: Role,
    action: &Action,
    table: &AtTable,
) -> Result<EventKind, Refusal> {
    let Role::Player(player) = role else {
        return Err(Refusal::Spectator("spectators may only chat".into()));
    };
    if state.cancelled.is_some() {
        return Err(Refusal::Cancelled);
    }
    if state.is_over() {
        return Err(Refusal::GameOver);
    }
    if state.status() == GameStatus::Open {
        return Err(Refusal::NotStarted);
    }
    let pos = state.position();
    if !pos.is_alive(player) {
        return Err(Refusal::Eliminated(player));
    }
    if state.bot(player).is_some() && !matches!(action, Action::Reclaim | Action::Resign) {
        return Err(Refusal::BotSeat);
    }
    match action {
        Action::Move(text) => {
            let to_move = pos.to_move().expect("an ongoing game has a player to move");
            if to_move != player {
                return Err(Refusal::NotYourTurn(to_move));
            }
            let turn = pos.parse_turn(text).map_err(|e| Refusal::Illegal {
                message: e.message,
                kind: e.kind,
            })?;
            Ok(EventKind::Turn { player, turn })
        }
        Action::Resign => Ok(EventKind::Resign { player }),
        Action::OfferDraw => match state.draw {
            None if state.offered_draw_this_turn(player) => Err(Refusal::DrawOfferedThisTurn),
            None => Ok(EventKind::DrawOffered { by: player }),
            Some(_) => accept(state, player, table),
        },
        Action::AcceptDraw => accept(state, player, table),
        Action::DeclineDraw => match state.draw {
            None => Err(Refusal::NoDrawOffer),
            Some(_) => Ok(EventKind::DrawDeclined { by: player }),
        },
        Action::Reclaim => match state.bot(player) {
            Some(_) => Ok(EventKind::SeatToHuman { player }),
            None => Err(Refusal::NoBot),
        },
        Action::Vote(target, vote) => open_vote(state, player, *target, *vote, table),
        Action::VoteBot(target) => {
            let level = state.default_bot_level();
            open_vote(state, player, *target, VoteAction::Bot(level), table)
        }
        Action::VoteAnswer(yes) => match state.vote {
            None => Err(no_vote("no vote is open")),
            Some(v) if !v.voters.contains(player) => Err(no_vote("you may not vote in this vote")),
            Some(v) if v.yes.contains(player) || v.no.contains(player) => {
                Err(no_vote("you have already voted"))
            }
            Some(_) => Ok(EventKind::VoteCast {
                by: player,
                yes: *yes,
            }),
        },
        Action::Takeback => {
            if state.takeback.is_some() {
                return Err(no_takeback("a takeback is already asked for"));
            }
            if let Err(why) = state.takeback_allowed(player) {
                return Err(no_takeback(why.message()));
            }
            Ok(EventKind::TakebackRequested { by: player })
        }
        Action::TakebackAnswer(yes) => match state.takeback {
            None => Err(no_takeback("no takeback is asked for")),
            Some(t) if t.by == player || t.accepted.contains(player) => {
                Err(no_takeback("you have already answered"))
            }
            Some(_) => Ok(EventKind::TakebackAnswered {
                by: player,
                yes: *yes,
            }),
        },
        // The actor routes chat and rematches elsewhere; this only keeps the match honest.
        Action::Chat(_) | Action::Whisper(..) | Action::Rematch => {
            Err(Refusal::Malformed("not a game action".into()))
        }
    }
}

/// The players whose agreement a draw does not wait for: people away for longer than the grace
/// period.
pub fn excused(state: &GameState, table: &AtTable) -> ArmySet {
    state
        .living_humans()
        .iter()
        .filter(|p| table.long_away(*p))
        .collect()
}

/// `player` agrees to the pending draw offer: the last agreement needed agrees the draw.
pub fn accept(state: &GameState, player: Player, table: &AtTable) -> Result<EventKind, Refusal> {
    let Some(offer) = state.draw else {
        return Err(Refusal::NoDrawOffer);
    };
    if offer.accepted.contains(player) {
        return Err(Refusal::DrawPending);
    }
    let agreed = offer.accepted.with(player);
    let excused = excused(state, table).without(player);
    let alive = state.position().alive();
    if alive
        .iter()
        .all(|p| agreed.contains(p) || excused.contains(p))
    {
        let excused = alive.iter().filter(|p| !agreed.contains(*p)).collect();
        Ok(EventKind::DrawAgreed {
            by: player,
            excused,
        })
    } else {
        Ok(EventKind::DrawAccepted { by: player })
    }
}

fn no_vote(why: &str) -> Refusal {
    Refusal::NoVote(why.to_string())
}

fn no_takeback(why: &str) -> Refusal {
    Refusal::NoTakeback(why.to_string())
}

fn open_vote(
    state: &GameState,
    player: Player,
    target: Player,
    action: VoteAction,
    table: &AtTable,
) -> Result<EventKind, Refusal> {
    if state.vote.is_some() {
        return Err(no_vote("a vote is already open"));
    }
    if matches!(state.settings.clock, Some(ClockSpec::Correspondence { .. })) {
        return Err(no_vote(
            "in a correspondence game the turn's deadline decides",
        ));
    }
    let pos = state.position();
    if target == player || !pos.is_alive(target) || state.bot(target).is_some() {
        return Err(no_vote(
            "a vote is about another living player, played by a person",
        ));
    }
    if pos.to_move() != Some(target) {
        return Err(no_vote("a vote is about the player to move"));
    }
    if !table.long_away(target) {
        return Err(Refusal::NoVote(format!(
            "{} has not been away for {} s yet",
            target.name(),
            table.grace_ms / 1000
        )));
    }
    let voters = state
        .living_humans()
        .iter()
        .filter(|p| *p != target && table.connected.contains(*p))
        .collect::<ArmySet>()
        .with(player);
    Ok(EventKind::VoteOpened {
        by: player,
        target,
        action,
        voters,
    })
}

/// What follows by itself from the state after an event: the start of a full game, a vote
/// decided, a takeback everyone agreed to, a vote on a player who came back. One step at a
/// time (the actor applies it and asks again); forced passes are the actor's.
pub fn consequences(state: &GameState, table: &AtTable) -> Vec<EventKind> {
    if state.is_over() {
        return Vec::new();
    }
    if !state.started && state.all_seated() {
        return vec![EventKind::Started];
    }
    if state.rules().turn_limit.is_none()
        && (state
            .bots_alone_quiet()
            .is_some_and(|quiet| quiet >= BOTS_ALONE_QUIET_TURNS)
            || (state.started && state.position().quiet() >= HOUSE_QUIET_TURNS))
    {
        // Bots alone at the table: R12.4's count, from the moment the last person left; and
        // the house's ceiling for every game.
        return agreed_draw(state);
    }
    if let Some(vote) = state.vote {
        if vote.passed() {
            let action = match vote.action {
                VoteAction::Bot(level) => EventKind::SeatToBot {
                    player: vote.target,
                    level,
                    reason: BotReason::Vote,
                },
                VoteAction::Resign => EventKind::Resign {
                    player: vote.target,
                },
            };
            return vec![EventKind::VoteClosed { passed: true }, action];
        }
        if vote.failed() || table.connected.contains(vote.target) {
            return vec![EventKind::VoteClosed { passed: false }];
        }
    }
    if let Some(request) = state.takeback {
        let others = state.living_humans().without(request.by);
        if others.iter().all(|p| request.accepted.contains(p)) {
            return vec![EventKind::TakenBack { player: request.by }];
        }
    }
    Vec::new()
}

/// The events of a draw that every living player agrees to now (R12.2), as the log records
/// one: the pending offer's missing agreements, or an offer and every agreement.
pub fn agreed_draw(state: &GameState) -> Vec<EventKind> {
    let alive: Vec<Player> = state.position().alive().iter().collect();
    let (mut kinds, agreed) = match (state.draw, alive.first()) {
        (Some(offer), _) => (Vec::new(), offer.accepted),
        (None, Some(&first)) => (
            vec![EventKind::DrawOffered { by: first }],
            ArmySet::EMPTY.with(first),
        ),
        (None, None) => return Vec::new(),
    };
    let missing: Vec<Player> = alive.into_iter().filter(|p| !agreed.contains(*p)).collect();
    for (i, &p) in missing.iter().enumerate() {
        kinds.push(if i + 1 == missing.len() {
            EventKind::DrawAgreed {
                by: p,
                excused: ArmySet::EMPTY,
            }
        } else {
            EventKind::DrawAccepted { by: p }
        });
    }
    kinds
}

/// What a timeout of `player` does: the timeout, then a resignation or a bot taking the seat —
/// a resignation also when the game may not take one more bot (`bot_allowed` false: its
/// creator runs as many games with bots as allowed).
pub fn timeout(state: &GameState, player: Player, bot_allowed: bool) -> Vec<EventKind> {
    let then = match state.settings.on_timeout {
        OnTimeout::Bot if !bot_allowed => EventKind::Resign { player },
        OnTimeout::Resign => EventKind::Resign { player },
        OnTimeout::Bot => EventKind::SeatToBot {
            player,
            level: state.settings.takeover_level.0,
            reason: BotReason::Timeout,
        },
    };
    vec![EventKind::Timeout { player }, then]
}

/// A bot's answer to the pending draw offer.
pub fn bot_answer(
    state: &GameState,
    player: Player,
    accept_it: bool,
    table: &AtTable,
) -> Option<EventKind> {
    let offer = state.draw?;
    if offer.accepted.contains(player) || !state.position().is_alive(player) {
        return None;
    }
    if !accept_it {
        return Some(EventKind::DrawDeclined { by: player });
    }
    accept(state, player, table).ok()
}
