-- rhetorica store, schema version 6: scores as data (issue 12, "Forms and metrics as data").
-- An assessment records the form it was made on (name@version, rhetorica.forms) and its scores
-- live in a long table, one row per (assessment, metric), so any declared form fits: the 000
-- review form, the ICLR 2026 form, a judge's metrics, an external system's own form.
-- The six fixed score columns of version 1 are copied into the long table and then dropped
-- (SQLite >= 3.35 drops a column in place); nothing reads them any more.
ALTER TABLE assessments ADD COLUMN form TEXT;

CREATE TABLE scores (
    unit_key  TEXT NOT NULL,   -- assessments.unit_key
    metric    TEXT NOT NULL,   -- a metric of the assessment's form
    value     REAL NOT NULL,   -- validated against the form: never clipped, never imputed
    PRIMARY KEY (unit_key, metric)
);
CREATE INDEX scores_metric ON scores (metric, unit_key);

-- Backfill: the forms the stored rows were made on (control reviewers store model 'control';
-- the Bare protocol asked for the overall-only form; every other protocol for the full form;
-- rows imported from another tool's files, protocol 'external', declare no form: NULL).
UPDATE assessments SET form = CASE
    WHEN protocol = 'external' THEN NULL
    WHEN model = 'control' THEN 'control-000@1'
    WHEN protocol = 'bare' THEN 'review-000-overall@1'
    ELSE 'review-000@1' END;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'overall', overall FROM assessments WHERE overall IS NOT NULL;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'soundness', soundness FROM assessments WHERE soundness IS NOT NULL;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'significance', significance FROM assessments WHERE significance IS NOT NULL;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'evidence', evidence FROM assessments WHERE evidence IS NOT NULL;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'clarity', clarity FROM assessments WHERE clarity IS NOT NULL;
INSERT INTO scores (unit_key, metric, value) SELECT unit_key, 'confidence', confidence FROM assessments WHERE confidence IS NOT NULL;

ALTER TABLE assessments DROP COLUMN overall;
ALTER TABLE assessments DROP COLUMN soundness;
ALTER TABLE assessments DROP COLUMN significance;
ALTER TABLE assessments DROP COLUMN evidence;
ALTER TABLE assessments DROP COLUMN clarity;
ALTER TABLE assessments DROP COLUMN confidence;
