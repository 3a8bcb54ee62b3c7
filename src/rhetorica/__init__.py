"""rhetorica: stress-test AI peer reviewers against rhetorical rewrites of the same science."""

__version__ = "0.1.0"
