-- Devices (docs/api/devices.md): a caller's own browser, paired through the extension.
-- The device token and the pairing code are kept only as SHA-256 hashes.
CREATE TABLE devices (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    token_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER,
    revoked_at INTEGER
);
CREATE UNIQUE INDEX devices_by_token ON devices(token_hash);
CREATE INDEX devices_by_key ON devices(key_id);

CREATE TABLE device_pairings (
    code_hash TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

-- Keys the owner let run execute_javascript on their devices (opt-in).
CREATE TABLE device_script_grants (
    key_id TEXT PRIMARY KEY,
    granted_at INTEGER NOT NULL
);
