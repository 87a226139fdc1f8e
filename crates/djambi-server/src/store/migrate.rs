//! The migrations under `migrations/sqlite/` and `migrations/postgres/`, embedded in the binary
//! (so it runs from anywhere) and run by sqlx's migrator, which records them in
//! `_sqlx_migrations` exactly as `sqlx migrate run` would.

use std::borrow::Cow;

use sqlx::SqlSafeStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

use super::Backend;

/// (version, description, SQL) of each SQLite migration, in order.
const SQLITE: &[(i64, &str, &str)] = &[
    (
        1,
        "games",
        include_str!("../../../../migrations/sqlite/0001_games.sql"),
    ),
    (
        2,
        "event_detail",
        include_str!("../../../../migrations/sqlite/0002_event_detail.sql"),
    ),
    (
        3,
        "lifecycle",
        include_str!("../../../../migrations/sqlite/0003_lifecycle.sql"),
    ),
    (
        4,
        "bot_seed",
        include_str!("../../../../migrations/sqlite/0004_bot_seed.sql"),
    ),
    (
        5,
        "listed_rematch",
        include_str!("../../../../migrations/sqlite/0005_listed_rematch.sql"),
    ),
    (
        6,
        "analysis",
        include_str!("../../../../migrations/sqlite/0006_analysis.sql"),
    ),
    (
        7,
        "push",
        include_str!("../../../../migrations/sqlite/0007_push.sql"),
    ),
    (
        8,
        "analysis_model",
        include_str!("../../../../migrations/sqlite/0008_analysis_model.sql"),
    ),
    (
        9,
        "event_json",
        include_str!("../../../../migrations/sqlite/0009_event_json.sql"),
    ),
    (
        10,
        "circles",
        include_str!("../../../../migrations/sqlite/0010_circles.sql"),
    ),
];

/// (version, description, SQL) of each Postgres migration, in order.
const POSTGRES: &[(i64, &str, &str)] = &[
    (
        1,
        "games",
        include_str!("../../../../migrations/postgres/0001_games.sql"),
    ),
    (
        2,
        "event_detail",
        include_str!("../../../../migrations/postgres/0002_event_detail.sql"),
    ),
    (
        3,
        "lifecycle",
        include_str!("../../../../migrations/postgres/0003_lifecycle.sql"),
    ),
    (
        4,
        "cluster",
        include_str!("../../../../migrations/postgres/0004_cluster.sql"),
    ),
    (
        5,
        "bot_seed",
        include_str!("../../../../migrations/postgres/0005_bot_seed.sql"),
    ),
    (
        6,
        "listed_rematch",
        include_str!("../../../../migrations/postgres/0006_listed_rematch.sql"),
    ),
    (
        7,
        "analysis",
        include_str!("../../../../migrations/postgres/0007_analysis.sql"),
    ),
    (
        8,
        "push",
        include_str!("../../../../migrations/postgres/0008_push.sql"),
    ),
    (
        9,
        "analysis_model",
        include_str!("../../../../migrations/postgres/0009_analysis_model.sql"),
    ),
    (
        10,
        "event_json",
        include_str!("../../../../migrations/postgres/0010_event_json.sql"),
    ),
    (
        11,
        "circles",
        include_str!("../../../../migrations/postgres/0011_circles.sql"),
    ),
];

fn migrations(backend: Backend) -> &'static [(i64, &'static str, &'static str)] {
    match backend {
        Backend::Sqlite => SQLITE,
        Backend::Postgres => POSTGRES,
    }
}

/// The migrator for a backend.
pub(super) fn migrator(backend: Backend) -> Migrator {
    Migrator::with_migrations(
        migrations(backend)
            .iter()
            .map(|(version, description, sql)| {
                Migration::new(
                    *version,
                    Cow::Borrowed(*description),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A migration file added to a folder but not to the lists above would silently not run.
    #[test]
    fn every_migration_file_is_embedded() {
        for (dir, list) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let path = format!("{}/../../migrations/{dir}", env!("CARGO_MANIFEST_DIR"));
            let mut files: Vec<String> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".sql"))
                .collect();
            files.sort();
            let expected: Vec<String> = list
                .iter()
                .map(|(v, d, _)| format!("{v:04}_{d}.sql"))
                .collect();
            assert_eq!(files, expected, "{dir}");
        }
    }
}
