-- Djambi Online, tenth migration (SQLite): circles of friends (issue 47, docs/CIRCLES.md).
-- Never edit once released. The same tables as Postgres's 0011_circles.sql.
-- Times are milliseconds since the Unix epoch; secrets (member keys, invites) are kept only as
-- their SHA-256 in hex, as seat tokens are.

-- A circle: a named group of friends, never listed; only its members read it. No address is
-- kept (the budget of circles per address lives in memory, as every per-address budget).
CREATE TABLE circles (
    id          TEXT    PRIMARY KEY,       -- UUID
    name        TEXT    NOT NULL,          -- normalised (NFC, spaces folded), raw otherwise
    invite_hash TEXT    NOT NULL,          -- SHA-256 of the invite secret (the link's `#` part)
    creator     TEXT    NOT NULL,          -- the member who may rename it and remove members
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL           -- also taken as a lock: joins of one circle queue
);

-- Its members, present and past: a member who left (or was removed) keeps their row, so their
-- games, places and ratings stay as they were; only their key no longer works.
CREATE TABLE circle_members (
    id          TEXT    PRIMARY KEY,       -- UUID, the member's id
    circle_id   TEXT    NOT NULL REFERENCES circles (id),
    name        TEXT    NOT NULL,          -- display name, normalised
    name_key    TEXT    NOT NULL,          -- its confusable skeleton (docs/SECURITY.md)
    key_hash    TEXT    NOT NULL,          -- SHA-256 of the member key
    status      TEXT    NOT NULL,          -- member | left | removed
    joined_at   BIGINT  NOT NULL,
    left_at     BIGINT
);
CREATE INDEX circle_members_by_circle ON circle_members (circle_id, joined_at);
-- Two present members may not look alike (a name already in the circle is refused).
CREATE UNIQUE INDEX circle_members_names ON circle_members (circle_id, name_key)
    WHERE status = 'member';

-- A circle's games: created from its page; a seat a member took names the member.
ALTER TABLE games ADD COLUMN circle_id TEXT;
CREATE INDEX games_by_circle ON games (circle_id, created_at);
ALTER TABLE seats ADD COLUMN member_id TEXT;

-- The places of each finished circle game, computed once from its event log by the rule of
-- docs/CIRCLES.md (stored with INSERT … ON CONFLICT DO NOTHING, so several nodes keep one
-- copy); `djambi-server circles recompute` checks them against the logs. Ratings are not
-- stored: they are a function of these rows in finishing order.
CREATE TABLE circle_places (
    game_id     TEXT    PRIMARY KEY REFERENCES games (id),
    circle_id   TEXT    NOT NULL,
    finished_at BIGINT  NOT NULL,          -- the time of the event that ended the game
    rated       BIGINT  NOT NULL,          -- 1: at least two members were seated
    places      TEXT    NOT NULL           -- JSON [{"seat", "place", "member", "bot", "draw"}]
);
CREATE INDEX circle_places_by_circle ON circle_places (circle_id, finished_at);

-- Members' browsers that want a push when a circle game is created (Web Push, as seats').
CREATE TABLE circle_push (
    circle_id   TEXT    NOT NULL,
    member_id   TEXT    NOT NULL REFERENCES circle_members (id),
    endpoint    TEXT    NOT NULL,
    p256dh      TEXT    NOT NULL,
    auth        TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (member_id, endpoint)
);
CREATE INDEX circle_push_by_circle ON circle_push (circle_id);
