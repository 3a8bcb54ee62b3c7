-- rhetorica store, schema version 2: provider batch jobs (rhetorica.models.batch).
-- A batch is submitted by one process and collected by any later one; its results go into the
-- same response cache and call log as live calls.
CREATE TABLE batches (
    batch_id      TEXT PRIMARY KEY,  -- the provider's id (OpenAI batch id, Anthropic message batch id, Gemini batch name)
    provider      TEXT NOT NULL,
    model_id      TEXT NOT NULL,     -- provider/model as in the study file
    options_json  TEXT NOT NULL,     -- provider options to rebuild the connection (never a key)
    state         TEXT NOT NULL,     -- submitted | ended | collected | failed
    detail        TEXT,              -- the provider's last status text
    requests      INTEGER NOT NULL,
    submitted_at  TEXT NOT NULL DEFAULT (datetime('now')),
    collected_at  TEXT
);

CREATE TABLE batch_requests (
    batch_id     TEXT NOT NULL REFERENCES batches (batch_id),
    cache_key    TEXT NOT NULL,      -- the response-cache key: the custom id sent to the provider
    unit_key     TEXT,
    request_json TEXT NOT NULL,      -- messages, config and replicate of the call
    status       TEXT,               -- NULL until collected, then the output status
    PRIMARY KEY (batch_id, cache_key)
);
CREATE INDEX batch_requests_key ON batch_requests (cache_key);
