-- rhetorica store, schema version 8: scan results cached by the content of what was scanned (issue 26).
-- One row per (scanner version, scanned content): a document's text by its content hash, a source
-- file or LaTeX project by its path and the hash of its bytes. A re-run, `estimate` or a new matrix
-- cell with the same text reads the cached report instead of scanning again.
CREATE TABLE scan_cache (
    cache_key       TEXT PRIMARY KEY,  -- rhetorica.documents.scan.cache.text_key / source_key
    scanner_version TEXT NOT NULL,
    report_json     TEXT NOT NULL,     -- rhetorica.documents.scan.ScanReport
    created_at      TEXT NOT NULL DEFAULT (datetime('now'))
);
