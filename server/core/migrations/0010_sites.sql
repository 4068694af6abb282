-- Sites, their public site keys, configuration, Connect AI keys and the configuration
-- proposals of an owner's AI (docs/api/sites.md). Deleting a site cascades to all of
-- these; historical analytics (0011) are kept.
CREATE TABLE sites (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    owner_uid   TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE site_keys (
    id              TEXT PRIMARY KEY,
    site_id         TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    public_key      TEXT NOT NULL UNIQUE,
    environment     TEXT NOT NULL CHECK (environment IN ('production', 'development', 'test')),
    allowed_domains TEXT NOT NULL,
    capabilities    TEXT NOT NULL,
    site_policy     TEXT NOT NULL,
    active          INTEGER NOT NULL DEFAULT 1,
    ttl_days        INTEGER NOT NULL DEFAULT 0,
    expires_at      INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    rotated_at      INTEGER
);
CREATE INDEX site_keys_by_site ON site_keys(site_id);

CREATE TABLE site_configs (
    site_id     TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
    config      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    updated_by  TEXT NOT NULL
);

-- Capabilities of user API keys (updateApiKeyCapabilities); site keys keep theirs in
-- site_keys.capabilities.
CREATE TABLE api_key_capabilities (
    key_id       TEXT PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
    capabilities TEXT NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE TABLE connect_keys (
    id           TEXT PRIMARY KEY,
    site_id      TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    label        TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    created_by   TEXT NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX connect_keys_by_site ON connect_keys(site_id, revoked_at);

CREATE TABLE config_changes (
    id                TEXT PRIMARY KEY,
    site_id           TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    author            TEXT NOT NULL,
    client_request_id TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind IN ('patch', 'journey')),
    title             TEXT NOT NULL,
    description       TEXT NOT NULL,
    patch             TEXT NOT NULL,
    dropped_paths     TEXT NOT NULL,
    base_version      INTEGER NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('pending', 'applied', 'discarded')),
    created_at        INTEGER NOT NULL,
    decided_at        INTEGER,
    decided_by        TEXT,
    decision_note     TEXT,
    applied_version   INTEGER,
    UNIQUE (site_id, author, client_request_id)
);
CREATE INDEX config_changes_by_site ON config_changes(site_id, status, created_at);
