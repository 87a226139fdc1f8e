//! Property tests: every parser meets arbitrary input with an error or a value, never a panic;
//! and what a parser accepts, the formatter writes back the same.

use djambi_core::{Game, GameRecord, Position, Rules, START_DPN, Square, Turn, TurnText};
use proptest::prelude::*;

/// Strings near a valid DPN: the start position with a few characters replaced.
fn near_dpn() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "CARDNMXrbygh-0123456789/ ".chars().collect();
    prop::collection::vec((0..START_DPN.len(), prop::sample::select(alphabet)), 1..4).prop_map(
        |edits| {
            let mut chars: Vec<char> = START_DPN.chars().collect();
            for (i, c) in edits {
                chars[i] = c;
            }
            chars.into_iter().collect()
        },
    )
}

fn near_turn() -> impl Strategy<Value = String> {
    "[a-jA-J0-9xX>@-]{0,16}|pass|PASS|[a-i][1-9]-[a-i][1-9]([x>@][a-i][1-9]){0,3}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn dpn_parser_never_panics(s in "\\PC{0,200}") {
        let _ = Position::from_dpn(&s, Rules::default());
    }

    #[test]
    fn near_dpn_round_trips_or_errs_with_a_field(s in near_dpn()) {
        match Position::from_dpn(&s, Rules::default()) {
            Ok(pos) => prop_assert_eq!(pos.to_dpn(), s),
            Err(e) => {
                let text = e.to_string();
                let fields = ["position:", "board:", "to-move:", "control:", "last-regular:", "bonus:", "passed:", "quiet:", "turn:"];
                prop_assert!(fields.iter().any(|f| text.starts_with(f)), "{}", text);
            }
        }
    }

    #[test]
    fn turn_parser_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<TurnText>();
        let _ = Position::new().parse_turn(&s);
    }

    #[test]
    fn near_turns_round_trip_when_parsed(s in near_turn()) {
        if let Ok(t) = s.parse::<Turn>() {
            prop_assert_eq!(t.to_string(), s.to_ascii_lowercase());
        }
        let pos = Position::new();
        if let Ok(t) = pos.parse_turn(&s) {
            prop_assert!(pos.legal_turns().contains(&t));
        }
    }

    #[test]
    fn other_parsers_never_panic(s in "\\PC{0,60}") {
        let _ = s.parse::<Rules>();
        let _ = s.parse::<Square>();
        if let Ok(record) = serde_json::from_str::<GameRecord>(&s) {
            let _ = Game::from_record(&record);
        }
    }

    #[test]
    fn records_with_arbitrary_events_are_checked(texts in prop::collection::vec(near_turn(), 0..6)) {
        let events: Vec<serde_json::Value> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| serde_json::json!({"turn": i + 1, "player": "r", "move": t}))
            .collect();
        let json = serde_json::json!({"format": "djambi-game/1", "rules": {}, "start": START_DPN, "events": events});
        let record: GameRecord = serde_json::from_value(json).unwrap();
        let _ = Game::from_record(&record);
    }
}
