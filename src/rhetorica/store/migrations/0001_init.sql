-- rhetorica store, schema version 1.
CREATE TABLE documents (
    document_id   TEXT PRIMARY KEY,
    content_hash  TEXT NOT NULL,
    kind          TEXT NOT NULL,
    title         TEXT NOT NULL,
    human_score   REAL,
    document_json TEXT NOT NULL,
    created_at    TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE variants (
    unit_key       TEXT PRIMARY KEY,
    document_id    TEXT NOT NULL,
    condition      TEXT NOT NULL,
    rewriter       TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    original_hash  TEXT NOT NULL,
    content_hash   TEXT,
    status         TEXT NOT NULL,
    reason         TEXT,
    document_json  TEXT,
    created_at     TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX variants_document ON variants (document_id, condition, rewriter);

CREATE TABLE checks (
    unit_key     TEXT PRIMARY KEY,
    variant_key  TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    condition    TEXT NOT NULL,
    rewriter     TEXT NOT NULL,
    passed       INTEGER NOT NULL,
    reasons_json TEXT NOT NULL,
    result_json  TEXT NOT NULL,
    created_at   TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE assessments (
    unit_key      TEXT PRIMARY KEY,
    document_id   TEXT NOT NULL,
    variant_key   TEXT,
    input_hash    TEXT NOT NULL,
    condition     TEXT NOT NULL,
    rewriter      TEXT NOT NULL,
    reviewer      TEXT NOT NULL,
    model         TEXT NOT NULL,
    protocol      TEXT NOT NULL,
    replicate     INTEGER NOT NULL,
    status        TEXT NOT NULL,
    reason        TEXT,
    overall       REAL,
    soundness     REAL,
    significance  REAL,
    evidence      REAL,
    clarity       REAL,
    confidence    REAL,
    input_truncated INTEGER NOT NULL DEFAULT 0,
    review_json   TEXT,
    raw_text      TEXT,
    created_at    TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX assessments_document ON assessments (document_id, reviewer, condition);

CREATE TABLE model_calls (
    call_id           INTEGER PRIMARY KEY AUTOINCREMENT,
    unit_key          TEXT,
    cache_key         TEXT NOT NULL,
    provider          TEXT NOT NULL,
    model             TEXT NOT NULL,
    status            TEXT NOT NULL,
    finish_reason     TEXT,
    error             TEXT,
    input_tokens      INTEGER NOT NULL DEFAULT 0,
    output_tokens     INTEGER NOT NULL DEFAULT 0,
    cached_tokens     INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens  INTEGER NOT NULL DEFAULT 0,
    cost_usd          REAL NOT NULL DEFAULT 0,
    latency_s         REAL NOT NULL DEFAULT 0,
    cache_hit         INTEGER NOT NULL DEFAULT 0,
    params_json       TEXT NOT NULL,
    created_at        TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX model_calls_unit ON model_calls (unit_key);

CREATE TABLE response_cache (
    cache_key   TEXT PRIMARY KEY,
    provider    TEXT NOT NULL,
    model       TEXT NOT NULL,
    output_json TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE runs (
    run_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    study_name   TEXT NOT NULL,
    spec_hash    TEXT NOT NULL,
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    units_run    INTEGER NOT NULL DEFAULT 0,
    model_calls  INTEGER NOT NULL DEFAULT 0,
    wall_time_s  REAL
);

-- Problems that are not a unit's result: unreadable documents, unknown providers, budget stops.
CREATE TABLE problems (
    problem_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER,
    stage       TEXT NOT NULL,
    item        TEXT NOT NULL,
    status      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (datetime('now'))
);
