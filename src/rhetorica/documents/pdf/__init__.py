"""PDF reading: pluggable text-extraction backends, a shared layout pass, and a timed runner."""
