-- The A2W network (docs/api/a2w.md, "Handoffs and workflows", "Trust tiers"; docs/api/
-- v1-tasks.md): a run's parent and hop count in its workflow, the contract it was created
-- through (A2W or the earlier v1 tasks), and the caller's trust tier.
ALTER TABLE a2w_runs ADD COLUMN parent_run_id TEXT;
ALTER TABLE a2w_runs ADD COLUMN hop INTEGER NOT NULL DEFAULT 0;
ALTER TABLE a2w_runs ADD COLUMN contract TEXT NOT NULL DEFAULT 'a2w'
    CHECK (contract IN ('a2w', 'v1'));
ALTER TABLE a2w_runs ADD COLUMN trust TEXT NOT NULL DEFAULT 'anonymous'
    CHECK (trust IN ('anonymous', 'identified', 'verified'));
CREATE INDEX a2w_runs_by_workflow ON a2w_runs(workflow_id, created_at);

-- Web Bot Auth nonces seen inside their signature's window: a second use is a replay.
-- Kept as SHA-256 of the key directory and the nonce, until the signature expires.
CREATE TABLE a2w_signature_nonces (
    nonce_hash TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
);
CREATE INDEX a2w_signature_nonces_by_expiry ON a2w_signature_nonces(expires_at);

-- Delegated sessions (docs/api/a2w.md, "Delegated sessions"): a person who owns or runs
-- the site approves, behind input.links.verify, a scope for a visiting agent: the site,
-- what it may run, a spend cap in credits and an expiry. The rds_ token is kept as
-- SHA-256 only; the console lists and revokes them.
CREATE TABLE a2w_delegations (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    prefix          TEXT NOT NULL,
    site_id         TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    scope           TEXT NOT NULL,
    spend_cap_milli INTEGER NOT NULL CHECK (spend_cap_milli >= 0),
    spent_milli     INTEGER NOT NULL DEFAULT 0,
    approved_by     TEXT NOT NULL,
    run_id          TEXT,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    revoked_at      INTEGER
);
CREATE INDEX a2w_delegations_by_site ON a2w_delegations(site_id, created_at);
-- A run's delegated session, the task it keeps while a person approves one, and the new
-- token (sealed) until the run's caller has read it once.
ALTER TABLE a2w_runs ADD COLUMN delegation_id TEXT;
ALTER TABLE a2w_runs ADD COLUMN pending_task TEXT;
ALTER TABLE a2w_runs ADD COLUMN delegation_sealed TEXT;
