from pathlib import Path

import pytest

from tests.examples.plugin_install import install_plugin


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plug-in, installed once per session into a private folder."""
    return install_plugin(tmp_path_factory.mktemp("plugin") / "site")
