-- Secret site keys (sk_site_, docs/api/runtime.md, "A site's server"): one per site key,
-- minted by the owner and shown once, kept as SHA-256. A site's server exchanges it for
-- short-lived, single-use bootstrap and context tokens, kept as SHA-256 too (the
-- context a context token carries is sealed).
ALTER TABLE site_keys ADD COLUMN secret_hash TEXT;
ALTER TABLE site_keys ADD COLUMN secret_created_at INTEGER;
CREATE UNIQUE INDEX site_keys_by_secret ON site_keys(secret_hash) WHERE secret_hash IS NOT NULL;

CREATE TABLE runtime_site_tokens (
    token_hash     TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('bootstrap', 'context')),
    site_id        TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    key_id         TEXT NOT NULL,
    host           TEXT,
    sealed_payload TEXT,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER
);
