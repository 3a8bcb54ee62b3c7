"""YAML for study files: PyYAML's safe loader, except that a mapping holding one key twice is an
error naming the key and both lines (PyYAML keeps the last value silently, so ``replicates: 2``
then ``replicates: 5`` would run 5 replicates without a word).

A key a merge (``<<: *anchor``) brings in may be set again next to it: that is YAML's override,
not a duplicate.
"""

from __future__ import annotations

from typing import Any

import yaml

MERGE_TAG = "tag:yaml.org,2002:merge"


class DuplicateKeyError(ValueError):
    """A mapping of the file holds a key twice.

    Attributes:
        key: the key as written.
        first_line, second_line: 1-based lines of its two occurrences.
    """

    def __init__(self, key: Any, first_line: int, second_line: int) -> None:
        super().__init__(f"duplicate key {key!r} at lines {first_line} and {second_line}: keep one "
                         "(YAML would silently use the last)")
        self.key, self.first_line, self.second_line = key, first_line, second_line


class _UniqueKeyLoader(yaml.SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == MERGE_TAG:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key: the safe loader's own error names it
                continue
            line = key_node.start_mark.line + 1
            if first is not None:
                raise DuplicateKeyError(key, first, line)
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def load_unique(text: str) -> Any:
    """Parse ``text`` as :func:`yaml.safe_load` does.

    Raises:
        DuplicateKeyError: a mapping holds a key twice.
        yaml.YAMLError: invalid YAML.
    """
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
