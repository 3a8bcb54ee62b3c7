-- rhetorica store, schema version 5: the current plan of the study.
-- Each run records, stage by stage, the unit keys of the study as it is declared now (before the
-- stage's units run). Stored units whose key is not in their stage's current plan are superseded:
-- they stay in the store, are listed as superseded and are never analysed. A stage without a row
-- in `plans` (a store written before version 5) has no recorded plan: all its units are current.
CREATE TABLE plans (
    stage        TEXT PRIMARY KEY,   -- rewrite | review (a check is current when its variant is)
    run_id       INTEGER,
    recorded_at  TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE plan_units (
    stage     TEXT NOT NULL,
    unit_key  TEXT NOT NULL,
    PRIMARY KEY (stage, unit_key)
);
