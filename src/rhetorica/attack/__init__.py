"""Worst-case rhetorical attacks (issue 27 §1): the ``attack`` rewriter kind and its stage.

- :mod:`rhetorica.attack.options`: the options of a ``kind: attack`` rewriter, its moves and scope;
- :mod:`rhetorica.attack.search`: the search loop (propose, validate, review, keep the best);
- :mod:`rhetorica.attack.kind`: the kind (proposals, checks and search reviews in a run), registered
  in :data:`rhetorica.registry.rewriters`;
- :mod:`rhetorica.attack.stage`: the ``attack`` stage of the unit graph, registered in
  :data:`rhetorica.registry.stages`.

Its numbers (held-out success rate and shifts, transfer, trajectories) are computed by
:mod:`rhetorica.analysis.attack`. A study file::

    rewriters:
      - name: attacker
        kind: attack
        model: embedded
        conditions: ["attack:+"]
        options: {targets: [reviewer-a], candidates: 4, rounds: 3, search_replicates: 2,
                  max_queries: 40, scope: abstract, moves: [presentation], show_weaknesses: true}
"""
