//! A game's record as this server exports it: the core's record (NOTATION §4) with the metadata
//! the state knows — the seats' names and bots, the game's times, its clock and the result in
//! words. Times are this server's: an imported game was created (and, if its record ends it,
//! finished) when it was imported, and a time the log does not hold is left out.

use std::collections::BTreeMap;

use djambi_core::{ClockMeta, GameEvent, GameRecord, Player, PlayerMeta, RecordMeta, ResultRecord};

use super::GameState;
use crate::clock::rfc3339;
use crate::table::event::{CancelReason, EventKind};
use crate::table::settings::ClockSpec;

/// The `site` of the records this server writes.
pub const SITE: &str = "Djambi Online";

impl GameState {
    /// The game's record with its metadata.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            meta: Some(self.record_meta()),
            ..self.game.record()
        }
    }

    /// What the state knows about the game beyond its moves.
    pub fn record_meta(&self) -> RecordMeta {
        // The seats with something to say: a name, or the bot that played it from the start.
        let players: BTreeMap<Player, PlayerMeta> = self
            .seats
            .iter()
            .map(|seat| {
                let meta = PlayerMeta {
                    name: seat.name.clone(),
                    bot: seat.start_bot.map(|level| level.name().to_string()),
                };
                (seat.player, meta)
            })
            .filter(|(_, meta)| *meta != PlayerMeta::default())
            .collect();
        let started = self
            .log
            .iter()
            .find(|(kind, _)| matches!(kind, EventKind::Started))
            .map(|&(_, at)| rfc3339(at));
        // Nothing happens in a game after it ended: its last event ended it.
        let finished = self
            .log
            .last()
            .filter(|_| self.is_over())
            .map(|&(_, at)| rfc3339(at));
        RecordMeta {
            site: Some(SITE.to_string()),
            players,
            created: Some(rfc3339(self.created_at)),
            started,
            finished,
            clock: self.settings.clock.map(clock_meta),
            result_text: self.result_text(),
        }
    }

    /// The result, or why the game ended without one, as a sentence; none while it runs.
    pub fn result_text(&self) -> Option<String> {
        if let Some(reason) = self.cancelled {
            return Some(
                match reason {
                    CancelReason::Creator => "Cancelled by its creator",
                    CancelReason::Expired => "Cancelled: nobody took the seats in time",
                }
                .to_string(),
            );
        }
        match self.result()? {
            ResultRecord::Winner(p) => Some(format!("{} wins", p.name())),
            ResultRecord::Draw(players) => {
                let who = names(&players);
                let agreed = matches!(self.game.events().last(), Some(GameEvent::Draw));
                let limit = self
                    .rules()
                    .turn_limit
                    .filter(|n| self.position().quiet() >= n.get());
                Some(match (agreed, limit) {
                    (true, _) => format!("Draw agreed between {who}"),
                    (false, Some(n)) => {
                        format!("Draw between {who}: {n} turns without a kill (turn limit)")
                    }
                    (false, None) => format!("Draw between {who}: nobody could move"),
                })
            }
        }
    }
}

/// A clock as the record's metadata writes it (the shape of `CreateGame.clock`).
fn clock_meta(clock: ClockSpec) -> ClockMeta {
    match clock {
        ClockSpec::Live {
            initial_s,
            increment_s,
        } => ClockMeta {
            initial_s: Some(initial_s),
            increment_s: Some(increment_s),
            per_turn_s: None,
        },
        ClockSpec::Correspondence { per_turn_s } => ClockMeta {
            per_turn_s: Some(per_turn_s),
            ..ClockMeta::default()
        },
    }
}

/// Players' names as an English list: `Red`, `Red and Blue`, `Red, Blue and Green`.
pub fn names(players: &[Player]) -> String {
    let names: Vec<&str> = players.iter().map(|p| p.name()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use djambi_core::{Army, Position, Rules, TurnText};
    use uuid::Uuid;

    use super::*;
    use crate::table::{Seat, Settings};
    use crate::token::SeatToken;

    fn seat(player: Player, name: Option<&str>, bot: Option<djambi_engine::Level>) -> Seat {
        Seat {
            player,
            name: name.map(str::to_string),
            token_hash: SeatToken::generate().hash(),
            claimed: true,
            bot,
            start_bot: bot,
            member: None,
        }
    }

    /// A 4-player game created at `1_795_255_200_000` (2026-11-21T10:00:00Z) with Ann, a
    /// medium bot, Cid and Dee, started a minute later.
    fn state(rules: Rules, clock: Option<ClockSpec>) -> GameState {
        let seats = vec![
            seat(Army::Red, Some("Ann"), None),
            seat(Army::Blue, None, Some(djambi_engine::Level::Medium)),
            seat(Army::Yellow, Some("Cid"), None),
            seat(Army::Green, Some("Dee"), None),
        ];
        let settings = Settings {
            clock,
            ..Settings::default()
        };
        let mut state = GameState::new(
            Uuid::nil(),
            Position::start(rules),
            seats,
            false,
            1_795_255_200_000,
        )
        .with_settings(settings, None);
        state.apply(&EventKind::Started, 1_795_255_260_000).unwrap();
        state
    }

    fn play(state: &mut GameState, text: &str, at: i64) {
        let turn: TurnText = text.parse().unwrap();
        let player = state.position().to_move().unwrap();
        state
            .apply(
                &EventKind::Turn {
                    player,
                    turn: turn.0,
                },
                at,
            )
            .unwrap();
    }

    #[test]
    fn the_record_carries_names_bots_times_and_clock() {
        let mut state = state(
            Rules::default(),
            Some(ClockSpec::Live {
                initial_s: 300,
                increment_s: 3,
            }),
        );
        play(&mut state, "b7-b5", 1_795_255_270_000);
        let record = state.record();
        let meta = record.meta.clone().unwrap();
        assert_eq!(meta.site.as_deref(), Some("Djambi Online"));
        assert_eq!(meta.players[&Army::Red].name.as_deref(), Some("Ann"));
        assert_eq!(meta.players[&Army::Blue].bot.as_deref(), Some("medium"));
        assert_eq!(meta.players[&Army::Blue].name, None);
        assert_eq!(meta.created.as_deref(), Some("2026-11-21T10:00:00Z"));
        assert_eq!(meta.started.as_deref(), Some("2026-11-21T10:01:00Z"));
        assert_eq!(meta.finished, None, "the game runs");
        assert_eq!(meta.result_text, None);
        assert_eq!(
            meta.clock,
            Some(ClockMeta {
                initial_s: Some(300),
                increment_s: Some(3),
                per_turn_s: None
            })
        );
        // The moves are the core's record, meta aside.
        assert_eq!(
            GameRecord {
                meta: None,
                ..record
            },
            state.game.record()
        );
    }

    #[test]
    fn result_texts() {
        // A win: three resignations.
        let mut won = state(Rules::default(), None);
        for (p, at) in [(Army::Blue, 1), (Army::Yellow, 2), (Army::Green, 3)] {
            won.apply(&EventKind::Resign { player: p }, 1_795_255_300_000 + at)
                .unwrap();
        }
        let meta = won.record_meta();
        assert_eq!(meta.result_text.as_deref(), Some("Red wins"));
        assert_eq!(meta.finished.as_deref(), Some("2026-11-21T10:01:40.003Z"));

        // An agreed draw, after a resignation.
        let mut agreed = state(
            Rules::default(),
            Some(ClockSpec::Correspondence { per_turn_s: 86_400 }),
        );
        agreed
            .apply(
                &EventKind::Resign {
                    player: Army::Yellow,
                },
                1_795_255_300_000,
            )
            .unwrap();
        let draw = crate::table::decide::agreed_draw(&agreed);
        for kind in draw {
            agreed.apply(&kind, 1_795_255_400_000).unwrap();
        }
        let meta = agreed.record_meta();
        assert_eq!(
            meta.result_text.as_deref(),
            Some("Draw agreed between Red, Blue and Green")
        );
        assert_eq!(meta.clock.and_then(|c| c.per_turn_s), Some(86_400));

        // The turn limit.
        let rules: Rules = "turn_limit=2".parse().unwrap();
        let mut limited = state(rules, None);
        play(&mut limited, "b7-b5", 1_795_255_300_000);
        play(&mut limited, "g7-g5", 1_795_255_310_000);
        assert_eq!(
            limited.result_text().as_deref(),
            Some("Draw between Red, Blue, Yellow and Green: 2 turns without a kill (turn limit)")
        );

        // A cancelled game.
        let mut cancelled = state(Rules::default(), None);
        cancelled.cancelled = Some(CancelReason::Creator);
        assert_eq!(
            cancelled.result_text().as_deref(),
            Some("Cancelled by its creator")
        );
    }

    #[test]
    fn names_as_a_list() {
        assert_eq!(names(&[Army::Red]), "Red");
        assert_eq!(names(&[Army::Red, Army::Green]), "Red and Green");
        assert_eq!(
            names(&[Army::Red, Army::Blue, Army::Green]),
            "Red, Blue and Green"
        );
    }
}
