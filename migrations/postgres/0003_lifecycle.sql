-- Djambi Online, third migration: bots, clocks and the creator's rights.
-- games.settings: the game's options beyond the ruleset, as JSON (clock, what a timeout does,
--   the bots' move time); NULL for games created before this migration (casual, no bots).
-- games.admin_hash: SHA-256 (hex) of the creator's admin token; NULL for imported games.
-- seats.bot: the level of the bot that plays the seat from the start (chosen at creation, or
--   given by the creator before the game started); NULL for a person. Seats handed to a bot
--   during play (a vote, a timeout) are events of the log, not this column.
ALTER TABLE games ADD COLUMN settings TEXT;
ALTER TABLE games ADD COLUMN admin_hash TEXT;
ALTER TABLE seats ADD COLUMN bot TEXT;

-- The server's last sign of life (one row, written every few seconds and at shutdown): after a
-- restart, running clocks are paused for the time the server was down (charged to nobody).
CREATE TABLE heartbeat (
    id          BIGINT  PRIMARY KEY,       -- always 1
    at          BIGINT  NOT NULL           -- ms since the Unix epoch
);
