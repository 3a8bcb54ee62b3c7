"""Install the example plug-in into a private folder (never into the shared environment).

``pip install --no-deps --no-build-isolation --target DIR`` builds the package with the
environment's setuptools and copies it, with its ``.dist-info`` (and so its ``rhetorica.plugins``
entry point), into DIR; a subprocess with DIR on ``PYTHONPATH`` sees the plug-in as installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "examples" / "plugins" / "rhetorica-example-plugin"


def install_plugin(target: Path) -> Path:
    """Install the example plug-in into ``target`` (from a copy, so no build files land in the repo)."""
    source = target.parent / "plugin-source"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                    "--quiet", "--target", str(target), str(source)], check=True, capture_output=True, text=True)
    return target


def plugin_env(target: Path) -> dict[str, str]:
    """Environment for a subprocess that sees rhetorica (this tree) and the installed plug-in."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(target), str(REPO / "src"), env.get("PYTHONPATH", "")])
    return env


def run_python(args: list[str], target: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS`` with the plug-in installed."""
    return subprocess.run([sys.executable, *args], env=plugin_env(target), capture_output=True, text=True,
                          check=False, timeout=600, **kwargs)  # type: ignore[call-overload]
