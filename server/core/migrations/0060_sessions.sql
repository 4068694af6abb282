-- Browser sessions (docs/api/sessions.md): one row per session of an API key, its CDP
-- token kept only as a SHA-256 hash, and the key's named profiles (the profile itself is
-- a sealed archive under DATA/profiles/, never in the database).
CREATE TABLE browser_sessions (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    profile TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    end_reason TEXT NOT NULL DEFAULT '',
    cdp_token_hash TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    user_agent TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    idle_timeout_s INTEGER NOT NULL,
    last_activity_at INTEGER NOT NULL,
    ended_at INTEGER
);
CREATE INDEX browser_sessions_by_key ON browser_sessions(key_id, created_at);
CREATE INDEX browser_sessions_by_status ON browser_sessions(status);
CREATE UNIQUE INDEX browser_sessions_by_token ON browser_sessions(cdp_token_hash);

CREATE TABLE browser_profiles (
    key_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    bytes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, name)
);
