-- Djambi Online, fourth migration (Postgres only: several server nodes need a shared database;
-- a server on SQLite is always alone). See docs/SCALING.md.
--
-- cluster_nodes: one row per running node (started with --nats). Its lease is renewed about once
--   a second; once `expires_at` has passed (by the database's clock) the node is dead to the
--   others, and it has stopped acting on its own before that.
-- game_owners: which node runs each loaded game, and the fencing epoch of that ownership. The
--   epoch grows by one each time a node takes the game, and every commit of the game's writes
--   checks it inside its transaction (row-locked): an owner that lost the game cannot commit.
CREATE TABLE cluster_nodes (
    id          TEXT    PRIMARY KEY,       -- the node's id (name and incarnation)
    tag         BIGINT  NOT NULL,          -- the prefix of its connection ids
    renewed_at  BIGINT  NOT NULL,          -- ms since the Unix epoch (database clock)
    expires_at  BIGINT  NOT NULL           -- ms; the lease ends
);

CREATE TABLE game_owners (
    game_id     TEXT    PRIMARY KEY REFERENCES games (id),
    node        TEXT,                      -- the owner; NULL once released (nobody runs it)
    epoch       BIGINT  NOT NULL,          -- the fencing token: 1, 2, 3, … per game
    released_at BIGINT                     -- when it was released (ms): its clock stood still since
);
CREATE INDEX game_owners_by_node ON game_owners (node);
