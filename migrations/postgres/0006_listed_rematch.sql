-- Djambi Online, sixth migration: private games stay unlisted; a finished game points to its rematch.
-- games.listed: 1 when `GET /api/games` lists the game; an invite-only game is unlisted unless
--   its creator asks (it is watched through its link, and a browser holding one of its tokens
--   still finds it with `?ids=`). Games stored before this migration keep their listing only
--   if they were open: a private game was never meant to be shown to everyone.
ALTER TABLE games ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
UPDATE games SET listed = open;
CREATE INDEX games_listed ON games (listed, status, updated_at);
-- games.rematch: after the game, the rematch its people were offered, as JSON
--   {"game": UUID, "by": P, "seats": {old seat: new seat}}; NULL until someone asks.
ALTER TABLE games ADD COLUMN rematch TEXT;
