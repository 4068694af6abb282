-- Durable outbound callbacks: one delivery per (event, subscription), every attempt
-- logged. Pending deliveries survive restarts and resume at their due time.
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    request_id      TEXT NOT NULL,
    subscription_id INTEGER,
    key_id          TEXT,
    url             TEXT NOT NULL,
    event           TEXT NOT NULL,
    payload         BLOB NOT NULL,
    config          TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    created_at      INTEGER NOT NULL,
    delivered_at    INTEGER,
    last_status     INTEGER,
    last_error      TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries(created_at);

CREATE TABLE webhook_attempts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id  TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempt      INTEGER NOT NULL,
    at           INTEGER NOT NULL,
    status_code  INTEGER,
    latency_ms   INTEGER,
    response     TEXT,
    error        TEXT
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts(delivery_id, attempt);
