"""Install llama-cpp-python for rhetorica's embedded model as a portable build, and check it decodes.

Usage (the Makefile's ``install-demo`` and ``install-test`` run both steps)::

    .venv/bin/python scripts/install_llama_cpp.py install   # before pip install -e ".[embedded,...]"
    .venv/bin/python scripts/install_llama_cpp.py check     # after it: one real embedded decode

``install``
    llama-cpp-python ships only a source archive, and a plain ``pip install`` compiles ggml with the
    build machine's own instructions (``GGML_NATIVE``). Such a build can crash elsewhere, or even on
    the same CPU under a hypervisor: ggml's AMX kernels segfault at ``ldtilecfg`` where the guest
    may not use AMX tiles (issue 9). This step instead compiles for a fixed instruction set:

    - ``$CMAKE_ARGS`` when the caller sets it (llama-cpp-python's own variable), otherwise
    - x86-64 with AVX2, FMA, F16C and BMI2 (x86-64-v3, in ``/proc/cpuinfo``): exactly those
      (:data:`AVX2_ARGS`); AVX-512 and AMX stay off, so one build runs on every such machine;
    - any other x86-64: the SSE2 baseline (:data:`BASELINE_ARGS`), slower but safe;
    - other machines: ``-DGGML_NATIVE=OFF`` (ggml's generic build for the architecture).

    ggml's runtime CPU-variant selection (``GGML_BACKEND_DL`` + ``GGML_CPU_ALL_VARIANTS``) would
    make one wheel serve every CPU, but llama-cpp-python does not load such backends (its bindings
    expose no ``ggml_backend_load_all``: abetlen/llama-cpp-python issue #2069) and the build
    compiles ggml's CPU code once per variant, several times the ~10 min a single build takes on
    two cores.

    The wheel is built with ``pip wheel --no-cache-dir --no-deps --no-binary llama-cpp-python``
    into a folder keyed by (version, CMAKE_ARGS, platform), so pip's wheel cache, which is keyed by
    the source archive alone, can never hand back a build made with other flags. It is installed
    from that folder only (``--no-index --find-links``), replacing any other build in the venv.

``check``
    Loads the embedded model and decodes a few tokens at temperature 0 in a child process, so a
    build that crashes (SIGSEGV, SIGILL) or fails to load ends the install with one line saying
    what to do, instead of a crash in the middle of a study. Exit status 0 on success, 1 otherwise.

The version is the ``llama-cpp-python==`` pin of the ``embedded`` extra in ``pyproject.toml``.
Needs only the standard library (Python >= 3.11) and pip in the running interpreter.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "llama-cpp-python"

#: cpuinfo flags of x86-64-v3 that ggml's AVX2 kernels use, and the build for them.
AVX2_FLAGS = ("avx", "avx2", "fma", "f16c", "bmi2")
AVX2_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
             "-DGGML_BMI2=ON")
#: x86-64 without AVX2. With GGML_NATIVE=OFF ggml turns SSE4.2..AVX2 on by default, so all are named.
BASELINE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_SSE42=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF "
                 "-DGGML_F16C=OFF -DGGML_BMI2=OFF")
GENERIC_ARGS = "-DGGML_NATIVE=OFF"

CHECK_TIMEOUT_S = 300
CHECK_CODE = """
import asyncio, json, time
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.embedded import EmbeddedModel
model = EmbeddedModel(n_ctx=512)
started = time.perf_counter()
out = asyncio.run(model.generate([ChatMessage(role="user", content="Name one prime number.")],
                                 GenerateConfig(temperature=0.0, max_tokens=16)))
print(json.dumps({"status": str(out.status), "tokens": out.usage.output_tokens, "error": out.error,
                  "seconds": time.perf_counter() - started}))
"""


class InstallError(Exception):
    """A step failed; the message is the one line shown to the user."""


def pinned_version(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The exact version of llama-cpp-python pinned (``==``) by the ``embedded`` extra.

    Raises:
        InstallError: the extra has no ``llama-cpp-python==X`` entry.
    """
    extras = tomllib.loads(pyproject.read_text("utf-8"))["project"]["optional-dependencies"]
    for requirement in extras.get("embedded", []):
        name, sep, version = requirement.partition("==")
        if sep and name.strip().lower().replace("_", "-") == PACKAGE:
            return version.strip()
    raise InstallError(f"{pyproject}: the embedded extra pins no {PACKAGE}==VERSION")


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The ``flags`` of the first processor in ``cpuinfo`` (empty if unreadable)."""
    try:
        text = cpuinfo.read_text("utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    return set()


def choose_cmake_args(machine: str, flags: set[str], env: dict[str, str]) -> tuple[str, str]:
    """(CMAKE_ARGS, why) for this machine: the caller's ``CMAKE_ARGS`` wins, else by CPU flags."""
    if env.get("CMAKE_ARGS", "").strip():
        return env["CMAKE_ARGS"].strip(), "CMAKE_ARGS from the environment"
    if machine.lower() in {"x86_64", "amd64"}:
        if all(flag in flags for flag in AVX2_FLAGS):
            return AVX2_ARGS, "x86-64 with AVX2/FMA/F16C/BMI2: portable AVX2 build (no AVX-512, no AMX)"
        return BASELINE_ARGS, "x86-64 without AVX2: portable SSE2 baseline build (slow decode)"
    return GENERIC_ARGS, f"{machine}: ggml's generic (non-native) build"


def cache_root(env: dict[str, str]) -> Path:
    """``$XDG_CACHE_HOME/rhetorica-wheels`` (default ``~/.cache/rhetorica-wheels``)."""
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rhetorica-wheels"


def wheel_dir(root: Path, version: str, cmake_args: str, plat: str) -> Path:
    """Folder for the wheel of (version, CMAKE_ARGS, platform): a name no other build can share."""
    digest = hashlib.sha256(json.dumps([version, cmake_args, plat]).encode()).hexdigest()[:16]
    return root / f"{PACKAGE}-{version}-{digest}"


def find_wheel(folder: Path, version: str) -> Path | None:
    """The llama-cpp-python wheel of ``version`` in ``folder``, if one was built there."""
    found = sorted(folder.glob(f"llama_cpp_python-{version}-*.whl")) if folder.is_dir() else []
    return found[0] if found else None


def build_wheel(folder: Path, version: str, cmake_args: str) -> Path:
    """Compile the wheel from source into ``folder`` (written to a temporary sibling, then renamed).

    Raises:
        InstallError: the build failed (pip's output is shown above the message).
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    env = dict(os.environ, CMAKE_ARGS=cmake_args)
    print(f"building {PACKAGE}=={version} with CMAKE_ARGS={cmake_args!r} "
          "(about 10 minutes on 2 cores; built once per flag set)", flush=True)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-cache-dir", "--no-deps",
                           "--no-binary", PACKAGE, f"{PACKAGE}=={version}", "-w", str(staging)], env=env)
    seconds = time.monotonic() - started
    if done.returncode != 0 or find_wheel(staging, version) is None:
        shutil.rmtree(staging, ignore_errors=True)
        raise InstallError(f"building {PACKAGE}=={version} failed (pip exit {done.returncode}); a C/C++ "
                           "compiler and cmake are needed (Debian: apt-get install build-essential cmake)")
    (staging / "build.json").write_text(json.dumps(
        {"version": version, "cmake_args": cmake_args, "platform": sysconfig.get_platform(),
         "build_seconds": round(seconds, 1)}, indent=1) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    print(f"built in {seconds / 60:.1f} min: {folder}", flush=True)
    return find_wheel(folder, version)  # type: ignore[return-value]


def installed_matches(wheel: Path) -> bool:
    """Whether the installed llama_cpp's ``libggml-cpu`` libraries are byte-identical to ``wheel``'s."""
    spec = subprocess.run([sys.executable, "-c", "import importlib.util as u; s = u.find_spec('llama_cpp');"
                           "print(s.submodule_search_locations[0] if s else '')"],
                          capture_output=True, text=True)
    installed = Path(spec.stdout.strip()) if spec.returncode == 0 and spec.stdout.strip() else None
    if installed is None:
        return False
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if Path(m).name.startswith("libggml-cpu")]
        if not members:
            return False
        for member in members:
            target = installed.parent / member
            if not target.is_file():
                return False
            if hashlib.sha256(archive.read(member)).digest() != hashlib.sha256(target.read_bytes()).digest():
                return False
    return True


def install(env: dict[str, str]) -> int:
    """Build (once per flag set) and install the portable wheel. Returns the exit status."""
    version = pinned_version()
    cmake_args, why = choose_cmake_args(platform.machine(), cpu_flags(), env)
    folder = wheel_dir(cache_root(env), version, cmake_args, sysconfig.get_platform())
    print(f"{PACKAGE}=={version}: {why}; CMAKE_ARGS={cmake_args!r}", flush=True)
    wheel = find_wheel(folder, version) or build_wheel(folder, version, cmake_args)
    if installed_matches(wheel):
        print(f"{PACKAGE} already installed from {wheel}", flush=True)
        return 0
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--find-links",
                           str(folder), "--no-deps", "--force-reinstall", f"{PACKAGE}=={version}"])
    if done.returncode != 0:
        raise InstallError(f"installing {wheel} failed (pip exit {done.returncode}); delete {folder} "
                           "and run the install again to rebuild it")
    print(f"installed {wheel.name} from {folder}", flush=True)
    return 0


def describe_failure(returncode: int, stderr: str, folder: Path) -> str:
    """One line for a failed check child: what happened and what to do."""
    redo = (f"delete {folder} and run the install again; if it still fails, force the baseline build: "
            f"CMAKE_ARGS=\"{BASELINE_ARGS}\" make install-demo")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        cause = ("uses a CPU instruction this machine does not allow" if name == "SIGILL"
                 else "crashed inside llama.cpp")
        return f"error: the embedded model's test decode died with {name}: the llama-cpp-python build {cause}; {redo}"
    last = next((line for line in reversed(stderr.strip().splitlines()) if line.strip()), "no output")
    return f"error: the embedded model's test decode failed ({last.strip()}); {redo}"


def check(env: dict[str, str]) -> int:
    """Decode a few tokens with the embedded model in a child process; print one line. Exit status."""
    version = pinned_version()
    cmake_args, _ = choose_cmake_args(platform.machine(), cpu_flags(), env)
    folder = wheel_dir(cache_root(env), version, cmake_args, sysconfig.get_platform())
    try:
        child = subprocess.run([sys.executable, "-c", CHECK_CODE], capture_output=True, text=True,
                               timeout=CHECK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"error: the embedded model's test decode took over {CHECK_TIMEOUT_S} s; the llama-cpp-python "
              f"build may be the SSE2 baseline on a busy machine, or hung: delete {folder} and reinstall",
              file=sys.stderr)
        return 1
    result = None
    if child.returncode == 0:
        try:
            result = json.loads(child.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = None
    if result is None or result["tokens"] < 1:
        detail = child.stderr if child.returncode != 0 or result is None else f"0 tokens: {result['error']}"
        print(describe_failure(child.returncode, detail, folder), file=sys.stderr)
        return 1
    print(f"embedded model check: ok ({result['tokens']} tokens decoded in {result['seconds']:.1f} s, "
          "model load included)", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("install", "check"))
    args = parser.parse_args(argv)
    try:
        return install(dict(os.environ)) if args.step == "install" else check(dict(os.environ))
    except InstallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
