-- The browser runtime of embedded sites (docs/api/runtime.md): a visitor's session on a
-- site, opened with the site's public key; its tokens (SHA-256 only); the runs it
-- starts, one active at a time; its projection events (epoch, seq); the commands
-- answered (clientEventId makes a retry idempotent); its tabs; its compacted
-- checkpoint; and the diagnostics its SDK sends.
CREATE TABLE runtime_sessions (
    id              TEXT PRIMARY KEY,
    site_id         TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    key_id          TEXT NOT NULL,
    host            TEXT NOT NULL,
    url             TEXT,
    epoch           INTEGER NOT NULL DEFAULT 1,
    seq             INTEGER NOT NULL DEFAULT 0,
    active_run_id   TEXT,
    context         TEXT,
    client_address  TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    ended_at        INTEGER
);
CREATE INDEX runtime_sessions_by_site ON runtime_sessions(site_id, updated_at);

CREATE TABLE runtime_tokens (
    token_hash  TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('session', 'stream')),
    expires_at  INTEGER NOT NULL
);
CREATE INDEX runtime_tokens_by_session ON runtime_tokens(session_id);

CREATE TABLE runtime_runs (
    id                  TEXT PRIMARY KEY,
    session_id          TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    status              TEXT NOT NULL CHECK (status IN ('queued', 'running', 'awaiting_user',
                            'cancel_requested', 'cancelled', 'completed', 'failed')),
    mode                TEXT NOT NULL CHECK (mode IN ('act', 'planner')),
    requested_mode      TEXT,
    message             TEXT NOT NULL,
    routing             TEXT,
    task_boundary_id    TEXT,
    continuation_reason TEXT,
    a2w_run_id          TEXT,
    result              TEXT,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    ended_at            INTEGER
);
CREATE INDEX runtime_runs_by_session ON runtime_runs(session_id, created_at);

CREATE TABLE runtime_events (
    session_id  TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    type        TEXT NOT NULL,
    run_id      TEXT,
    data        TEXT,
    at          INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
);

CREATE TABLE runtime_commands (
    session_id      TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    client_event_id TEXT NOT NULL,
    status          INTEGER NOT NULL,
    body            TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (session_id, client_event_id)
);

CREATE TABLE runtime_tabs (
    session_id      TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    logical_tab_id  TEXT NOT NULL,
    parent_tab_id   TEXT,
    scope           TEXT NOT NULL CHECK (scope IN ('in_scope', 'external')),
    status          TEXT NOT NULL CHECK (status IN ('open', 'blocked', 'scraped', 'acted',
                        'closed')),
    url             TEXT,
    reason          TEXT,
    updated_at      INTEGER NOT NULL,
    PRIMARY KEY (session_id, logical_tab_id)
);

CREATE TABLE runtime_snapshots (
    session_id  TEXT PRIMARY KEY REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    payload     TEXT,
    object_id   TEXT,
    bytes       INTEGER NOT NULL,
    visitor_id  TEXT,
    updated_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

CREATE TABLE runtime_telemetry (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id  TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    run_id      TEXT,
    flush_reason TEXT,
    page_url    TEXT,
    sdk_version TEXT,
    events      TEXT NOT NULL,
    dropped     INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);

-- visitor.contextToken values exchanged: SHA-256 only, so a token is exchanged once.
CREATE TABLE runtime_context_tokens (
    token_hash   TEXT PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
    exchanged_at INTEGER NOT NULL
);
