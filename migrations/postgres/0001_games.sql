-- Djambi Online, first schema (Postgres). Never edit a released migration: add a new file.
-- Times are milliseconds since the Unix epoch (UTC); players and armies are the letters r b y g;
-- flags are 0 or 1 (one type for both databases, which sqlx's Any driver reads alike).

-- One row per game. The columns after `open` are a summary kept current by every commit, so
-- the lobby lists games without replaying them; the event log below is the truth.
CREATE TABLE games (
    id          TEXT    PRIMARY KEY,       -- UUID
    players     BIGINT  NOT NULL,          -- 3 or 4
    hostage     TEXT,                      -- the hostage army of a 3-player game
    rules       TEXT    NOT NULL,          -- the ruleset, as JSON (NOTATION §4 "rules")
    start_dpn   TEXT    NOT NULL,          -- the start position (DPN)
    open        BIGINT  NOT NULL,          -- 1: free seats claimable without an invite
    status      TEXT    NOT NULL,          -- open | live | finished
    v           BIGINT  NOT NULL,          -- version of the last event (0: none yet)
    dpn         TEXT    NOT NULL,          -- the current position
    to_move     TEXT,                      -- null once the game is over
    turn        BIGINT  NOT NULL,          -- the number of the next turn
    result      TEXT,                      -- JSON {"winner": P} or {"draw": [P…]}, once over
    ranking     TEXT    NOT NULL,          -- JSON ranking (R9.7), best first
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX games_by_status ON games (status, updated_at);

-- The seats of a game. A seat is controlled by whoever holds its token; only the token's
-- SHA-256 is kept, so a leaked database does not leak seats.
CREATE TABLE seats (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    player      TEXT    NOT NULL,
    name        TEXT,                      -- display name (a preset one until claimed)
    token_hash  TEXT    NOT NULL,          -- SHA-256 of the seat token, hex
    claimed     BIGINT  NOT NULL,          -- 1: claimed
    PRIMARY KEY (game_id, player)
);

-- The append-only event log: each game's events in version order. Replaying it from the
-- game's start position rebuilds the game (on restart, or to resend missed events).
CREATE TABLE events (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    v           BIGINT  NOT NULL,          -- 1, 2, 3, … within the game
    kind        TEXT    NOT NULL,          -- turn | resign | draw_offered | draw_accepted
                                           -- | draw_declined | draw_agreed
    player      TEXT    NOT NULL,          -- who acted (for an automatic pass: who passed)
    turn_text   TEXT,                      -- the canonical turn, for kind = turn
    ack         BIGINT,                    -- the client's ack id of the command, if any:
                                           -- a resent command is applied at most once
    at          BIGINT  NOT NULL,
    PRIMARY KEY (game_id, v)
);

-- Table talk: public chat (to_player null) and whispers between two players.
CREATE TABLE chat (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    id          BIGINT  NOT NULL,          -- 1, 2, 3, … within the game
    v           BIGINT  NOT NULL,          -- the game's version when it was said
    from_player TEXT,                      -- null for a spectator
    name        TEXT    NOT NULL,          -- the author's display name
    to_player   TEXT,                      -- a whisper's recipient
    text        TEXT    NOT NULL,          -- raw text; clients escape it
    ack         BIGINT,                    -- the author's ack id (players only)
    at          BIGINT  NOT NULL,
    PRIMARY KEY (game_id, id)
);
