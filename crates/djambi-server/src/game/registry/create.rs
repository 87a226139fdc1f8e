//! Creating games (with bots, a clock and the creator's admin token) and importing records.

use std::collections::BTreeMap;

use djambi_core::{Army, Game, GameEvent, GameRecord, Player, Position, Rules};
use djambi_engine::Level;
use uuid::Uuid;

use super::Registry;
use crate::clock::now_ms;
use crate::game::error::GameError;
use crate::net::IpKey;
use crate::protocol::http::{CreatedGame, SeatInvite};
use crate::store::GameRow;
use crate::table::text::display_name;
use crate::table::{
    BotLevel, ClockSpec, Event, EventKind, GameState, HOUSE_QUIET_TURNS, OnTimeout, Seat, Settings,
    agreed_draw,
};
use crate::token::SeatToken;

/// The turn limit a game of bots only gets when its ruleset has none (R12.4), so it always
/// ends.
pub const BOTS_ONLY_TURN_LIMIT: u32 = 400;

/// The bots' think time, bounds and default (ms): long enough to follow, short enough to play.
pub const BOT_MOVETIME_MS: std::ops::RangeInclusive<u32> = 200..=10_000;
/// The think time of a game that names none (ms).
pub const DEFAULT_BOT_MOVETIME_MS: u32 = 1000;

/// The longest a live clock may start with (3 hours), and its largest increment (10 minutes).
const MAX_INITIAL_S: u32 = 3 * 3600;
const MAX_INCREMENT_S: u32 = 600;
/// The longest correspondence deadline (14 days).
const MAX_PER_TURN_S: u32 = 14 * 86_400;

/// A game to create.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The start position (with the ruleset).
    pub start: Position,
    /// Preset seat names.
    pub names: BTreeMap<Player, String>,
    /// Whether free seats are claimable without an invite.
    pub open: bool,
    /// Whether the lobby lists it (default: when open).
    pub listed: Option<bool>,
    /// The address that asked for it (its games count against that address's caps).
    pub creator: Option<IpKey>,
    /// The base of its links (the configured public URL, else the address the creator used).
    pub base_url: Option<String>,
    /// Seats played by bots from the start.
    pub bots: BTreeMap<Player, Level>,
    /// The options beyond the ruleset.
    pub settings: Settings,
    /// The seed of the bots' choices (secret: with it, a player could foresee them).
    pub bot_seed: u64,
    /// The circle it is for, if any (docs/CIRCLES.md).
    pub circle: Option<Uuid>,
}

impl NewGame {
    /// A standard game: 4 players, or 3 with `hostage` (green by default).
    pub fn standard(
        players: u8,
        hostage: Option<Army>,
        rules: Rules,
    ) -> Result<NewGame, GameError> {
        let start = match (players, hostage) {
            (4, None) => Position::start(rules),
            (4, Some(_)) => {
                return Err(GameError::Invalid(
                    "hostage: only a 3-player game has a hostage army".into(),
                ));
            }
            (3, hostage) => Position::start_hostage(hostage.unwrap_or(Army::Green), rules),
            _ => return Err(GameError::Invalid("players: must be 3 or 4".into())),
        };
        Ok(NewGame {
            start,
            names: BTreeMap::new(),
            open: false,
            listed: None,
            creator: None,
            base_url: None,
            bots: BTreeMap::new(),
            settings: Settings::default(),
            bot_seed: fresh_seed(),
            circle: None,
        })
    }

    /// A game from a given start position (DPN under `rules`) whose players must be
    /// `players` (3 with a hostage army, or 4).
    pub fn from_dpn(players: u8, dpn: &str, rules: Rules) -> Result<NewGame, GameError> {
        if dpn.len() > djambi_core::MAX_DPN_LEN {
            return Err(GameError::Invalid(format!(
                "start: at most {} bytes",
                djambi_core::MAX_DPN_LEN
            )));
        }
        let start = Position::from_dpn(dpn, rules)
            .map_err(|e| GameError::Invalid(format!("start: {e}")))?;
        let seats = Game::new(start).players().len();
        if seats != usize::from(players) {
            return Err(GameError::Invalid(format!(
                "start: the position has {seats} players, not {players}"
            )));
        }
        if start.is_game_over() {
            return Err(GameError::Invalid("start: the game is already over".into()));
        }
        let mut new = NewGame::standard(4, None, rules)?;
        new.start = start;
        Ok(new)
    }

    /// The game's options from a create request, checked: `clock`, `on_timeout` (default:
    /// `bot` for correspondence, `resign` otherwise), `takeover_level`, `bot_movetime_ms`
    /// ([`BOT_MOVETIME_MS`]). `min_per_turn_s` is the shortest correspondence deadline allowed.
    pub fn settings(
        clock: Option<ClockSpec>,
        on_timeout: Option<OnTimeout>,
        takeover_level: Option<BotLevel>,
        bot_movetime_ms: Option<u32>,
        min_per_turn_s: u32,
        players_chat_public: bool,
    ) -> Result<Settings, GameError> {
        let bad = |m: String| Err(GameError::Invalid(m));
        match clock {
            Some(ClockSpec::Live {
                initial_s,
                increment_s,
            }) => {
                if !(1..=MAX_INITIAL_S).contains(&initial_s) {
                    return bad(format!("clock.initial_s: 1 to {MAX_INITIAL_S} seconds"));
                }
                if increment_s > MAX_INCREMENT_S {
                    return bad(format!("clock.increment_s: at most {MAX_INCREMENT_S}"));
                }
            }
            Some(ClockSpec::Correspondence { per_turn_s })
                if !(min_per_turn_s..=MAX_PER_TURN_S).contains(&per_turn_s) =>
            {
                return bad(format!(
                    "clock.per_turn_s: {min_per_turn_s} to {MAX_PER_TURN_S} seconds (1 hour to 14 days)"
                ));
            }
            Some(ClockSpec::Correspondence { .. }) => {}
            None => {}
        }
        let movetime = bot_movetime_ms.unwrap_or(DEFAULT_BOT_MOVETIME_MS);
        if !BOT_MOVETIME_MS.contains(&movetime) {
            return bad(format!(
                "bot_movetime_ms: {} to {} (milliseconds)",
                BOT_MOVETIME_MS.start(),
                BOT_MOVETIME_MS.end()
            ));
        }
        let defaults = Settings::default();
        Ok(Settings {
            clock,
            on_timeout: on_timeout.unwrap_or(match clock {
                Some(ClockSpec::Correspondence { .. }) => OnTimeout::Bot,
                _ => OnTimeout::Resign,
            }),
            takeover_level: takeover_level.unwrap_or(defaults.takeover_level),
            bot_movetime_ms: movetime,
            players_chat_public,
            hints: false,
        })
    }
}

impl Registry {
    /// The seats of `game`: preset names checked, bots' seats taken. Each with its token (shown
    /// once, for the seats people play).
    fn seats(
        &self,
        game: &Game,
        names: &BTreeMap<Player, String>,
        bots: &BTreeMap<Player, Level>,
    ) -> Result<Vec<(Seat, SeatToken)>, GameError> {
        let mut clean: BTreeMap<Player, String> = BTreeMap::new();
        for (p, name) in names {
            if !game.players().contains(*p) {
                return Err(GameError::Invalid(format!(
                    "names: no seat {p} in this game"
                )));
            }
            let name = display_name(
                name,
                self.ctx.limits.max_name_chars,
                clean.values().map(String::as_str),
            )
            .map_err(|e| GameError::Invalid(format!("names.{p}: {e}")))?;
            clean.insert(*p, name);
        }
        if let Some(p) = bots.keys().find(|p| !game.players().contains(**p)) {
            return Err(GameError::Invalid(format!(
                "bots: no seat {p} in this game"
            )));
        }
        Ok(game
            .players()
            .iter()
            .map(|player| {
                let token = SeatToken::generate();
                let bot = bots.get(&player).copied();
                let seat = Seat::stored(
                    player,
                    clean.remove(&player),
                    token.hash(),
                    bot.is_some(),
                    bot,
                );
                (seat, token)
            })
            .collect())
    }

    /// Creates a game and its actor; the answer holds the seat tokens and the creator's admin
    /// token (shown only now).
    pub async fn create(&self, mut new: NewGame) -> Result<CreatedGame, GameError> {
        let bots = !new.bots.is_empty();
        self.admit(new.creator, bots)?;
        let id = Uuid::new_v4();
        let game = Game::new(new.start);
        if !new.bots.is_empty()
            && game.players().iter().all(|p| new.bots.contains_key(&p))
            && new.start.rules().turn_limit.is_none()
        {
            // Bots alone must come to an end.
            let mut rules = new.start.rules();
            rules.turn_limit = std::num::NonZeroU32::new(BOTS_ONLY_TURN_LIMIT);
            new.start = Position::from_setup(new.start.to_setup(), rules)
                .map_err(|e| GameError::Invalid(e.to_string()))?;
        }
        let seats = self.seats(&game, &new.names, &new.bots)?;
        let admin = SeatToken::generate();
        let state = GameState::new(
            id,
            new.start,
            seats.iter().map(|(s, _)| s.clone()).collect(),
            new.open,
            now_ms(),
        )
        .with_listed(new.listed.unwrap_or(new.open))
        .with_settings(new.settings, Some(admin.hash()))
        .with_bot_seed(new.bot_seed)
        .with_circle(new.circle);
        let _loading = self.loading.lock().await;
        let tenancy = self
            .site
            .create(&GameRow::of(&state), &state.seats, &[])
            .await?;
        tracing::info!(game = %id, players = state.players, open = state.open, bots = new.bots.len(), circle = ?new.circle, "game created");
        self.spawn(state, |a| a, tenancy).await?;
        self.ctx.ledger.created(id, new.creator, bots);
        let base = new.base_url.unwrap_or_else(|| self.base_url.clone());
        Ok(self.created(&base, id, seats, Some(admin)))
    }

    /// Imports a game record (NOTATION §4), checked by replaying it; the game goes on from
    /// where the record ends. Of its metadata, only the seats' names are used.
    pub async fn import(
        &self,
        record: &GameRecord,
        creator: Option<IpKey>,
        base_url: Option<String>,
    ) -> Result<CreatedGame, GameError> {
        let game =
            Game::from_record(record).map_err(|e| GameError::InvalidRecord(e.to_string()))?;
        house_rules(&game)?;
        if !game.position().is_game_over() {
            self.admit(creator, false)?;
        }
        self.site.accepts()?;
        let id = Uuid::new_v4();
        let names = self.record_names(&game, record);
        let seats = self.seats(&game, &names, &BTreeMap::new())?;
        let now = now_ms();
        let mut state = GameState::new(
            id,
            *game.start(),
            seats.iter().map(|(s, _)| s.clone()).collect(),
            false,
            now,
        )
        .with_bot_seed(fresh_seed());
        let mut rows = Vec::new();
        for event in game.events() {
            for kind in log_events(&state, event) {
                state
                    .apply(&kind, now)
                    .map_err(|e| GameError::InvalidRecord(format!("event {}: {e}", state.v + 1)))?;
                rows.push(Event {
                    v: state.v,
                    kind,
                    ack: None,
                    at: now,
                });
            }
        }
        debug_assert_eq!(state.position(), game.position());
        let _loading = self.loading.lock().await;
        let tenancy = self
            .site
            .create(&GameRow::of(&state), &state.seats, &rows)
            .await?;
        tracing::info!(game = %id, events = rows.len(), "game imported");
        self.spawn(state, |a| a, tenancy).await?;
        self.ctx.ledger.created(id, creator, false);
        let base = base_url.unwrap_or_else(|| self.base_url.clone());
        Ok(self.created(&base, id, seats, None))
    }

    /// The names a record's metadata gives its seats, each kept only if it would be accepted
    /// as a name at creation: one that is not is left out (metadata never refuses a record).
    /// Nothing else of the metadata is used; bots' seats are people's seats again.
    fn record_names(&self, game: &Game, record: &GameRecord) -> BTreeMap<Player, String> {
        let mut names = BTreeMap::new();
        let Some(meta) = &record.meta else {
            return names;
        };
        for (player, seat) in &meta.players {
            let Some(name) = &seat.name else { continue };
            if !game.players().contains(*player) {
                continue;
            }
            let taken = names.values().map(String::as_str);
            if let Ok(name) = display_name(name, self.ctx.limits.max_name_chars, taken) {
                names.insert(*player, name);
            }
        }
        names
    }

    /// The answer to a creation: an invite for each seat a person plays.
    pub(super) fn created(
        &self,
        base: &str,
        id: Uuid,
        seats: Vec<(Seat, SeatToken)>,
        admin: Option<SeatToken>,
    ) -> CreatedGame {
        let url = format!("{base}/game/{id}");
        CreatedGame {
            id,
            seats: seats
                .into_iter()
                .filter(|(seat, _)| seat.bot.is_none())
                .map(|(seat, token)| Self::invite(base, id, seat.player, seat.name, &token))
                .collect(),
            url,
            admin_token: admin.map(|t| t.as_str().to_string()),
        }
    }

    /// The invite of a seat, with links under `base`.
    pub fn invite(
        base: &str,
        id: Uuid,
        player: Player,
        name: Option<String>,
        token: &SeatToken,
    ) -> SeatInvite {
        SeatInvite {
            player,
            name,
            invite_url: format!("{base}/game/{id}#seat={player}&token={}", token.as_str()),
            token: token.as_str().to_string(),
        }
    }
}

/// A fresh random seed for a game's bots (from the operating system's generator, through
/// `uuid`'s v4 ids: no other dependency needed).
pub fn fresh_seed() -> u64 {
    Uuid::new_v4().as_u64_pair().0
}

/// The house's rules a live game applies on top of the ruleset, which a record must have kept
/// too: no game goes on after 500 turns without a kill or an elimination (it is drawn then:
/// docs/RULES.md, "Playing here"), so a record that does is refused, whatever it says next.
fn house_rules(game: &Game) -> Result<(), GameError> {
    if game.start().rules().turn_limit.is_some() {
        return Ok(());
    }
    let positions = game.positions();
    let Some(over) = positions
        .iter()
        .position(|p| !p.is_game_over() && p.quiet() >= HOUSE_QUIET_TURNS)
    else {
        return Ok(());
    };
    if over + 1 == positions.len() {
        // The record ends where the house draws it: imported, it is drawn at once.
        return Ok(());
    }
    Err(GameError::InvalidRecord(format!(
        "event {}: the game goes on after {HOUSE_QUIET_TURNS} turns without a kill or an \
         elimination, where it is drawn (docs/RULES.md, \"Playing here\")",
        over + 1
    )))
}

/// The log events of one record event: a turn or a resignation is one; an agreed draw is the
/// offer, the agreements and the last agreement, as it happens live.
fn log_events(state: &GameState, event: &GameEvent) -> Vec<EventKind> {
    match *event {
        GameEvent::Turn { player, turn, .. } => vec![EventKind::Turn { player, turn }],
        GameEvent::Resign(p) => vec![EventKind::Resign { player: p }],
        GameEvent::Draw => agreed_draw(state),
    }
}
