"""LaTeX project reading: main-file detection, ``\\input`` resolution, conversion to Markdown text."""
