-- rhetorica store, schema version 4: results of the hidden-instruction scan (issue 17).
-- One row per scanned review input (an original with its source file, or a variant's text),
-- with every finding as JSON; a row with n_findings = 0 records a clean scan. Nothing is removed
-- from any document because of a scan.
CREATE TABLE scans (
    scan_key        TEXT PRIMARY KEY,  -- hash of (scanner version, input content hash, matrix cell)
    document_id     TEXT NOT NULL,
    condition       TEXT NOT NULL,     -- 'original' or the variant's condition
    rewriter        TEXT NOT NULL,     -- 'none' for originals
    content_hash    TEXT NOT NULL,
    scanner_version TEXT NOT NULL,
    n_findings      INTEGER NOT NULL,
    n_flagged       INTEGER NOT NULL,  -- findings at or above medium
    max_severity    TEXT,              -- NULL when there is no finding
    findings_json   TEXT NOT NULL,     -- list of rhetorica.documents.scan.Finding
    notes_json      TEXT NOT NULL,     -- what the scan could not check
    created_at      TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX scans_document ON scans (document_id, condition, rewriter);
