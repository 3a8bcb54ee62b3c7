"""rhetorica.validation: does a rewrite keep the science and move the style?

Content integrity (semantic similarity, TF-IDF, protected spans, length, context limit) and the
intended linguistic shift (MTLD, Advanced Guiraud, Gunning Fog, hedges and boosters per 1,000
words), per variant and summarised per condition. Heavy libraries (torch, sentence-transformers,
scikit-learn, pandas) are imported only when a function needs them.
"""

from rhetorica.validation.embeddings import (
    DEFAULT_MODEL,
    Embedder,
    EmbeddingCache,
    SentenceTransformerEmbedder,
    load_embedder,
)
from rhetorica.validation.integrity import (
    passage_similarities,
    semantic_similarity,
    tfidf_cosine,
    tfidf_cosine_tokens,
)
from rhetorica.validation.lexical import advanced_guiraud, mtld
from rhetorica.validation.metadiscourse import (
    Lexicon,
    MarkerCounts,
    Match,
    find_markers,
    load_metadiscourse_lexicon,
    marker_counts,
)
from rhetorica.validation.readability import count_syllables, gunning_fog
from rhetorica.validation.spans import SpanReport, compare_spans, extract_spans
from rhetorica.validation.summary import summarise_by_condition
from rhetorica.tokenizer import Tokens, split_sentences, tokenize
from rhetorica.validation.measures import TextMeasures, measure_text
from rhetorica.validation.validate import (
    ValidationFailure,
    ValidationThresholds,
    VariantValidation,
    validate_many,
    validate_variant,
    validation_row,
)

__all__ = [
    "DEFAULT_MODEL",
    "Embedder",
    "EmbeddingCache",
    "Lexicon",
    "MarkerCounts",
    "Match",
    "SentenceTransformerEmbedder",
    "SpanReport",
    "TextMeasures",
    "Tokens",
    "ValidationFailure",
    "ValidationThresholds",
    "VariantValidation",
    "advanced_guiraud",
    "compare_spans",
    "count_syllables",
    "extract_spans",
    "find_markers",
    "gunning_fog",
    "load_embedder",
    "load_metadiscourse_lexicon",
    "marker_counts",
    "measure_text",
    "mtld",
    "passage_similarities",
    "semantic_similarity",
    "split_sentences",
    "summarise_by_condition",
    "tfidf_cosine",
    "tfidf_cosine_tokens",
    "tokenize",
    "validate_many",
    "validate_variant",
    "validation_row",
]
