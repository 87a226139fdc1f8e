//! The circles' queries (issue 47), written once: on SQLite always, and on Postgres when
//! `DJAMBI_TEST_POSTGRES_URL` is set (required when `DJAMBI_REQUIRE_POSTGRES=1`), as the store
//! suite (store.rs).

use std::sync::Arc;

use crate::common::TestDb;
use djambi_core::{Army, Position};
use djambi_server::metrics::Metrics;
use djambi_server::protocol::GameStatus;
use djambi_server::store::{Commit, GameRow, GameSummaryRow, Store, StoreOptions};
use djambi_server::table::{Event as EventRow, EventKind, GameState, Seat};
use djambi_server::token::SeatToken;
use uuid::Uuid;

async fn create(store: &Store, state: &GameState) {
    store
        .create_game(&GameRow::of(state), &state.seats, &[])
        .await
        .unwrap();
}

#[tokio::test]
async fn circle_queries_on_sqlite() {
    let db = TestDb::sqlite();
    circle_suite(&db.url()).await;
}

#[tokio::test]
async fn circle_queries_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    circle_suite(&db.url()).await;
}

/// The circles' queries (issue 47): members and their keys, the name and size checks, a
/// circle game stored with its members, its places computed from its log once and read back,
/// the admin's recomputation, leaving (the creator's rights passing on), renaming.
async fn circle_suite(url: &str) {
    use djambi_server::circle::{CircleError, Circles, MemberStatus};
    let store = Store::connect(url, &StoreOptions::default(), Arc::new(Metrics::default()))
        .await
        .unwrap();
    store.migrate().await.unwrap();
    let circles = Circles::new(store.clone(), 3, 32);
    let (circle, invite, ann) = circles.create(" Club  du jeudi ", "Ann").await.unwrap();
    assert_eq!(circle.name, "Club du jeudi");
    let (_, bea) = circles
        .join(circle.id, invite.as_str(), "Bea")
        .await
        .unwrap();
    assert!(matches!(
        circles.join(circle.id, invite.as_str(), "ANN").await,
        Err(CircleError::NameTaken(_))
    ));
    assert!(matches!(
        circles.join(circle.id, "wrong", "Eve").await,
        Err(CircleError::BadInvite)
    ));
    assert!(matches!(
        circles.join(Uuid::new_v4(), invite.as_str(), "Eve").await,
        Err(CircleError::BadInvite)
    ));
    let (_, cid) = circles
        .join(circle.id, invite.as_str(), "Cid")
        .await
        .unwrap();
    assert!(matches!(
        circles.join(circle.id, invite.as_str(), "Dee").await,
        Err(CircleError::Full(3))
    ));
    let (found, me) = circles.member(circle.id, bea.key.as_str()).await.unwrap();
    assert_eq!(
        (found.id, me.id, me.name.as_str()),
        (circle.id, bea.id, "Bea")
    );
    assert!(matches!(
        circles.member(circle.id, "nope").await,
        Err(CircleError::BadKey)
    ));

    // A circle game: Ann (red) and Bea (blue) seated as members, an easy bot, a guest; blue,
    // yellow and green resign: red wins.
    let seats = Army::ALL
        .iter()
        .map(|&player| {
            let (name, member, bot) = match player {
                Army::Red => (Some("Ann"), Some(ann.id), None),
                Army::Blue => (Some("Bea"), Some(bea.id), None),
                Army::Yellow => (None, None, Some(djambi_engine::Level::Easy)),
                _ => (Some("Gus"), None, None),
            };
            Seat::stored(
                player,
                name.map(String::from),
                SeatToken::generate().hash(),
                true,
                bot,
            )
            .with_member(member)
        })
        .collect();
    let mut game = GameState::new(Uuid::new_v4(), Position::new(), seats, false, 1_000)
        .with_circle(Some(circle.id));
    create(&store, &game).await;
    let stored = store.load_game(game.id, 0).await.unwrap().unwrap();
    assert_eq!(stored.row.circle, Some(circle.id));
    assert_eq!(stored.seats[0].member, Some(ann.id));
    assert_eq!(stored.seats[3].member, None);
    let kinds = [
        EventKind::Started,
        EventKind::Resign { player: Army::Blue },
        EventKind::Resign {
            player: Army::Yellow,
        },
        EventKind::Resign {
            player: Army::Green,
        },
    ];
    let events: Vec<EventRow> = kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| EventRow {
            v: i as u64 + 1,
            kind: *kind,
            ack: None,
            at: 2_000 + i as i64,
        })
        .collect();
    for e in &events {
        game.replay(e).unwrap();
    }
    store
        .commit(Commit {
            game: game.id,
            events,
            summary: Some(GameSummaryRow::of(&game)),
            ..Commit::default()
        })
        .await
        .unwrap();

    let (circle, _) = circles.member(circle.id, ann.key.as_str()).await.unwrap();
    let view = circles.view(&circle, ann.id).await.unwrap();
    assert_eq!(view.games.len(), 1);
    let g = &view.games[0];
    assert!(g.rated);
    assert_eq!(g.status, GameStatus::Finished);
    assert_eq!(g.places[&Army::Red], 1);
    assert_eq!(g.places[&Army::Green], 2);
    assert_eq!(g.places[&Army::Yellow], 3);
    assert_eq!(g.places[&Army::Blue], 4);
    assert_eq!(g.seats[1].member, Some(bea.id));
    assert_eq!(g.finished.as_deref(), Some("1970-01-01T00:00:02.003Z"));
    assert_eq!(view.head_to_head.len(), 1);
    let pair = &view.head_to_head[0];
    let ann_ahead = if pair.a == ann.id {
        pair.ahead
    } else {
        pair.behind
    };
    assert_eq!((ann_ahead, pair.games), (1, 1));
    assert_eq!(view.members[0].id, ann.id, "the winner leads");
    assert_eq!(view.members[0].wins, 1);
    assert_eq!(view.history.len(), 1);
    // Read again: the places come back from the table, the same.
    let again = circles.view(&circle, bea.id).await.unwrap();
    assert_eq!(again.members, view.members);
    assert_eq!(again.head_to_head, view.head_to_head);
    let report = djambi_server::circle::recompute::recompute(&store, Some(circle.id), false)
        .await
        .unwrap();
    assert_eq!((report.circles, report.games), (1, 1));
    assert!(report.differences.is_empty(), "{:?}", report.differences);

    // Leaving: the key stops working; the creator's rights go to the longest-standing member.
    let me = |m: &djambi_server::circle::NewMember| m.id;
    let (_, bea_row) = circles.member(circle.id, bea.key.as_str()).await.unwrap();
    assert!(matches!(
        circles.depart(&circle, &bea_row, me(&cid)).await,
        Err(CircleError::NotCreator)
    ));
    assert_eq!(
        circles.depart(&circle, &bea_row, bea.id).await.unwrap(),
        MemberStatus::Left
    );
    assert!(circles.member(circle.id, bea.key.as_str()).await.is_err());
    let (_, ann_row) = circles.member(circle.id, ann.key.as_str()).await.unwrap();
    assert_eq!(
        circles.depart(&circle, &ann_row, ann.id).await.unwrap(),
        MemberStatus::Left
    );
    let (circle, cid_row) = circles.member(circle.id, cid.key.as_str()).await.unwrap();
    assert_eq!(circle.creator, cid.id);
    assert_eq!(
        circles.rename(&circle, &cid_row, "Club").await.unwrap(),
        "Club"
    );
    let (circle, _) = circles.member(circle.id, cid.key.as_str()).await.unwrap();
    let view = circles.view(&circle, cid.id).await.unwrap();
    assert_eq!(view.name, "Club");
    let statuses: Vec<&str> = view.members.iter().map(|m| m.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "left").count(), 2);
    assert_eq!(view.games[0].places[&Army::Red], 1, "their games stay");
    // A place freed by a member who left may be taken.
    circles
        .join(circle.id, invite.as_str(), "Dee")
        .await
        .unwrap();
    store.close().await;
}
