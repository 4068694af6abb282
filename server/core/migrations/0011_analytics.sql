-- Site analytics, one table per collection the site protocol names. Rows carry the
-- owner's uid and are read only under it. User and account ids are stored as hashed
-- join keys (user_key, account_key) unless the site opts in to personal data. None of
-- these tables references sites(id): deleting a site keeps its history.
CREATE TABLE analytics_sites (
    site_id         TEXT PRIMARY KEY,
    owner_uid       TEXT NOT NULL,
    name            TEXT NOT NULL,
    join_key_salt   TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    site_deleted_at INTEGER
);

CREATE TABLE analytics_daily (
    site_id      TEXT NOT NULL,
    owner_uid    TEXT NOT NULL,
    day          TEXT NOT NULL,
    visits       INTEGER NOT NULL DEFAULT 0,
    interactions INTEGER NOT NULL DEFAULT 0,
    conversions  INTEGER NOT NULL DEFAULT 0,
    reviews      INTEGER NOT NULL DEFAULT 0,
    interviews   INTEGER NOT NULL DEFAULT 0,
    goals        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (site_id, day)
);

CREATE TABLE analytics_profiles (
    id            TEXT PRIMARY KEY,
    site_id       TEXT NOT NULL,
    owner_uid     TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('identity', 'account')),
    join_key      TEXT NOT NULL,
    display_id    TEXT,
    first_seen_at INTEGER NOT NULL,
    last_seen_at  INTEGER NOT NULL,
    visits        INTEGER NOT NULL DEFAULT 0,
    interactions  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (site_id, kind, join_key)
);

CREATE TABLE analytics_visits (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_visits_by_site ON analytics_visits(site_id, occurred_at);

CREATE TABLE analytics_interactions (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL,
    trajectory TEXT
);
CREATE INDEX analytics_interactions_by_site ON analytics_interactions(site_id, occurred_at);

CREATE TABLE analytics_scores (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_scores_by_site ON analytics_scores(site_id, occurred_at);

CREATE TABLE analytics_reviews (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_reviews_by_site ON analytics_reviews(site_id, occurred_at);

CREATE TABLE analytics_interviews (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_interviews_by_site ON analytics_interviews(site_id, occurred_at);

CREATE TABLE analytics_notes (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_notes_by_site ON analytics_notes(site_id, occurred_at);

CREATE TABLE analytics_posts (
    id TEXT PRIMARY KEY, site_id TEXT NOT NULL, owner_uid TEXT NOT NULL,
    occurred_at INTEGER NOT NULL, user_key TEXT, account_key TEXT, data TEXT NOT NULL
);
CREATE INDEX analytics_posts_by_site ON analytics_posts(site_id, occurred_at);

-- Owner settings: deleted with the site.
CREATE TABLE analytics_questions (
    site_id    TEXT PRIMARY KEY,
    owner_uid  TEXT NOT NULL,
    questions  TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE analytics_notification_settings (
    site_id    TEXT PRIMARY KEY,
    owner_uid  TEXT NOT NULL,
    enabled    INTEGER NOT NULL,
    webhooks   TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Backend-only: raw events and anonymous-to-known identity links. No API reads them.
CREATE TABLE analytics_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id     TEXT NOT NULL,
    owner_uid   TEXT NOT NULL,
    collection  TEXT NOT NULL,
    document_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    payload     TEXT NOT NULL
);
CREATE INDEX analytics_events_by_site ON analytics_events(site_id, received_at);

CREATE TABLE analytics_identity_links (
    site_id       TEXT NOT NULL,
    anonymous_key TEXT NOT NULL,
    user_key      TEXT NOT NULL,
    linked_at     INTEGER NOT NULL,
    PRIMARY KEY (site_id, anonymous_key)
);
