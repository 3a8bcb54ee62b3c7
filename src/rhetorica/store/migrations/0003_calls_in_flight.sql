-- rhetorica store, schema version 3: model calls are logged when they are sent.
-- A row starts with status 'in_flight', its worst-case cost in reserved_usd and, until the call
-- returns, also in cost_usd (so every sum of cost_usd counts calls a killed run left unfinished);
-- when the call returns, the row takes the call's outcome and actual cost and finished_at is set.
-- Rows written before this version are finished calls (finished_at stays NULL for them).
ALTER TABLE model_calls ADD COLUMN reserved_usd REAL NOT NULL DEFAULT 0;
ALTER TABLE model_calls ADD COLUMN finished_at TEXT;
CREATE INDEX model_calls_status ON model_calls (status);
