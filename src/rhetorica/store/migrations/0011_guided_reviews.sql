-- rhetorica store, schema version 11: the guided workflow's review is its own unit (issue 25).
-- ``guided`` (STUDIES.md §2) has the rewriting model review its compiled ``joint`` variant, then
-- rewrites that variant again shown the review. The review was part of the guided rewrite unit
-- (an ``intermediate_review`` artefact of its variant); it is now a unit of the ``guided-review``
-- stage with one row here, which the guided rewrite unit consumes (an edge of the unit graph).
CREATE TABLE guided_reviews (
    unit_key         TEXT PRIMARY KEY,
    variant_key      TEXT NOT NULL,   -- the reviewed variant (variants.unit_key of the joint rewrite)
    document_id      TEXT NOT NULL,
    condition        TEXT NOT NULL,   -- the workflow condition the review guides (guided)
    rewriter         TEXT NOT NULL,   -- the rewriter configuration whose model reviewed
    protocol         TEXT NOT NULL,   -- the review protocol (standard)
    status           TEXT NOT NULL,
    reason           TEXT,
    input_truncated  INTEGER NOT NULL DEFAULT 0,
    record_json      TEXT NOT NULL,   -- protocol, status, reason, scores, payload, input_truncated, raw_text
    created_at       TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX guided_reviews_variant ON guided_reviews (variant_key);
