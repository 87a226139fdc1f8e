//! The store suite, written once: it runs on SQLite always, and on Postgres when
//! `DJAMBI_TEST_POSTGRES_URL` is set (required when `DJAMBI_REQUIRE_POSTGRES=1`).

mod common;

use std::sync::Arc;

use common::TestDb;
use djambi_core::{Army, Position};
use djambi_server::cluster::ownership::Ownerships;
use djambi_server::metrics::Metrics;
use djambi_server::protocol::GameStatus;
use djambi_server::store::{
    Commit, Fence, GameRow, GameSummaryRow, Store, StoreError, StoreOptions,
};
use djambi_server::table::{ChatLine as ChatRow, Event as EventRow, EventKind, GameState, Seat};
use djambi_server::token::SeatToken;
use uuid::Uuid;

#[tokio::test]
async fn store_suite_on_sqlite() {
    let db = TestDb::sqlite();
    suite(&db.url()).await;
}

#[tokio::test]
async fn store_suite_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    suite(&db.url()).await;
}

#[tokio::test]
async fn a_missing_postgres_database_is_explained() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    // The same server and role, a database nobody created.
    let url = db.url();
    let (base, _) = url.rsplit_once('/').unwrap();
    let missing = format!("{base}/djambi_nobody_made_{}", Uuid::new_v4().simple());
    let metrics = Arc::new(Metrics::default());
    let err = Store::connect(&missing, &StoreOptions::default(), metrics)
        .await
        .err()
        .expect("no such database");
    let text = err.to_string();
    assert!(matches!(err, StoreError::Unusable(_)), "{text}");
    assert!(
        text.contains("does not exist") && text.contains("createdb -O"),
        "{text}"
    );
    assert!(text.contains("SELF_HOSTING"), "{text}");
    assert!(!text.contains(" at line "), "no driver internals: {text}");
}

fn new_game(open: bool) -> GameState {
    let seats = Army::ALL
        .iter()
        .map(|&player| Seat {
            player,
            name: (player == Army::Red).then(|| "Ann".to_string()),
            token_hash: SeatToken::generate().hash(),
            claimed: false,
            bot: None,
            start_bot: None,
            member: None,
        })
        .collect();
    // Listed, whether open or not: the lists are what these tests read.
    GameState::new(Uuid::new_v4(), Position::new(), seats, open, 1_000).with_listed(true)
}

fn turn(v: u64, player: Army, text: &str, ack: Option<u64>) -> EventRow {
    EventRow {
        v,
        kind: EventKind::Turn {
            player,
            turn: text.parse::<djambi_core::TurnText>().unwrap().0,
        },
        ack,
        at: 2_000 + v as i64,
    }
}

async fn create(store: &Store, state: &GameState) {
    store
        .create_game(&GameRow::of(state), &state.seats, &[])
        .await
        .unwrap();
}

async fn suite(url: &str) {
    let metrics = Arc::new(Metrics::default());
    let store = Store::connect(url, &StoreOptions::default(), metrics.clone())
        .await
        .unwrap();
    store.migrate().await.unwrap();
    store.migrate().await.expect("migrating twice is harmless");
    store.ping().await.unwrap();
    assert!(store.load_game(Uuid::new_v4(), 10).await.unwrap().is_none());

    // A game round-trips.
    let mut state = new_game(true);
    create(&store, &state).await;
    let stored = store.load_game(state.id, 10).await.unwrap().unwrap();
    assert_eq!(stored.row.id, state.id);
    assert!(stored.row.open);
    assert_eq!(stored.row.players, 4);
    assert_eq!(stored.row.start, Position::new().to_dpn());
    assert_eq!(stored.row.summary.status, GameStatus::Open);
    assert_eq!(stored.seats.len(), 4);
    assert_eq!(stored.seats[0].name.as_deref(), Some("Ann"));
    assert!(
        stored.seats[0]
            .token_hash
            .matches(&state.seats[0].token_hash)
    );
    assert!(stored.seats.iter().all(|s| !s.claimed));

    // Commits: a claim (only of a free seat), events with their ack, chat, the summary.
    let mut seat = state.seats[1].clone();
    seat.claimed = true;
    seat.name = Some("Bea".into());
    let claim = Commit {
        game: state.id,
        claim: Some(seat.clone()),
        ..Commit::default()
    };
    store.commit(claim.clone()).await.unwrap();
    assert!(
        store.commit(claim).await.is_err(),
        "a claimed seat cannot be claimed again"
    );

    let events = vec![
        turn(1, Army::Red, "b7-b5", Some(7)),
        turn(2, Army::Blue, "h7-h5", None),
    ];
    for e in &events {
        state.replay(e).unwrap();
    }
    store
        .commit(Commit {
            game: state.id,
            events: events.clone(),
            summary: Some(GameSummaryRow::of(&state)),
            ..Commit::default()
        })
        .await
        .unwrap();
    let whisper = ChatRow {
        id: 1,
        v: 2,
        from: Some(Army::Red),
        name: "Ann".into(),
        to: Some(Army::Blue),
        text: "l'amitié \"🙂\" <b>".into(),
        ack: Some(8),
        at: 3_000,
    };
    let spectator = ChatRow {
        id: 2,
        v: 2,
        from: None,
        name: "watcher".into(),
        to: None,
        text: "hi".into(),
        ack: None,
        at: 3_001,
    };
    for chat in [&whisper, &spectator] {
        store
            .commit(Commit {
                game: state.id,
                chat: Some(chat.clone()),
                ..Commit::default()
            })
            .await
            .unwrap();
    }

    let stored = store.load_game(state.id, 10).await.unwrap().unwrap();
    assert_eq!(stored.events, events);
    assert_eq!(stored.recent_chat, [whisper.clone(), spectator.clone()]);
    assert_eq!(stored.last_chat_id, 2);
    assert_eq!(stored.chat_acks, [(Army::Red, 8, 2)]);
    assert!(stored.seats[1].claimed);
    assert_eq!(stored.seats[1].name.as_deref(), Some("Bea"));
    assert_eq!(stored.row.summary.v, 2);
    assert_eq!(stored.row.summary.dpn, state.position().to_dpn());
    assert_eq!(stored.row.summary.to_move, Some(Army::Yellow));
    let restored = stored.restore().unwrap();
    assert_eq!(restored.position(), state.position());
    assert_eq!(restored.v, 2);
    let only_last = store.load_game(state.id, 1).await.unwrap().unwrap();
    assert_eq!(only_last.recent_chat, [spectator]);
    assert_eq!(
        store.events_since(state.id, 1).await.unwrap(),
        events[1..].to_vec()
    );

    // A version is written once.
    let again = Commit {
        game: state.id,
        events: vec![turn(2, Army::Blue, "h7-h6", None)],
        ..Commit::default()
    };
    assert!(matches!(store.commit(again).await, Err(StoreError::Db(_))));

    // Lists and the unfinished games.
    let mut finished = new_game(false);
    create(&store, &finished).await;
    finished
        .apply(&EventKind::DrawOffered { by: Army::Red }, 0)
        .unwrap();
    for p in [Army::Blue, Army::Yellow] {
        finished
            .apply(&EventKind::DrawAccepted { by: p }, 0)
            .unwrap();
    }
    finished
        .apply(
            &EventKind::DrawAgreed {
                by: Army::Green,
                excused: djambi_core::ArmySet::EMPTY,
            },
            0,
        )
        .unwrap();
    store
        .commit(Commit {
            game: finished.id,
            summary: Some(GameSummaryRow::of(&finished)),
            ..Commit::default()
        })
        .await
        .unwrap();
    let open = store.list_games(Some(GameStatus::Open), 10).await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].0.id, state.id);
    assert_eq!(open[0].1.len(), 4);
    let done = store
        .list_games(Some(GameStatus::Finished), 10)
        .await
        .unwrap();
    assert_eq!(done.len(), 1);
    assert!(done[0].0.summary.result.is_some());
    assert_eq!(store.list_games(None, 10).await.unwrap().len(), 2);
    assert_eq!(store.list_games(None, 1).await.unwrap().len(), 1);
    assert_eq!(store.unfinished_games().await.unwrap(), [state.id]);
    // An unlisted game is in no list, but found by its id.
    let hidden = new_game(false).with_listed(false);
    create(&store, &hidden).await;
    assert_eq!(store.list_games(None, 10).await.unwrap().len(), 2);
    let open_now = store.list_games(Some(GameStatus::Open), 10).await.unwrap();
    assert!(open_now.iter().all(|(g, _)| g.id != hidden.id));
    let by_id = store.games_by_ids(&[hidden.id]).await.unwrap();
    assert_eq!(by_id.len(), 1);
    assert!(!by_id[0].0.listed);

    // Many games committing at once share transactions, and one bad commit fails alone.
    let mut games = Vec::new();
    for _ in 0..40 {
        let g = new_game(false);
        create(&store, &g).await;
        games.push(g);
    }
    let before = metrics.db_transactions.get();
    let mut tasks = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let store = store.clone();
        let id = g.id;
        // The bad one: a version that already exists in `state`'s game.
        let (game, v) = if i == 17 { (state.id, 1) } else { (id, 1) };
        tasks.push(tokio::spawn(async move {
            store
                .commit(Commit {
                    game,
                    events: vec![turn(v, Army::Red, "b7-b5", Some(1))],
                    ..Commit::default()
                })
                .await
        }));
    }
    let results: Vec<_> = futures_util::future::join_all(tasks)
        .await
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r.is_ok(), i != 17, "commit {i}: {r:?}");
    }
    for (i, g) in games.iter().enumerate() {
        let stored = store.load_game(g.id, 0).await.unwrap().unwrap();
        assert_eq!(stored.events.len(), usize::from(i != 17), "game {i}");
    }
    let used = metrics.db_transactions.get() - before;
    assert!(used <= 40, "{used} transactions for 39 commits");

    store.close().await;
    assert!(matches!(
        store
            .commit(Commit {
                game: state.id,
                ..Commit::default()
            })
            .await,
        Err(StoreError::Closed)
    ));
}

/// Ownership over several nodes (Postgres only): a game is taken only from nobody or from a
/// node whose lease expired, each take adds one to the epoch, and a commit made under an
/// ownership that ended is refused whole — with events (checked by the insert itself) and
/// without (checked on its own) — while the current owner commits.
#[tokio::test]
async fn ownership_and_fencing_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let store = Store::connect(
        &db.url(),
        &StoreOptions::default(),
        Arc::new(Metrics::default()),
    )
    .await
    .unwrap();
    store.migrate().await.unwrap();
    let owners = Ownerships::new(store.clone());
    owners.renew_node("a", 1, 60_000).await.unwrap();
    owners.renew_node("b", 2, 60_000).await.unwrap();
    let state = new_game(false);
    let id = state.id;
    let epoch = owners
        .create_owned(&GameRow::of(&state), &state.seats, &[], "a")
        .await
        .map(Some)
        .unwrap();
    assert_eq!(epoch, Some(1), "owned from its creation");
    let owner = owners.owner_of(id).await.unwrap().unwrap();
    assert_eq!((owner.node.as_deref(), owner.alive), (Some("a"), true));
    assert_eq!(owners.acquire(id, "b").await.unwrap(), None, "a is alive");
    assert!(owners.orphans(10).await.unwrap().is_empty());

    let a1 = Fence {
        node: "a".into(),
        epoch: 1,
    };
    let commit = |v: u64, fence: &Fence| Commit {
        game: id,
        events: vec![turn(v, Army::Red, "a7-a6", Some(v))],
        fence: Some(fence.clone()),
        ..Commit::default()
    };
    store.commit(commit(1, &a1)).await.unwrap();

    // a's lease runs out: b may take the game, once, at the next epoch.
    owners.renew_node("a", 1, -1).await.unwrap();
    assert_eq!(owners.orphans(10).await.unwrap(), vec![id]);
    assert_eq!(owners.acquire(id, "b").await.unwrap(), Some(2));
    assert_eq!(
        owners.acquire(id, "a").await.unwrap(),
        None,
        "a's lease is over"
    );
    let b2 = Fence {
        node: "b".into(),
        epoch: 2,
    };
    // a, stale, commits: refused whole, with or without events.
    assert!(matches!(
        store.commit(commit(2, &a1)).await,
        Err(StoreError::Fenced)
    ));
    let chat_only = Commit {
        game: id,
        chat: Some(ChatRow {
            id: 1,
            v: 1,
            from: Some(Army::Red),
            name: "Ann".into(),
            to: None,
            text: "still mine?".into(),
            ack: Some(9),
            at: 3_000,
        }),
        fence: Some(a1.clone()),
        ..Commit::default()
    };
    assert!(matches!(
        store.commit(chat_only).await,
        Err(StoreError::Fenced)
    ));
    let stored = store.load_game(id, 10).await.unwrap().unwrap();
    assert_eq!(stored.events.len(), 1, "nothing of a's stale commits");
    assert!(stored.recent_chat.is_empty());
    // b commits.
    store.commit(commit(2, &b2)).await.unwrap();
    assert_eq!(
        store.load_game(id, 10).await.unwrap().unwrap().events.len(),
        2
    );

    // Released, anyone may take it, at once; the release of a stale fence changes nothing.
    owners.release(id, &a1).await.unwrap();
    assert_eq!(
        owners.owner_of(id).await.unwrap().unwrap().node.as_deref(),
        Some("b")
    );
    owners.release(id, &b2).await.unwrap();
    let owner = owners.owner_of(id).await.unwrap().unwrap();
    assert_eq!(owner.node, None);
    assert!(owner.idle_since.is_some(), "released at a known time");
    assert_eq!(owners.acquire(id, "b").await.unwrap(), Some(3));
    assert_eq!(
        owners.live_nodes().await.unwrap().len(),
        1,
        "only b is alive"
    );
    owners.remove_node("b").await.unwrap();
    assert!(owners.live_nodes().await.unwrap().is_empty());
}

#[tokio::test]
async fn events_stored_before_migration_9_read_back_on_sqlite() {
    let db = TestDb::sqlite();
    old_details_read_back(
        &db.url(),
        include_str!("../../../migrations/sqlite/0009_event_json.sql"),
    )
    .await;
}

#[tokio::test]
async fn events_stored_before_migration_10_read_back_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    old_details_read_back(
        &db.url(),
        include_str!("../../../migrations/postgres/0010_event_json.sql"),
    )
    .await;
}

/// Rows in the hand-written `detail` forms of the releases before the one event vocabulary
/// (`easy;vote`, `g;bot:hard;rb`, …) are rewritten by the migration into the JSON the store now
/// reads, and read back as the events they were; rows already in JSON are left alone.
async fn old_details_read_back(url: &str, migration: &str) {
    use djambi_core::ArmySet;
    use djambi_engine::Level;
    use djambi_server::table::{BotReason, CancelReason, VoteAction};
    let store = Store::connect(url, &StoreOptions::default(), Arc::new(Metrics::default()))
        .await
        .unwrap();
    store.migrate().await.unwrap();
    let state = new_game(false);
    create(&store, &state).await;
    let old: [(&str, &str, Option<&str>); 12] = [
        ("seat_to_bot", "y", Some("easy;vote")),
        ("vote_opened", "r", Some("g;bot:hard;rb")),
        ("vote_opened", "r", Some("g;resign;rby")),
        ("vote_cast", "b", Some("no")),
        ("vote_closed", "-", Some("passed")),
        ("takeback_answered", "g", Some("yes")),
        ("paused", "-", Some("1795255200000;1795255260000")),
        ("draw_agreed", "b", Some("gy")),
        ("draw_agreed", "b", None),
        ("cancelled", "-", Some("creator")),
        ("cancelled", "-", Some(r#"{"reason":"expired"}"#)),
        ("draw_offered", "r", None),
    ];
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    for (v, (kind, player, detail)) in old.iter().enumerate() {
        sqlx::query(
            "INSERT INTO events (game_id, v, kind, player, turn_text, detail, ack, at) \
             VALUES ($1, $2, $3, $4, NULL, $5, NULL, $6)",
        )
        .bind(state.id.to_string())
        .bind(v as i64 + 1)
        .bind(*kind)
        .bind(*player)
        .bind(*detail)
        .bind(1_000_i64)
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::raw_sql(sqlx::AssertSqlSafe(migration))
        .execute(&pool)
        .await
        .unwrap();
    let set = |s: &str| {
        s.chars()
            .map(|c| Army::from_char(c).unwrap())
            .collect::<ArmySet>()
    };
    let expected = [
        EventKind::SeatToBot {
            player: Army::Yellow,
            level: Level::Easy,
            reason: BotReason::Vote,
        },
        EventKind::VoteOpened {
            by: Army::Red,
            target: Army::Green,
            action: VoteAction::Bot(Level::Hard),
            voters: set("rb"),
        },
        EventKind::VoteOpened {
            by: Army::Red,
            target: Army::Green,
            action: VoteAction::Resign,
            voters: set("rby"),
        },
        EventKind::VoteCast {
            by: Army::Blue,
            yes: false,
        },
        EventKind::VoteClosed { passed: true },
        EventKind::TakebackAnswered {
            by: Army::Green,
            yes: true,
        },
        EventKind::Paused {
            from: 1_795_255_200_000,
            until: 1_795_255_260_000,
        },
        EventKind::DrawAgreed {
            by: Army::Blue,
            excused: set("gy"),
        },
        EventKind::DrawAgreed {
            by: Army::Blue,
            excused: ArmySet::EMPTY,
        },
        EventKind::Cancelled {
            reason: CancelReason::Creator,
        },
        EventKind::Cancelled {
            reason: CancelReason::Expired,
        },
        EventKind::DrawOffered { by: Army::Red },
    ];
    let stored = store.load_game(state.id, 10).await.unwrap().unwrap();
    let kinds: Vec<EventKind> = stored.events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, expected);
    pool.close().await;
}
