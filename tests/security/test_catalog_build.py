"""Issue 40 item 6: an install speaks every language, or does not start.

The attack's finding: ``jackpot serve`` from an install made without ``make
catalogs`` served English and answered 500 (``MissingCatalog``) to every visitor
whose browser asked for Portuguese. Now the build compiles the catalogs into the
package (setup.py), so a wheel built from the repository carries every ``.mo``, and
a server whose package lacks one refuses to start with one line.

The wheel is built from a copy of the repository without any ``.mo`` (they are not
in git), with the virtual environment's own setuptools and Babel: no download.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from jackpot.i18n.catalogs import DOMAINS, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
#: What a checkout holds that a build does not need (or must not find).
NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", "var", "node_modules", "build", "*.egg-info", "__pycache__",
    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "test-results", "*.mo",
)
EXPECTED = {
    f"jackpot/locale/{lang}/LC_MESSAGES/{domain}.mo"
    for lang in LANGUAGES
    if lang != "en"
    for domain in DOMAINS
}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED)
    assert not list(source.rglob("*.mo"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "-w", str(work / "dist"), str(source)],
        check=True, capture_output=True, timeout=600,
    )
    [built] = (work / "dist").glob("jackpot-*.whl")
    return built


def test_a_wheel_built_from_the_repository_has_every_catalog(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {n for n in names if n.endswith(".mo")} == EXPECTED
    for name in EXPECTED:  # real catalogs, not empty files
        assert len(zipfile.ZipFile(wheel).read(name)) > 1000, name


@pytest.fixture
def installed(wheel: Path, tmp_path: Path) -> Path:
    """The wheel unpacked as an install would lay it out (site-packages)."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    return site


def run(site: Path, var_dir: Path, *args: str) -> subprocess.Popen[str]:
    var_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(site), "JACKPOT_VAR_DIR": str(var_dir)}
    for name in ("DATABASE_URL", "JACKPOT_SECRET_KEY", "JACKPOT_REDIS_URL"):
        env.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-m", "jackpot.cli", "serve", "--host", "127.0.0.1", *args],
        env=env, cwd=var_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    proc = run(installed, tmp_path / "var", "--port", str(port), "--log-level", "warning")
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_installed_wheel_serves_every_language(served: str, installed: Path) -> None:
    where = subprocess.run(
        [sys.executable, "-c", "import jackpot; print(jackpot.__file__)"],
        env={**os.environ, "PYTHONPATH": str(installed)}, cwd=installed.parent,
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert where.startswith(str(installed)), where  # the wheel's package, not the checkout
    r = httpx.get(served + "/login", headers={"Accept-Language": "pt"})
    assert r.status_code == 200 and 'lang="pt"' in r.text
    r = httpx.post(served + "/api/session", json={"email": "x@example.org", "password": "x"},
                   headers={"Accept-Language": "sk"})
    assert r.status_code == 401
    assert r.json()["error"]["message"] != "that email and password do not match an account"


def test_a_missing_catalog_stops_start_up_with_one_line(installed: Path, tmp_path: Path) -> None:
    (installed / "jackpot/locale/pt/LC_MESSAGES/messages.mo").unlink()
    proc = run(installed, tmp_path, "--port", "1")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("configuration error: "), lines[0]
    assert "messages.mo" in lines[0] and "'pt'" in lines[0] and "make catalogs" in lines[0]
