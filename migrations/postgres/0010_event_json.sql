-- Djambi Online, tenth migration (Postgres): an event's `detail` is the JSON object of its fields.
-- The server now reads and writes every event through one type, the table's `EventKind`, whose
-- serde form is also what the socket sends (docs/SERVER.md "Adding an event"): the columns
-- `kind`, `player` and `turn_text` keep what the queries read, and `detail` holds the other
-- fields as JSON (`{"reason":"creator"}`), or nothing when the columns say it all. The details
-- written before, in a hand-kept text form per kind, are rewritten here into that JSON; rows
-- already in JSON are left alone. Nothing else changes.

UPDATE events SET detail = '{"reason":"' || detail || '"}'
  WHERE kind = 'cancelled' AND detail NOT LIKE '{%';

UPDATE events SET detail = '{"level":"' || split_part(detail, ';', 1)
      || '","reason":"' || split_part(detail, ';', 2) || '"}'
  WHERE kind = 'seat_to_bot' AND detail NOT LIKE '{%';

UPDATE events SET detail = CASE detail WHEN 'yes' THEN '{"yes":true}' ELSE '{"yes":false}' END
  WHERE kind IN ('vote_cast', 'takeback_answered') AND detail NOT LIKE '{%';

UPDATE events SET detail = CASE detail WHEN 'passed' THEN '{"passed":true}' ELSE '{"passed":false}' END
  WHERE kind = 'vote_closed' AND detail NOT LIKE '{%';

UPDATE events SET detail = '{"from":' || split_part(detail, ';', 1)
      || ',"until":' || split_part(detail, ';', 2) || '}'
  WHERE kind = 'paused' AND detail NOT LIKE '{%';

-- `excused` letters (`gy`) become a list (`["g","y"]`); none is no detail at all.
UPDATE events SET detail = NULL WHERE kind = 'draw_agreed' AND detail = '';
UPDATE events SET detail = '{"excused":["' || array_to_string(regexp_split_to_array(detail, ''), '","') || '"]}'
  WHERE kind = 'draw_agreed' AND detail NOT LIKE '{%';

-- `g;bot:hard;rb` or `g;resign;rb`: the target, the action (a bot's level after `bot:`), the
-- voters' letters.
UPDATE events SET detail = '{"target":"' || split_part(detail, ';', 1) || '",'
      || CASE WHEN split_part(detail, ';', 2) LIKE 'bot:%'
           THEN '"action":"bot","level":"' || substr(split_part(detail, ';', 2), 5) || '"'
           ELSE '"action":"resign"' END
      || ',"voters":["' || array_to_string(regexp_split_to_array(split_part(detail, ';', 3), ''), '","') || '"]}'
  WHERE kind = 'vote_opened' AND detail NOT LIKE '{%';
