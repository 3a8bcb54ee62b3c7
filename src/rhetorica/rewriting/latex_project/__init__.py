"""Rewriting whole LaTeX projects: load and edit a project, run an external agent on a copy, guard
the protected anchors, compile safely, and repair or discard a variant."""
