//! The arena plays the same games as before the lab left the engine: `hard` against three of
//! the outside referee's Max-N-2 players, 20 000 nodes, seed 77, games 0–3 (the determinism
//! check the engine's commits quote). The engine's `tests/data/replay.json` recorded them, turn
//! by turn, with the arena of the engine as it was; here the lab's arena plays them again, the
//! referee included, and must give the same turns and the same end.

use djambi_engine::Level;
use djambi_lab::agent::Agent;
use djambi_lab::arena::{GameSetup, play_game, rotated_seats};
use serde_json::Value;

#[test]
fn hard_against_the_referee_replays_the_recorded_games() {
    let text = include_str!("../../djambi-engine/tests/data/replay.json");
    let data: Value = serde_json::from_str(text).expect("the engine's replay data");
    let recorded: Vec<&Value> = data["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| {
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == "referee")
        })
        .collect();
    assert_eq!(recorded.len(), 4);
    for (game, rec) in recorded.iter().enumerate() {
        let seed = rec["seed"].as_u64().unwrap();
        assert_eq!(seed, 77 + game as u64, "game {game} of seed 77");
        let r = play_game(&GameSetup {
            seats: rotated_seats(Agent::Level(Level::Hard), Agent::Referee, game),
            movetime: [None; 4],
            nodes: [Some(rec["nodes"].as_u64().unwrap()); 4],
            turn_limit: rec["turn_limit"].as_u64().unwrap() as u32,
            seed,
            tt_bytes: rec["tt_bytes"].as_u64().unwrap() as usize,
        });
        let turns: Vec<String> = r.line.iter().map(|t| t.to_string()).collect();
        let want: Vec<&str> = rec["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["turn"].as_str().unwrap())
            .collect();
        assert_eq!(turns, want, "game {game}");
        assert_eq!(r.last, rec["end"].as_str().unwrap(), "game {game}");
    }
}
