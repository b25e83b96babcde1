-- Money and identity held by the ledger itself, so that servers racing each other (or a player racing themselves)
-- cannot break a rule between a read and a write. The same SQL runs on SQLite and PostgreSQL.

-- Ending every session of an account (logout, a new password) moves its epoch, in the same transaction. A
-- connection welcomed under an older epoch can no longer seat the account or reset it: those statements name the
-- epoch they were welcomed under, in the row they change.
ALTER TABLE accounts ADD COLUMN sessions_epoch BIGINT NOT NULL DEFAULT 0;

-- One account to a seat of a table.
CREATE UNIQUE INDEX accounts_one_per_seat ON accounts (seated_at, seat) WHERE seated_at IS NOT NULL;

-- Every name played under: no two held at once that look alike (look) or are one name in another case (name_key),
-- whoever holds them. An account's name is its own for good (account 1, no expiry); a guest's is held by the
-- server process it plays on (holder), for its session (token_hash), until expires_ms, which that process renews
-- while the guest plays.
CREATE TABLE name_holds (
    look TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    account INTEGER NOT NULL,
    holder TEXT,
    token_hash TEXT,
    expires_ms BIGINT
);

-- Attempts limited across every server on the ledger (a password tried for a name, an address registering): each
-- bucket's theoretical arrival time, as the generic cell rate algorithm keeps it.
CREATE TABLE attempts (
    bucket TEXT PRIMARY KEY,
    tat_ms BIGINT NOT NULL
);

-- An account's line of a settled round that the ledger could not take as the table had it (the ledger did not have
-- the account in that seat, or held other chips): the round is settled for everyone else, the line is kept here, and
-- the check reports it until someone looks. Its net is in the round's disputed_net, so the round still sums to zero.
CREATE TABLE disputes (
    table_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    name_key TEXT NOT NULL,
    net BIGINT NOT NULL,
    table_chips BIGINT NOT NULL,
    ledger_chips BIGINT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, round, name_key)
);
ALTER TABLE rounds ADD COLUMN disputed_net BIGINT NOT NULL DEFAULT 0;

-- Facts about the ledger itself: the version of the names' looks it holds.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
