-- More than one server on one ledger. The seat an account sits in at `seated_at`, so a server that stopped gives it
-- back when the account returns. The lobby of every server: each table's listing as JSON, the path its server's
-- WebSocket is reached at (a proxy routes it there) and when its server last said it was open.
ALTER TABLE accounts ADD COLUMN seat INTEGER;
CREATE TABLE lobby (
    table_id TEXT PRIMARY KEY,
    listing TEXT NOT NULL,
    route TEXT NOT NULL,
    seen_ms BIGINT NOT NULL
);
