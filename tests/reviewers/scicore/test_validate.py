"""Validation of a science core against its manuscript: new numbers and unsupported claims are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rhetorica.documents.options import ReadOptions
from rhetorica.documents.reader import read_path
from rhetorica.reviewers.scicore.core import ScienceCore
from rhetorica.reviewers.scicore.validate import CoreChecks, validate_core
from tests.reviewers.scicore.helpers import CORE, DOC


def test_a_faithful_core_passes_with_every_number_checked() -> None:
    checks = validate_core(ScienceCore(**CORE), DOC.to_markdown())
    # 99.14%, 70000, 99.33% (results[0]); 100, 0.5 (reproducibility[0])
    assert checks.ok and checks.numbers_checked == 5 and checks.reason() is None
    assert checks.claim_support == (1.0, 1.0)  # each claim: all its terms in one sentence pair


def test_a_number_not_in_the_manuscript_fails_and_is_named() -> None:
    core = ScienceCore(**CORE | {"results": ["The manuscript reports 99.41% accuracy on MNIST."],
                                 "problem": "The manuscript addresses graphs with 1,500 nodes."})
    checks = validate_core(core, DOC.to_markdown())
    assert not checks.ok
    assert [(n.location, n.number, n.value) for n in checks.new_numbers] == [
        ("problem", "1,500", "1500"), ("results[0]", "99.41%", "99.41")]
    assert checks.reason() == ("problem: the number 1,500 is not in the manuscript; "
                               "results[0]: the number 99.41% is not in the manuscript")


def test_an_unsupported_claim_fails_and_is_named_with_its_score() -> None:
    claims = [CORE["claims"][0], "The manuscript claims isotropic filters fail on ImageNet transformers."]
    checks = validate_core(ScienceCore(**CORE | {"claims": claims}), DOC.to_markdown())
    # isotro, filter, fail, imagen, transf: 2 of 5 in "The filters are isotropic."
    assert checks.claim_support == (1.0, 0.4)
    assert checks.problems == ("claims[1]: the claim 'The manuscript claims isotropic filters fail on ImageNet "
                               "transformers.' has no lexical support in the manuscript (support 0.40 < 0.5; "
                               "missing fail, imagen, transf)",)
    # at the threshold a claim is supported; the threshold is an argument in [0, 1]
    assert validate_core(ScienceCore(**CORE | {"claims": claims}), DOC.to_markdown(), threshold=0.4).ok
    with pytest.raises(ValueError, match="threshold 1.5 is outside"):
        validate_core(ScienceCore(**CORE), DOC.to_markdown(), threshold=1.5)


def test_on_a_real_paper_copied_numbers_pass_and_a_changed_one_is_named(shared_data: Path) -> None:
    paper = read_path(shared_data / "papers" / "chebnet_nips2016", "chebnet", ReadOptions()).to_markdown()
    core = ScienceCore(
        problem="The manuscript addresses convolutional neural networks on graphs.",
        claims=["The manuscript states that the proposed graph CNN achieves a performance very close to a "
                "classical CNN with the same architecture on MNIST."],
        results=["The manuscript reports an accuracy of 99.14 for the proposed graph CNN and 99.33 for a "
                 "classical CNN on MNIST, a dataset of 70000 digits on a 28 x 28 grid."],
        reproducibility=["The manuscript states mini-batches of size 100 and an 8-NN graph with 976 nodes."])
    assert validate_core(core, paper).ok
    changed = core.model_copy(update={"results": [core.results[0].replace("99.14", "99.41")]})
    assert validate_core(changed, paper).reason() == "results[0]: the number 99.41 is not in the manuscript"


def test_checks_read_back_from_their_stored_form() -> None:
    claims = [CORE["claims"][0], "The manuscript states that the method outperforms transformers on ImageNet."]
    checks = validate_core(ScienceCore(**CORE | {"claims": claims, "problem": "Graphs with 1,500 nodes."}),
                           DOC.to_markdown())
    stored = json.loads(json.dumps(checks.to_dict()))
    assert CoreChecks.from_dict(stored) == checks and len(checks.problems) == 2
