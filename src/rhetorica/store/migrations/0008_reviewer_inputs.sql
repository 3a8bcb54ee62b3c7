-- rhetorica store, schema version 8: what each evaluator read, with its blinding audit (issue 24 §1).
-- Every text a reviewer, judge, SciCore branch or guided-review step is sent is built by one builder
-- (rhetorica.documents.inputs) and recorded here as the unit sends it: the text exactly as sent
-- (blinded, cut to the input limit) and the audit of what was removed from it, and why. A text is
-- kept once however many units read it; unit_inputs says which units read which texts.
CREATE TABLE reviewer_inputs (
    input_hash    TEXT PRIMARY KEY,   -- hash of (text, audit)
    text          TEXT NOT NULL,      -- the text as sent
    removed_json  TEXT NOT NULL,      -- list of {item, location, text, reason}: the blinding audit
    truncated     INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE unit_inputs (
    unit_key    TEXT NOT NULL,   -- the unit that sent it (assessments, extracts or variants unit_key)
    role        TEXT NOT NULL,   -- manuscript | review | reference review | science record | reconstruction | guided feedback | notice
    input_hash  TEXT NOT NULL,   -- reviewer_inputs.input_hash
    PRIMARY KEY (unit_key, role, input_hash)
);
CREATE INDEX unit_inputs_input ON unit_inputs (input_hash);
