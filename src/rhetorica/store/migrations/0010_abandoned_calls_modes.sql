-- rhetorica store, schema version 8: interrupted calls, structured-output probes and modes (issue 28).
-- input_usd: the cost of a call's input tokens (the prompt, approximately counted), which the
-- provider certainly incurred once the request was sent. A call left 'in_flight' by a process that
-- no longer holds the run lock becomes 'abandoned' on the next run: its cost_usd is then its
-- input_usd (its output is unknown), its reserved_usd stays as it was. `rhetorica calls release`
-- sets abandoned calls to 'released' with cost_usd 0 (the provider's bill showed no charge).
-- probe: the request was sent while the endpoint's structured-output mode was being negotiated.
ALTER TABLE model_calls ADD COLUMN input_usd REAL NOT NULL DEFAULT 0;
ALTER TABLE model_calls ADD COLUMN probe INTEGER NOT NULL DEFAULT 0;

-- The structured-output mode each endpoint accepted (openai-compatible negotiation), so that a
-- later process starts from it instead of probing again.
CREATE TABLE structured_modes (
    endpoint     TEXT PRIMARY KEY,   -- a hash of the connection key (provider and URL), never a URL
    mode         TEXT NOT NULL,      -- json_schema | json_object | prompt
    recorded_at  TEXT NOT NULL DEFAULT (datetime('now'))
);
