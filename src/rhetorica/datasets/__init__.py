"""rhetorica.datasets: build a study corpus (OpenReview + arXiv) and import existing review datasets.

A dataset is a folder with ``manifest.yaml`` (one entry per paper: id, title, venue, decision,
human scores, rating bin, arXiv match scores, provenance, licence) and one subfolder per paper
holding its PDF, its matched LaTeX project and its reviews as review documents. A study names the
folder in one line (``documents: [{dataset: DIR}]``). Network access goes through the official
``openreview-py`` and ``arxiv`` clients; every response is cached in the folder, so a killed build
resumes and a finished one makes no request.
"""
