-- Djambi Online, eighth migration (SQLite): the analyses of the search-based model are dropped.
-- Their chances came from a Paranoid search per player (jagged on quiet turns, a turn's "after"
-- not the next turn's "before"); the analysis is now judged by a fitted value model
-- (docs/ENGINE.md "Analysis", model "maxn1-softmax-1"). A finished game's analysis is computed
-- again, the new way, the next time someone asks for it ("Analyse this game").
DELETE FROM analyses;
