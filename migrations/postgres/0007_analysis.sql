-- Djambi Online, seventh migration (Postgres): the engine's analysis of finished games.
-- analyses: one row per finished game the engine has analysed (GET /api/games/{id}/analysis),
--   computed once on the bots' threads and never changed: it is written with
--   INSERT … ON CONFLICT DO NOTHING, so when several nodes computed it at once the first one
--   stored stays, and every later request reads it instead of computing it again.
CREATE TABLE analyses (
    game_id      TEXT    PRIMARY KEY REFERENCES games (id),
    movetime_ms  BIGINT  NOT NULL,         -- each search's move time (the analysis's effort)
    body         TEXT    NOT NULL,         -- the analysis as JSON (docs/PROTOCOL.md, "Analysis")
    created_at   BIGINT  NOT NULL          -- when it was stored
);
