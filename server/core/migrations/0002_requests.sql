-- Every billed API request is recorded with its outcome and the callback
-- subscriptions it carried, so the callbacks issue can deliver them.
CREATE TABLE api_requests (
    id          TEXT PRIMARY KEY,
    key_id      TEXT REFERENCES api_keys(id),
    endpoint    TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT NOT NULL,
    summary     TEXT
);
CREATE INDEX api_requests_by_time ON api_requests(started_at);

CREATE TABLE webhook_subscriptions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id  TEXT NOT NULL REFERENCES api_requests(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    events      TEXT NOT NULL,
    config      TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX webhook_subscriptions_by_request ON webhook_subscriptions(request_id);
