-- A2W runs of visiting agents (docs/api/a2w.md). A run is anonymous: its access token,
-- and its workflow's, are kept as SHA-256 only. The engine work of a run is an agent
-- trajectory billed to the site's A2W account, an API key whose secret nobody holds.
CREATE TABLE a2w_site_accounts (
    site_id    TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
    key_id     TEXT NOT NULL REFERENCES api_keys(id),
    created_at INTEGER NOT NULL
);

CREATE TABLE a2w_workflows (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    root_run_id TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE a2w_runs (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    workflow_id     TEXT NOT NULL REFERENCES a2w_workflows(id),
    site_id         TEXT NOT NULL,
    url             TEXT NOT NULL,
    host            TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('prompt', 'shortcut', 'playbook')),
    selector        TEXT NOT NULL,
    engagement_kind TEXT,
    execution       TEXT NOT NULL CHECK (execution IN ('cloud', 'browser')),
    status          TEXT NOT NULL CHECK (status IN ('pending', 'waiting_browser', 'running',
                        'input_required', 'completed', 'failed', 'cancelled', 'expired')),
    request         TEXT NOT NULL,
    agent           TEXT NOT NULL,
    trajectory_id   TEXT,
    input           TEXT,
    -- authInput as shown ({status, kind, prompt, emailMasked}) and the provided value,
    -- sealed, until the run uses it once (then NULL).
    auth_input      TEXT,
    auth_sealed     TEXT,
    result          TEXT,
    error           TEXT,
    receipt_hash    TEXT NOT NULL,
    client_address  TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    expires_at      INTEGER
);
CREATE INDEX a2w_runs_by_site ON a2w_runs(site_id, created_at);
CREATE INDEX a2w_runs_by_status ON a2w_runs(status, expires_at);

-- Every event of a run, in order: streams resume from Last-Event-ID (the seq).
CREATE TABLE a2w_events (
    run_id TEXT NOT NULL REFERENCES a2w_runs(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    type   TEXT NOT NULL,
    at     INTEGER NOT NULL,
    data   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Idempotency-Key of create calls: the same key and body give the same run, with the
-- same access tokens (kept sealed, for a day: a2w.idempotencyHours).
CREATE TABLE a2w_idempotency (
    key_hash      TEXT PRIMARY KEY,
    body_hash     TEXT NOT NULL,
    run_id        TEXT NOT NULL,
    tokens_sealed TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
