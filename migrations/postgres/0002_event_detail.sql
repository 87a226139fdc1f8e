-- Djambi Online, second migration: events that are not a player's turn or answer.
-- `detail` carries what such an event needs besides its kind (for `cancelled`: `expired` or
-- `creator`). Events of the server itself (a game cancelled by expiry) have player `-`.
-- Game status may now also be `cancelled` (called off before it ended).
ALTER TABLE events ADD COLUMN detail TEXT;
