-- rhetorica store, schema version 13: retries and circuit-breaker events in the call log.
-- `model_calls.attempt` is the attempt of its call the request belongs to (1: the first; a
-- retry after a transient failure or a 429 is 2, 3, ...; the probes of one attempt share it).
-- `endpoint_events` keeps each pause and resume of an endpoint by its circuit breaker
-- (rhetorica.models.breaker), with the sentence the run printed. Rows written before this
-- version count as first attempts.
ALTER TABLE model_calls ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
CREATE TABLE endpoint_events (
    event_id  INTEGER PRIMARY KEY,
    endpoint  TEXT NOT NULL,
    event     TEXT NOT NULL,
    detail    TEXT NOT NULL,
    at        TEXT NOT NULL DEFAULT (datetime('now'))
);
