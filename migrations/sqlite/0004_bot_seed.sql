-- Djambi Online, fourth migration: each game's bots choose from a seed of their own.
-- games.bot_seed: the seed of the bots' choices (a random 64-bit number, stored as BIGINT with
--   the same bits), so two games differ and a restored game goes on exactly as it would have.
--   Secret: never sent to clients (with it a player could foresee the bots' turns). NULL for
--   games created before this migration: their seed is derived from their id.
ALTER TABLE games ADD COLUMN bot_seed BIGINT;
