-- rhetorica store, schema version 12: the stage that made each variant.
-- Rewrites, worst-case searches (`attack`), workflow rewrites of a variant (`rewrite-<n>`) and
-- guided rewrites (`guided-rewrite`) all store their results in `variants`; `stage` is the name of
-- the unit graph's stage whose unit the row is (rhetorica.study.stages.RewriteStage.save writes it),
-- so the report's failures and the study flow count each under its own stage. Rows written
-- before this version were all counted as `rewrite`, and keep that.
ALTER TABLE variants ADD COLUMN stage TEXT NOT NULL DEFAULT 'rewrite';
