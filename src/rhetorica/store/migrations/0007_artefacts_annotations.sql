-- rhetorica store, schema version 7: evaluation artefacts and aspect annotations (issue 15).
-- An evaluation may leave artefacts beside its scores (SciCore's science core and the record it
-- reviewed, ReconstructReview's rebuilt manuscript): one row per (unit, name), JSON values.
CREATE TABLE artefacts (
    unit_key    TEXT NOT NULL,   -- the unit that made it (assessments.unit_key)
    name        TEXT NOT NULL,   -- e.g. science_core, science_record, reconstruction
    value_json  TEXT NOT NULL,
    PRIMARY KEY (unit_key, name)
);

-- The annotation stage (assessment -> annotation): one row per annotated ok assessment, its
-- verified mentions in ``mentions``; dropped mentions are counted, never stored as verified.
CREATE TABLE annotations (
    unit_key        TEXT PRIMARY KEY,
    assessment_key  TEXT NOT NULL,   -- assessments.unit_key
    annotator       TEXT NOT NULL,   -- model id as in the study file
    taxonomy        TEXT NOT NULL,   -- taxonomy version and instruction hash
    status          TEXT NOT NULL,
    reason          TEXT,
    n_mentions      INTEGER NOT NULL DEFAULT 0,
    n_unverified    INTEGER NOT NULL DEFAULT 0,   -- phrase not found in the review
    n_rejected      INTEGER NOT NULL DEFAULT 0,   -- unknown aspect, bad polarity, missing field
    raw_text        TEXT,
    created_at      TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX annotations_assessment ON annotations (assessment_key);

CREATE TABLE mentions (
    unit_key   TEXT NOT NULL,     -- annotations.unit_key
    position   INTEGER NOT NULL,  -- order among the annotation's verified mentions
    aspect     TEXT NOT NULL,
    polarity   TEXT NOT NULL CHECK (polarity IN ('positive', 'negative')),
    phrase     TEXT NOT NULL,     -- the review's own span (whitespace normalised)
    PRIMARY KEY (unit_key, position)
);

-- The extract stage (document -> extract): one science core per (extraction spec, text, replicate),
-- read by the SciCore and ReconstructReview assessments built on it.
CREATE TABLE extracts (
    unit_key     TEXT PRIMARY KEY,
    document_id  TEXT NOT NULL,
    input_hash   TEXT NOT NULL,   -- content hash of the text the core was extracted from
    condition    TEXT NOT NULL,
    rewriter     TEXT NOT NULL,
    extractor    TEXT NOT NULL,   -- model id as in the study file
    replicate    INTEGER NOT NULL,
    status       TEXT NOT NULL,
    reason       TEXT,
    core_json    TEXT,            -- the extraction record: core, checks, status, source hash
    raw_text     TEXT,
    created_at   TEXT NOT NULL DEFAULT (datetime('now'))
);
