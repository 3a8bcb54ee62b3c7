"""Review protocols: which instruction pieces the reviewer's system prompt holds, and which form.

Protocols of the 'Style over Substance' study's prompt-sensitivity analysis (STUDIES.md §1, their
Table 8) and the six-dimension study's strict prompt (STUDIES.md §2):

- ``default``: role, responsibilities, criteria, scale anchors for every overall level, fairness.
- ``brief``: no responsibilities, criteria or scale anchors.
- ``minimal``: brief without the sentence asking for fair, substantive feedback.
- ``bare``: minimal without sub-scores (overall-only form).
- ``biased``: default plus an instruction to weigh style and presentation heavily — a positive
  control the analysis must detect.
- ``strict``: default plus the strict standard (high scores need concrete evidence; no credit for
  presentation unless it changes the scientific assessment).

Protocols of the RobustReview study (STUDIES.md §4), on the ICLR 2026 form (``iclr-2026``):

- ``standard``: the ICLR review criteria (soundness, presentation, contribution 1-4; confidence
  1-5) and the ICLR rating anchors for the overall assessment 1-10.
- ``persistent``: standard's criteria with the instruction to judge substance and not
  presentation repeated at the start, after the criteria, in explicit evidence-based scoring
  rules, and in a final check.
- ``strict-iclr``: standard plus the strict standard (the six-dimension study's strict prompt on
  the ICLR form; ``strict`` keeps the 000 form).
- ``science-record``: strict-iclr adapted to a science record instead of a manuscript (SciCore's
  second branch, :mod:`rhetorica.reviewers.scicore`): the reviewer is told what a record is and how
  to read its attributions; soundness and contribution as in standard; presentation, which a
  record does not have, is re-anchored on the record's completeness and kept as a diagnostic
  that SciCore does not count; the strict standard is worded for evidence listed in a record.

Each piece is one package-data file under ``protocols/``, written once and shared.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from rhetorica.forms import Form, get_form
from rhetorica.hashing import content_hash
from rhetorica.registry import protocols


class UnknownProtocolError(ValueError):
    """A protocol name that is not registered."""


@dataclass(frozen=True)
class Protocol:
    """A named review protocol: ordered instruction pieces and the review form it asks for.

    Attributes:
        name: the protocol's name in study files.
        pieces: instruction files under ``protocols/`` (without ``.md``), in prompt order.
        form_name: registry name of its :class:`~rhetorica.forms.Form` (:mod:`rhetorica.forms`).
    """

    name: str
    pieces: tuple[str, ...]
    form_name: str

    @property
    def form(self) -> Form:
        """The declared form the protocol asks for (raises ``UnknownComponentError`` if unregistered)."""
        return get_form(self.form_name)


_DEFAULT = ("role", "responsibilities", "criteria", "scale", "fairness")
_STANDARD = ("role", "responsibilities", "iclr_criteria", "iclr_scale", "fairness")
_PERSISTENT = ("role", "persistent_focus", "responsibilities", "iclr_criteria", "persistent_evidence", "iclr_scale",
               "persistent_scoring", "fairness", "persistent_reminder")
PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (
        Protocol("default", _DEFAULT + ("output_full",), "review-000"),
        Protocol("brief", ("role", "fairness", "output_full"), "review-000"),
        Protocol("minimal", ("role", "output_full"), "review-000"),
        Protocol("bare", ("role", "output_overall"), "review-000-overall"),
        Protocol("biased", _DEFAULT + ("biased", "output_full"), "review-000"),
        Protocol("strict", _DEFAULT + ("strict", "output_full"), "review-000"),
        Protocol("standard", _STANDARD + ("output_iclr",), "iclr-2026"),
        Protocol("persistent", _PERSISTENT + ("output_iclr",), "iclr-2026"),
        Protocol("strict-iclr", _STANDARD + ("strict", "output_iclr"), "iclr-2026"),
        Protocol("science-record", ("record_role", "record_responsibilities", "record_criteria", "iclr_scale",
                                    "record_strict", "fairness", "output_iclr"), "iclr-2026"),
    )
}
for _protocol in PROTOCOLS.values():
    protocols.add(_protocol.name, _protocol, description=f"review instructions: {', '.join(_protocol.pieces)} "
                                                         f"({_protocol.form_name} form)")


def get_protocol(name: str) -> Protocol:
    """Look up a protocol.

    Raises:
        UnknownProtocolError: names the bad value and the known protocols.
    """
    if name not in PROTOCOLS:
        raise UnknownProtocolError(f"unknown protocol {name!r}; known: {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]


@functools.lru_cache(maxsize=64)
def _piece(piece: str) -> str:
    """One prompt piece (``protocols/<piece>.md``, a file of the installed package), read once."""
    return (resources.files("rhetorica.reviewers") / "protocols" / f"{piece}.md").read_text("utf-8").strip()


def system_prompt(protocol: Protocol) -> str:
    """The reviewer's system prompt: the protocol's pieces joined by blank lines."""
    return "\n\n".join(_piece(piece) for piece in protocol.pieces)


#: What the two forms of the first study were hashed as before forms were declared (pydantic
#: classes keyed ``full`` / ``overall-only``): kept so that every stored unit key stays valid.
_HASHED_AS = {"review-000@1": "full", "review-000-overall@1": "overall-only"}


def protocol_version(protocol: Protocol) -> str:
    """8-hex hash of the exact system prompt and the form (``name@version``), part of every
    review unit's key."""
    label = protocol.form.label
    return content_hash(system_prompt(protocol), _HASHED_AS.get(label, label), length=8)
