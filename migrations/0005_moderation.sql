-- Moderation: who may moderate, what moderators did, what players reported and blocked, and the tables' chat for a
-- set time. The same SQL runs on SQLite and PostgreSQL. Every person is named here by the look of their name
-- (`name_look`: its confusable skeleton, case folded), so that a sanction on a name holds for every name like it.

-- An account's role: a player (everyone), a moderator (mutes, times out, sends from a table, bans players and
-- guests) or an admin (all that, to moderators too). Given by `holecard-server --grant NAME ROLE`.
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'player'
    CHECK (role IN ('player', 'moderator', 'admin'));

-- The address a name was last played from: a guest's while it holds its name, an account's from its last hello.
-- A ban may take it too.
ALTER TABLE name_holds ADD COLUMN address TEXT;

-- What a moderator imposed on a name, and until when (none: for good): a mute (no chat), a timeout (no chat, no
-- seat), a kick (not at that table), a ban (not on the server; `address` too, when asked). Lifted early by a
-- pardon.
CREATE TABLE sanctions (
    id TEXT PRIMARY KEY,
    action TEXT NOT NULL CHECK (action IN ('mute', 'timeout', 'kick', 'ban')),
    look TEXT NOT NULL,
    name TEXT NOT NULL,
    table_id TEXT,
    address TEXT,
    reason TEXT NOT NULL,
    by_key TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    until_ms BIGINT,
    lifted_ms BIGINT
);
CREATE INDEX sanctions_by_look ON sanctions (look);
CREATE INDEX sanctions_by_address ON sanctions (address);

-- Every moderation action, in order: sanctions, pardons, roles given, reports closed.
CREATE TABLE moderation_log (
    id TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    by_key TEXT NOT NULL,
    action TEXT NOT NULL,
    name TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_ms BIGINT,
    table_id TEXT,
    address_too BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX moderation_log_by_time ON moderation_log (at_ms);

-- A player's report of another: why, the table and its last round, and the table's chat before it (kept here, so
-- the report keeps its context after the chat's time is up). Seen by moderators only.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    by_look TEXT NOT NULL,
    by_name TEXT NOT NULL,
    look TEXT NOT NULL,
    name TEXT NOT NULL,
    reason TEXT NOT NULL,
    table_id TEXT,
    round BIGINT,
    context TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    closed_ms BIGINT,
    closed_by TEXT
);
CREATE INDEX reports_by_time ON reports (at_ms);

-- Whom an account has blocked: their chat is not sent to it.
CREATE TABLE blocks (
    by_key TEXT NOT NULL REFERENCES accounts (name_key),
    look TEXT NOT NULL,
    name TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (by_key, look)
);

-- The tables' chat, kept for the server's --keep-chat-days, then swept.
CREATE TABLE chat_lines (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    look TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX chat_lines_by_table ON chat_lines (table_id, at_ms);
CREATE INDEX chat_lines_by_time ON chat_lines (at_ms);
