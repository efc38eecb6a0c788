"""README.md's table of supported TensorFlow names is current."""
from __future__ import annotations

from autograph_cli.tf import _names


def test_readme_table_of_supported_names_is_current():
    with open(_names.README, encoding="utf-8") as f:
        text = f.read()
    assert _names.section() in text, "README.md is stale: run python -m autograph_cli.tf._names --write"


def test_static_only_arguments_are_marked():
    table = _names.table()
    assert "| `tf.concat` | `axis` |" in table
    assert "`concat`\\*" in table
    assert "`zeros`," in table and "`zeros`\\*" not in table
