//! `hard` plays the same games: the engine's choices on node budgets, recorded in
//! `tests/data/replay.json` before the arena and its experiments left the engine, are made again
//! turn by turn. Each engine seat (`hard`, `medium`, `easy`, `beginner`, `random`) must choose
//! the recorded turn with the recorded score, depth, nodes and expected line; a seat of another
//! player (the arena's referee) plays its recorded turn. Then [`Engine::value`] and
//! [`Engine::assess`] on positions from those games, exact puzzle verdicts, and a small seeded
//! run of the puzzle generator. A change of behaviour fails here, naming the game and the turn.
//!
//! The file is data, not a golden to refresh: a change that means to play differently says so
//! and records the file again (its `about` says how it was made).

use std::num::NonZeroU32;

use djambi_core::{Army, Position, Rules, Turn};
use djambi_engine::puzzle::{DEFAULT_NODES, Settings, Verifier, generate};
use djambi_engine::{Engine, EngineConfig, Level, Limits};
use serde_json::Value;

fn data() -> Value {
    let text = include_str!("data/replay.json");
    serde_json::from_str(text).expect("tests/data/replay.json is JSON")
}

fn u64_of(v: &Value) -> u64 {
    v.as_u64().expect("a whole number")
}

fn i64_of(v: &Value) -> i64 {
    v.as_i64().expect("a whole number")
}

fn text_of(v: &Value) -> &str {
    v.as_str().expect("a string")
}

fn line(turns: &[Turn]) -> String {
    let texts: Vec<String> = turns.iter().map(Turn::to_string).collect();
    texts.join(" ")
}

/// One recorded game played again; returns the number of engine choices checked.
fn replay_game(game: &Value) -> usize {
    let name = text_of(&game["name"]);
    let nodes = u64_of(&game["nodes"]);
    let tt_bytes = u64_of(&game["tt_bytes"]) as usize;
    let rules = Rules {
        turn_limit: NonZeroU32::new(u64_of(&game["turn_limit"]) as u32),
        ..Rules::default()
    };
    let seats: Vec<Option<Level>> = game["seats"]
        .as_array()
        .expect("four seats")
        .iter()
        .map(|s| text_of(s).parse().ok())
        .collect();
    let seeds = game["engine_seeds"].as_array().expect("four seeds");
    // One engine per seat for the whole game, as the arena and the server's bot seats have.
    let mut engines: Vec<Option<Engine>> = seats
        .iter()
        .zip(seeds)
        .map(|(level, seed)| {
            level.map(|level| {
                let searches = matches!(level, Level::Medium | Level::Hard);
                Engine::new(EngineConfig {
                    tt_bytes: if searches { tt_bytes } else { 0 },
                    seed: u64_of(seed),
                })
            })
        })
        .collect();
    let mut pos = Position::start(rules);
    let mut checked = 0;
    for (i, rec) in game["turns"]
        .as_array()
        .expect("the turns")
        .iter()
        .enumerate()
    {
        let mover = pos
            .to_move()
            .unwrap_or_else(|| panic!("{name}: over early"));
        let recorded: Turn = pos
            .parse_turn(text_of(&rec["turn"]))
            .unwrap_or_else(|e| panic!("{name}, turn {i}: {e}"));
        let turn = match (seats[mover.index()], engines[mover.index()].as_mut()) {
            (Some(level), Some(engine)) => {
                let r = engine
                    .think(&pos, level, &Limits::nodes(nodes))
                    .expect("a game in progress");
                let at = format!("{name}, turn {i} ({level}, {})", pos.to_dpn());
                assert_eq!(r.best, recorded, "{at}: another turn");
                if let Some(score) = rec.get("score") {
                    assert_eq!(i64::from(r.score), i64_of(score), "{at}: score");
                    assert_eq!(u64::from(r.depth), u64_of(&rec["depth"]), "{at}: depth");
                    assert_eq!(r.nodes, u64_of(&rec["nodes"]), "{at}: nodes");
                    assert_eq!(line(&r.pv), text_of(&rec["pv"]), "{at}: line");
                }
                checked += 1;
                r.best
            }
            _ => recorded,
        };
        pos.play(&turn)
            .unwrap_or_else(|e| panic!("{name}, turn {i}: {e}"));
    }
    assert!(pos.is_game_over(), "{name}: the record ends the game");
    assert_eq!(pos.to_dpn(), text_of(&game["end"]), "{name}: the end");
    checked
}

#[test]
fn hard_replays_the_recorded_games() {
    let data = data();
    let games = data["games"].as_array().expect("games");
    assert_eq!(games.len(), 10);
    let checked: usize = games.iter().map(replay_game).sum();
    assert!(checked > 700, "{checked} choices checked");
}

#[test]
fn values_and_assessments_are_the_recorded_ones() {
    let data = data();
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: 16 << 20,
        seed: 9,
    });
    let values = data["values"].as_array().expect("values");
    assert!(values.len() > 50);
    for v in values {
        let dpn = text_of(&v["dpn"]);
        let pos = Position::from_dpn(dpn, Rules::default()).expect("a recorded position");
        let player: Army = serde_json::from_value(v["player"].clone()).expect("a player");
        let value = engine.value(&pos, player, &Limits::nodes(u64_of(&v["nodes"])));
        assert_eq!(i64::from(value), i64_of(&v["value"]), "{dpn} {player}");
        let a = engine.assess(&pos, player);
        let share = v["assess_share"].as_f64().expect("a share");
        assert!((a.share - share).abs() < 1e-12, "{dpn} {player}: {a:?}");
        assert_eq!(Some(a.losing), v["assess_losing"].as_bool(), "{dpn}");
    }
}

#[test]
fn puzzle_verdicts_are_the_recorded_ones() {
    let data = data();
    let mut verifier = Verifier::new(DEFAULT_NODES);
    for p in data["puzzles"].as_array().expect("puzzles") {
        let id = text_of(&p["id"]);
        let pos = Position::from_dpn(text_of(&p["dpn"]), Rules::default()).expect("a puzzle");
        let depth = u64_of(&p["depth"]) as u32;
        let stable = p["stable"].as_bool().expect("stable");
        let v = verifier
            .verify(&pos, depth, 1, stable)
            .unwrap_or_else(|e| panic!("{id}: {e:?}"));
        let want = &p["verdict"];
        assert_eq!(v.solution.to_string(), text_of(&want["solution"]), "{id}");
        assert_eq!(v.runner_up.to_string(), text_of(&want["runner_up"]), "{id}");
        assert_eq!(i64::from(v.score), i64_of(&want["score"]), "{id}");
        assert_eq!(i64::from(v.margin), i64_of(&want["margin"]), "{id}");
        assert_eq!(u64::from(v.depth), u64_of(&want["depth"]), "{id}");
        assert_eq!(u64::from(v.found_at), u64_of(&want["found_at"]), "{id}");
        assert_eq!(line(&v.line), text_of(&want["line"]), "{id}");
        assert_eq!(v.nodes, u64_of(&want["nodes"]), "{id}");
    }
}

#[test]
fn the_generator_makes_the_recorded_puzzles() {
    let data = data();
    let settings = Settings {
        depth: 2,
        nodes: 100_000,
        max_games: 6,
        ..Settings::new(3, 11)
    };
    let made = generate(&settings, |_| {});
    let want = data["generated"].as_array().expect("generated");
    assert_eq!(made.len(), want.len());
    for (p, w) in made.iter().zip(want) {
        let dpn = p.position.to_dpn();
        assert_eq!(dpn, text_of(&w["dpn"]));
        assert_eq!(p.solution.to_string(), text_of(&w["solution"]), "{dpn}");
        assert_eq!(p.theme.name(), text_of(&w["theme"]), "{dpn}");
        assert_eq!(u64::from(p.difficulty), u64_of(&w["difficulty"]), "{dpn}");
        assert_eq!(u64::from(p.depth), u64_of(&w["depth"]), "{dpn}");
        assert_eq!(i64::from(p.margin), i64_of(&w["margin"]), "{dpn}");
        assert_eq!(line(&p.line), text_of(&w["line"]), "{dpn}");
    }
}
