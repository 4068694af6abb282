-- Core tables: owner and minted API keys, their credit ledger, stored settings.
CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    label         TEXT NOT NULL,
    prefix        TEXT NOT NULL,
    key_hash      TEXT NOT NULL UNIQUE,
    role          TEXT NOT NULL CHECK (role IN ('owner', 'user')),
    balance_milli INTEGER,
    created_at    INTEGER NOT NULL,
    last_used_at  INTEGER,
    revoked_at    INTEGER
);

CREATE TABLE credit_ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id        TEXT NOT NULL REFERENCES api_keys(id),
    at            INTEGER NOT NULL,
    request_id    TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    pages         INTEGER NOT NULL DEFAULT 0,
    browser_ms    INTEGER NOT NULL DEFAULT 0,
    tokens        INTEGER NOT NULL DEFAULT 0,
    credits_milli INTEGER NOT NULL,
    balance_after_milli INTEGER
);
CREATE INDEX credit_ledger_by_key ON credit_ledger(key_id, at);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
