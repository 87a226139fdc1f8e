-- Djambi Online, seventh migration (SQLite): Web Push (issue 23). Never edit once released.

-- The browsers subscribed to each seat's notifications: a browser's PushSubscription (the
-- push service's endpoint and the browser's keys, needed to encrypt a message to it) and the
-- language it wants them in. Nothing else: no token, no address. At most a few per seat (the
-- server keeps the newest); deleted with the game, or when the push service says the
-- subscription is gone (404, 410).
CREATE TABLE push_subscriptions (
    game_id     TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT    NOT NULL,          -- r b y g
    endpoint    TEXT    NOT NULL,          -- https URL of the browser's push service
    p256dh      TEXT    NOT NULL,          -- the browser's P-256 public key, base64url
    auth        TEXT    NOT NULL,          -- the browser's authentication secret, base64url
    lang        TEXT    NOT NULL,          -- en | fr | it
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, player, endpoint)
);

-- The server's VAPID key pair (RFC 8292), made at first start: one row, the private key
-- (base64url, raw P-256 scalar). Unless --push-vapid-file names a file to keep it in instead.
CREATE TABLE push_vapid (
    id          BIGINT  PRIMARY KEY,       -- always 1
    private_key TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
