-- The browser bridge's library: saved tools (subroutines and JavaScript tools, run as
-- user_<name>) and trigger URLs. Both belong to an API key.
CREATE TABLE saved_tools (
    id          TEXT PRIMARY KEY,
    key_id      TEXT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('subroutine', 'javascript')),
    description TEXT NOT NULL DEFAULT '',
    parameters  TEXT NOT NULL,  -- JSON Schema (type object) of the parameters
    steps       TEXT,           -- subroutine: [{tool, args}] with {{name}} placeholders
    code        TEXT,           -- javascript: the body of function(params)
    url         TEXT,           -- javascript: the page it runs on (a parameter may override)
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (key_id, name)
);

CREATE TABLE triggers (
    id            TEXT PRIMARY KEY,   -- the unguessable part of the trigger URL
    key_id        TEXT NOT NULL,
    label         TEXT NOT NULL DEFAULT '',
    target_kind   TEXT NOT NULL CHECK (target_kind IN ('tool', 'run', 'prompt')),
    target        TEXT NOT NULL,      -- tool name, trajectory id, or the prompt
    options       TEXT NOT NULL,      -- JSON: urls, schema … for prompts
    created_at    INTEGER NOT NULL,
    revoked_at    INTEGER,
    last_fired_at INTEGER,
    fire_count    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX triggers_by_key ON triggers(key_id, created_at);
