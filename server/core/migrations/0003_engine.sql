-- The agent engine: trajectories, their phases and steps, and stored objects
-- (uploads, large responses, generated files) served through signed URLs.
CREATE TABLE trajectories (
    id            TEXT PRIMARY KEY,
    key_id        TEXT REFERENCES api_keys(id),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    status        TEXT NOT NULL,
    phase         INTEGER NOT NULL,
    task          TEXT NOT NULL,
    planner       TEXT NOT NULL,
    credits_milli INTEGER NOT NULL DEFAULT 0,
    tools_used    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX trajectories_by_key ON trajectories(key_id, updated_at);
CREATE INDEX trajectories_by_status ON trajectories(status, updated_at);

CREATE TABLE phases (
    trajectory_id TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    phase         INTEGER NOT NULL,
    request_id    TEXT NOT NULL,
    status        TEXT NOT NULL,
    request       TEXT NOT NULL,
    response      TEXT,
    state         TEXT,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    credits_milli INTEGER NOT NULL DEFAULT 0,
    error         TEXT,
    PRIMARY KEY (trajectory_id, phase)
);

CREATE TABLE steps (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    trajectory_id TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    phase         INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    tool_name     TEXT NOT NULL,
    args          TEXT NOT NULL,
    status        TEXT NOT NULL,
    started_at    INTEGER NOT NULL,
    duration_ms   INTEGER,
    credits_milli INTEGER NOT NULL DEFAULT 0,
    thought       TEXT,
    output        TEXT,
    has_output    INTEGER NOT NULL DEFAULT 0,
    has_sheets    INTEGER NOT NULL DEFAULT 0,
    has_generated_content INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX steps_by_trajectory ON steps(trajectory_id, phase, seq);

CREATE TABLE stored_objects (
    id           TEXT PRIMARY KEY,
    key_id       TEXT,
    kind         TEXT NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         INTEGER NOT NULL,
    data         BLOB NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER
);
CREATE INDEX stored_objects_by_expiry ON stored_objects(expires_at);
