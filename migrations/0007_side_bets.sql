-- Side bets. The same SQL runs on SQLite and PostgreSQL.

-- A round's entry in an account's ledger is its hands, its insurance and now its side bets: what the side bets
-- gained (negative: lost), so the check can add an entry up from its parts.
ALTER TABLE ledger ADD COLUMN side_bets BIGINT NOT NULL DEFAULT 0;

-- Each side bet an account made in a settled round: its stake, the hand it paid for (none: lost) and its net.
CREATE TABLE side_bets (
    name_key TEXT NOT NULL REFERENCES accounts (name_key),
    table_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    bet TEXT NOT NULL,
    stake BIGINT NOT NULL CHECK (stake > 0),
    won TEXT,
    net BIGINT NOT NULL CHECK (net >= -stake),
    PRIMARY KEY (table_id, round, seat, bet)
);
CREATE INDEX side_bets_by_player ON side_bets (name_key, table_id, round);
