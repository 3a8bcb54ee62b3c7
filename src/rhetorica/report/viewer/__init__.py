"""A local, read-only web viewer over a run's store (``rhetorica view RUN_DIR``): the headline
paired comparisons, each paper's original and rewrites side by side with a word-level diff, their
validation and scan results, and every review with the model call behind it."""
