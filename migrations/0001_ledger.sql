-- Holecard's ledger: accounts and the chips they hold, their sessions, the tables' houses, every round a table
-- settled, every chip an account was given or won or lost, and every hand an account played. Money is in cents.
-- The same SQL runs on SQLite and PostgreSQL.

-- A person with a password. `chips` is their bankroll; while `seated_at` names a table, those chips are in front of
-- them there and change only when a round at that table settles.
CREATE TABLE accounts (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    chips BIGINT NOT NULL,
    highscore BIGINT NOT NULL,
    seated_at TEXT,
    last_reset_ms BIGINT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX accounts_by_highscore ON accounts (highscore);

-- A logged-in session: the SHA-256 of its token (the token itself is never stored).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    name_key TEXT NOT NULL REFERENCES accounts (name_key),
    expires_ms BIGINT NOT NULL
);

-- A table's house: what it opened with, what it holds now, and the last round it settled.
CREATE TABLE houses (
    table_id TEXT PRIMARY KEY,
    house_start BIGINT NOT NULL,
    house_chips BIGINT NOT NULL,
    last_round BIGINT NOT NULL
);

-- A settled round. Everyone's nets sum to zero: accounts + guests + companions + house.
CREATE TABLE rounds (
    table_id TEXT NOT NULL REFERENCES houses (table_id),
    round BIGINT NOT NULL,
    accounts_net BIGINT NOT NULL,
    guests_net BIGINT NOT NULL,
    companions_net BIGINT NOT NULL,
    house_net BIGINT NOT NULL,
    dealer TEXT NOT NULL,
    settled_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, round)
);

-- A round dealt and not yet settled. Rows left here when the server stopped are rounds whose bets were never taken
-- from the accounts: the restart reports them as refunded and clears them.
CREATE TABLE open_rounds (
    table_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    started_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, round)
);

-- Every change to an account's chips: its starting stake, each round it played (hands and insurance), each reset.
-- An account's chips are the sum of its entries.
CREATE TABLE ledger (
    name_key TEXT NOT NULL REFERENCES accounts (name_key),
    entry BIGINT NOT NULL,
    kind TEXT NOT NULL,
    table_id TEXT,
    round BIGINT,
    amount BIGINT NOT NULL,
    insurance BIGINT NOT NULL,
    chips_after BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (name_key, entry)
);
CREATE UNIQUE INDEX ledger_once_a_round ON ledger (table_id, round, name_key);

-- Every hand an account played.
CREATE TABLE hands (
    name_key TEXT NOT NULL REFERENCES accounts (name_key),
    table_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    rules TEXT NOT NULL,
    cards TEXT NOT NULL,
    decisions TEXT NOT NULL,
    dealer TEXT NOT NULL,
    outcome TEXT NOT NULL,
    wager BIGINT NOT NULL,
    net BIGINT NOT NULL,
    bankroll_after BIGINT NOT NULL,
    played_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, round, seat, hand)
);
CREATE INDEX hands_by_player ON hands (name_key, played_ms);
