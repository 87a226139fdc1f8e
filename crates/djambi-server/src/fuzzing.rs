//! The invariants the server's fuzz targets check, shared by `fuzz/` (cargo-fuzz, nightly) and
//! the corpus replay in `tests/fuzz_corpus.rs` (stable), so both run exactly the same checks.
//! The core's parsers (DPN, turn text, game records) have theirs in `djambi_core::fuzzing`.
//!
//! Each function takes untrusted bytes, parses them the way the server does, follows what it
//! accepts through the pure functions the server then calls (the game's decision on a command,
//! the checks of a new game, the cleaning of names and chat), and panics (naming the
//! invariant) when one does not hold. Not part of the crate's stable API: hidden from its
//! documentation.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use djambi_core::{Army, ArmySet, Position};
use serde::Serialize;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::game::{Limits, NewGame};
use crate::protocol::http::{ClaimSeat, CreateGame, ListQuery, SeatBot};
use crate::protocol::{ClientMessage, ErrorCode};
use crate::store::{decode_event, encode_event};
use crate::table::text::{TextError, chat_text, display_name};
use crate::table::{
    Action, AtTable, EventKind, GameState, GameStatus, Role, Seat, consequences, decide,
};
use crate::token::TokenHash;
use crate::ws::inbound::action;
use crate::ws::{MAX_ACK, parse_frame};

/// The largest client frame answered: the default of `--max-message-bytes`.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// When the fixed games of [`client_frame`] stand (ms since the epoch).
const NOW: i64 = 1_795_255_200_000;

/// The `client_frame` target: one WebSocket text frame, through the socket's own parser
/// ([`parse_frame`]). A refusal is typed and names only a valid ack; an accepted message
/// survives JSON, and its command, sent by every seat and by a spectator of two games in
/// play, is either refused or makes an event that applies to the game and survives its stored
/// form. Chat, whispers and names are cleaned as the game cleans them.
pub fn client_frame(data: &[u8]) {
    // Text frames are UTF-8 (tungstenite checks it before the server sees them).
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let message = match parse_frame(text, MAX_MESSAGE_BYTES) {
        Ok(message) => message,
        Err(refused) => {
            let too_large = text.len() > MAX_MESSAGE_BYTES;
            let code = if too_large {
                ErrorCode::TooLarge
            } else {
                ErrorCode::Malformed
            };
            assert_eq!(refused.code, code);
            assert!(
                refused.ack.is_none_or(|a| a <= MAX_ACK),
                "a refused ack is valid"
            );
            assert!(!refused.message.is_empty());
            return;
        }
    };
    assert!(text.len() <= MAX_MESSAGE_BYTES);
    assert!(
        message.ack().is_none_or(|a| a <= MAX_ACK),
        "an accepted ack is valid"
    );
    assert_round_trip(&message, |back: &ClientMessage| back == &message);
    let json = serde_json::to_string(&message).expect("a message serialises");
    assert_eq!(parse_frame(&json, usize::MAX).as_ref(), Ok(&message));
    let limits = Limits::default();
    match &message {
        ClientMessage::Hello { token, name, .. } => {
            if let Some(token) = token {
                let _ = TokenHash::of(token);
            }
            if let Some(name) = name {
                check_name(name, limits.max_name_chars);
            }
        }
        ClientMessage::Chat { text, .. } | ClientMessage::Whisper { text, .. } => {
            check_chat(text, limits.max_chat_chars);
        }
        _ => {}
    }
    let Some((ack, action)) = action(message.clone()) else {
        return;
    };
    assert_eq!(Some(ack), message.ack());
    if action.is_chat() {
        return;
    }
    for state in GAMES.iter() {
        let roles = Army::ALL.map(Role::Player);
        for role in roles.into_iter().chain([Role::Spectator]) {
            check_decision(state, role, &action);
        }
    }
}

/// `decide` refuses the command, or makes an event that applies to the game (the actor applies
/// it to a copy, and fails the command if it does not) and survives the event log's stored form.
fn check_decision(state: &GameState, role: Role, action: &Action) {
    let table = AtTable {
        // Red, the player to move in the first game, has been away long enough for a vote.
        connected: ArmySet::from_iter([Army::Blue, Army::Yellow, Army::Green]),
        away_since: [Some(NOW - 3_600_000), None, None, None],
        now: NOW,
        grace_ms: 120_000,
    };
    let Ok(event) = decide(state, role, action, &table) else {
        return;
    };
    let stored = encode_event(&event);
    let decoded = decode_event(
        stored.kind,
        stored.player,
        stored.turn_text.as_deref(),
        stored.detail.as_deref(),
    );
    assert_eq!(
        decoded.ok(),
        Some(event),
        "an event survives its stored form"
    );
    let mut after = state.clone();
    if let Err(e) = after.apply(&event, NOW) {
        panic!("{role:?} {action:?}: decided {event:?}, which does not apply: {e}");
    }
    let _ = consequences(&after, &table);
}

/// The games commands are decided against: a 4-player game just started (red to move), and the
/// same after red's `b7-b5` with blue offering a draw (so takebacks and answers have something
/// to act on).
static GAMES: LazyLock<Vec<GameState>> = LazyLock::new(|| {
    let seats = Army::ALL
        .iter()
        .map(|&player| Seat {
            player,
            name: Some(format!("Name {}", player.char())),
            token_hash: TokenHash::of(&format!("token-{player}")),
            claimed: true,
            bot: None,
            start_bot: None,
            member: None,
        })
        .collect();
    let mut fresh = GameState::new(Uuid::nil(), Position::new(), seats, false, NOW);
    fresh.started = true;
    let mut played = fresh.clone();
    let turn = Position::new()
        .parse_turn("b7-b5")
        .expect("a legal opening");
    for event in [
        EventKind::Turn {
            player: Army::Red,
            turn,
        },
        EventKind::DrawOffered { by: Army::Blue },
    ] {
        played.apply(&event, NOW).expect("the fixed game plays");
    }
    vec![fresh, played]
});

/// The `http_bodies` target: the JSON bodies of the HTTP API (`POST /api/games`,
/// `/seats`, `/seats/{p}/bot`), the query of `GET /api/games`, and a game id in a path. Each
/// body that parses survives JSON and goes through the checks its handler makes: a new game's
/// players, hostage and ruleset, its settings, its preset names, its bots' seats; a claim's
/// name.
pub fn http_bodies(data: &[u8]) {
    if let Ok(body) = serde_json::from_slice::<CreateGame>(data) {
        assert_value_round_trip(&body);
        check_create(&body);
    }
    if let Ok(body) = serde_json::from_slice::<ClaimSeat>(data) {
        assert_value_round_trip(&body);
        if let Some(name) = &body.name {
            check_name(name, Limits::default().max_name_chars);
        }
        if let Some(token) = &body.token {
            let _ = TokenHash::of(token);
        }
    }
    if let Ok(body) = serde_json::from_slice::<SeatBot>(data) {
        assert_value_round_trip(&body);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(id) = crate::http::parse_game_id(text) {
        assert_eq!(Uuid::parse_str(&id.to_string()), Ok(id));
    }
    if let Ok(uri) = format!("/api/games?{text}").parse::<axum::http::Uri>()
        && let Ok(axum::extract::Query(query)) =
            axum::extract::Query::<ListQuery>::try_from_uri(&uri)
    {
        if let Some(status) = query.status.as_deref()
            && let Some(parsed) = GameStatus::parse(status)
        {
            assert_eq!(parsed.as_str(), status);
        }
        for id in query.ids.as_deref().unwrap_or("").split(',') {
            let _ = Uuid::parse_str(id.trim());
        }
    }
}

/// What `POST /api/games` checks before it creates anything (`NewGame::standard`,
/// `NewGame::settings`, and the preset names as the registry checks them, each against the
/// names accepted before it).
fn check_create(body: &CreateGame) {
    let limits = Limits::default();
    let new = match body.start.as_deref() {
        Some(dpn) => NewGame::from_dpn(body.players, dpn, body.rules),
        None => {
            let new = NewGame::standard(body.players, body.hostage, body.rules);
            let expected = matches!((body.players, body.hostage), (4, None) | (3, _));
            assert_eq!(new.is_ok(), expected, "players and hostage");
            new
        }
    };
    let min_per_turn = u32::try_from(limits.min_turn_deadline.as_secs()).unwrap_or(u32::MAX);
    let _ = NewGame::settings(
        body.clock,
        body.on_timeout,
        body.takeover_level,
        body.bot_movetime_ms,
        min_per_turn,
        body.players_chat_public,
    );
    let Ok(new) = new else {
        return;
    };
    let back = Position::from_dpn(&new.start.to_dpn(), body.rules);
    assert_eq!(back, Ok(new.start), "a new game's start round-trips");
    let list = body.rules.to_string();
    assert_eq!(
        list.parse(),
        Ok(body.rules),
        "{list}: a ruleset reads back as a list"
    );
    let mut clean: BTreeMap<Army, String> = BTreeMap::new();
    for (seat, name) in &body.names {
        if let Ok(name) = display_name(name, limits.max_name_chars, clean.values().map(|s| &**s)) {
            check_name(&name, limits.max_name_chars);
            clean.insert(*seat, name);
        }
    }
}

/// A display name the server accepts is clean (trimmed, one space between words, NFC) and is
/// accepted again as it is: a name stored once is a valid name.
fn check_name(name: &str, max: usize) {
    if let Ok(clean) = display_name(name, max, []) {
        assert_clean(&clean);
        assert_eq!(
            display_name(&clean, max, []),
            Ok(clean.clone()),
            "names are stable"
        );
    }
}

/// Chat the server accepts is clean and accepted again as it is.
fn check_chat(text: &str, max: usize) {
    match chat_text(text, max) {
        Ok(clean) => {
            assert_clean(&clean);
            assert_eq!(chat_text(&clean, max), Ok(clean.clone()), "chat is stable");
        }
        Err(TextError::Impersonation(_) | TextError::NoLetters) => {
            panic!("chat is not checked as a name")
        }
        Err(_) => {}
    }
}

fn assert_clean(text: &str) {
    assert_eq!(text.trim(), text, "{text:?}: trimmed");
    assert!(!text.contains("  "), "{text:?}: single spaces");
    assert!(
        text.chars().all(|c| c == ' ' || !c.is_whitespace()),
        "{text:?}: only plain spaces"
    );
    assert!(unicode_normalization::is_nfc(text), "{text:?}: NFC");
}

/// The value serialises and parses back to a value `same` accepts.
fn assert_round_trip<T: Serialize + DeserializeOwned>(value: &T, same: impl Fn(&T) -> bool) {
    let json = serde_json::to_string(value).expect("serialises");
    let back: T = serde_json::from_str(&json).expect("what the server writes, it reads");
    assert!(same(&back), "{json}: survives JSON");
}

/// For bodies without `PartialEq`: the JSON value written, parsed and written again, is the
/// same.
fn assert_value_round_trip<T: Serialize + DeserializeOwned>(value: &T) {
    let first = serde_json::to_value(value).expect("serialises");
    assert_round_trip(value, |back| {
        serde_json::to_value(back).ok().as_ref() == Some(&first)
    });
}
