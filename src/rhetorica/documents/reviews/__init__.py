"""Reviews as documents: readers for the formats peer reviews come in.

Each reader turns a file into review documents (``Document(kind="review")``, see
:func:`rhetorica.documents.reviews.model.review_document`) linked to their paper, with the
reviewer's own scores as the human reference. Reviewer identities (names, masked ids such as
"Reviewer 9mff" or "Assigned_Reviewer_3") are replaced by the review's number in the file.
"""
