-- Rounds to watch again. The same SQL runs on SQLite and PostgreSQL.

-- Each settled round as the table showed it, to watch again at /api/hand/TABLE/ROUND: the table as a spectator saw it
-- before the round (after the one before it), and every news of the round after that, as JSON (nothing in it is
-- secret: it is what every spectator was sent). Kept for the server's --keep-replays-days, then swept.
CREATE TABLE round_replays (
    table_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    replay TEXT NOT NULL,
    settled_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, round)
);
CREATE INDEX round_replays_by_time ON round_replays (settled_ms);
