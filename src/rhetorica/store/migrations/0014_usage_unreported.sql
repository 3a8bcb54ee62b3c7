-- rhetorica store, schema version 14: token counts a provider did not report usably.
-- `model_calls.usage_unreported` names, comma-separated, the token columns of the row whose
-- provider sent no usable count (missing, of the wrong type, negative, not an integer, too large,
-- or a part larger than its whole: rhetorica.models.usage); their 0 means unknown, and the
-- report's usage table says how many calls each sum lacks. '' where every count was reported, and
-- on rows written before this version.
ALTER TABLE model_calls ADD COLUMN usage_unreported TEXT NOT NULL DEFAULT '';
