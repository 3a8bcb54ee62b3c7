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

Each piece is one package-data file under ``protocols/``, written once and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from rhetorica.hashing import content_hash
from rhetorica.registry import protocols


class UnknownProtocolError(ValueError):
    """A protocol name that is not registered."""


@dataclass(frozen=True)
class Protocol:
    """A named review protocol: ordered instruction pieces and the review form it asks for."""

    name: str
    pieces: tuple[str, ...]
    form: str  # key of rhetorica.reviewers.form.FORMS


_DEFAULT = ("role", "responsibilities", "criteria", "scale", "fairness")
PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (
        Protocol("default", _DEFAULT + ("output_full",), "full"),
        Protocol("brief", ("role", "fairness", "output_full"), "full"),
        Protocol("minimal", ("role", "output_full"), "full"),
        Protocol("bare", ("role", "output_overall"), "overall-only"),
        Protocol("biased", _DEFAULT + ("biased", "output_full"), "full"),
        Protocol("strict", _DEFAULT + ("strict", "output_full"), "full"),
    )
}
for _protocol in PROTOCOLS.values():
    protocols.add(_protocol.name, _protocol, description=f"review instructions: {', '.join(_protocol.pieces)} "
                                                         f"({_protocol.form} form)")


def get_protocol(name: str) -> Protocol:
    """Look up a protocol.

    Raises:
        UnknownProtocolError: names the bad value and the known protocols.
    """
    if name not in PROTOCOLS:
        raise UnknownProtocolError(f"unknown protocol {name!r}; known: {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]


def system_prompt(protocol: Protocol) -> str:
    """The reviewer's system prompt: the protocol's pieces joined by blank lines."""
    folder = resources.files("rhetorica.reviewers") / "protocols"
    return "\n\n".join((folder / f"{piece}.md").read_text("utf-8").strip() for piece in protocol.pieces)


def protocol_version(protocol: Protocol) -> str:
    """8-hex hash of the exact system prompt, stored with every assessment's reviewer spec."""
    return content_hash(system_prompt(protocol), protocol.form, length=8)
