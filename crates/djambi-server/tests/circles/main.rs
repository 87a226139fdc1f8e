//! The friends' circles (issue 47, docs/CIRCLES.md), as one test binary: the HTTP contract
//! end to end (`api`), the budgets and limits (`limits`), the store's circle queries on SQLite
//! and Postgres (`store`), the golden bodies (`golden`), Web Push to members (`push`) and
//! several nodes (`cluster`).

#[path = "../common/mod.rs"]
mod common;

mod api;
mod cluster;
mod golden;
mod limits;
mod push;
mod store;
