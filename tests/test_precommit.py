"""The hooks of .pre-commit-hooks.yaml under the real pre-commit framework.

The hook repository is a committed copy of this working tree (what a user
gets from ``rev:``), installed by pre-commit as a ``language: python`` hook:
pre-commit builds the hook's own virtualenv and runs ``pip install .`` in it.
To stay off the network and independent of whichever interpreter the running
virtualenv was made from, the test packs the project's installed dependencies
(what this environment runs, the same versions) into a local wheelhouse and
lets pip see only that (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``); the project is
built with the setuptools virtualenv seeds (its bundled wheel, no build
isolation). Nothing comes from the base interpreter's site-packages.
"""
from __future__ import annotations

import base64
import configparser
import hashlib
import importlib.metadata as metadata
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is needed")

PITFALL = textwrap.dedent('''\
    import autograph_cli.tf as tf


    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y
    ''')

FIXED = PITFALL.replace("        y = x\n    return y\n", "        y = x\n    else:\n        y = -x\n    return y\n")
assert FIXED != PITFALL

LOOPY = textwrap.dedent('''\
    def count(n):
        total = 0
        for i in range(n):
            if i % 3:
                total += i
        return total
    ''')


def _requirement(text: str):
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pragma: no cover - pip always vendors it
        from pip._vendor.packaging.requirements import Requirement
    return Requirement(text)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(roots) -> list:
    """The installed distributions ``roots`` need, transitively, on this
    interpreter (markers evaluated, extras not followed)."""
    seen, todo, out = set(), [_requirement(r) for r in roots], []
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        key = _canonical(req.name)
        if key in seen:
            continue
        seen.add(key)
        dist = metadata.distribution(req.name)
        out.append(dist)
        todo.extend(_requirement(r) for r in dist.requires or ())
    return out


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _repack(dist, dest: Path) -> Path:
    """A wheel of the installed distribution ``dist``, built from the files
    its RECORD lists (what pip installed from the original wheel)."""
    wheel_meta = dist.read_text("WHEEL") or "Root-Is-Purelib: true\nTag: py3-none-any\n"
    tags = [line.split(":", 1)[1].strip() for line in wheel_meta.splitlines() if line.startswith("Tag:")]
    tags = tags or ["py3-none-any"]
    parts = [sorted({t.split("-")[i] for t in tags}) for i in range(3)]
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    version = dist.version
    wheel = dest / f"{name}-{version}-{'-'.join('.'.join(p) for p in parts)}.whl"
    info_dir = None
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as z:
        for f in dist.files or ():
            rel = f.as_posix()
            if rel.startswith("..") or "__pycache__" in f.parts or rel.endswith(".pyc"):
                continue  # scripts (pip regenerates them) and bytecode
            top = f.parts[0]
            if top.endswith(".dist-info"):
                info_dir = top
                if f.name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json"):
                    continue
            path = Path(dist.locate_file(f))
            if not path.is_file():
                continue
            data = path.read_bytes()
            z.writestr(rel, data)
            record.append(f"{rel},{_record_hash(data)},{len(data)}")
        assert info_dir, f"{dist.metadata['Name']} has no dist-info in its RECORD"
        record.append(f"{info_dir}/RECORD,,")
        z.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return wheel


def _wheelhouse(dest: Path) -> Path:
    """What setup.cfg installs with the project, as installed in this environment, as wheels."""
    dest.mkdir(parents=True, exist_ok=True)
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg")
    roots = [r.strip() for r in cfg["options"]["install_requires"].splitlines() if r.strip()]
    for dist in _closure(roots):
        _repack(dist, dest)
    return dest


def _env(home: Path, wheels: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "VIRTUALENV_")) and k not in ("PRE_COMMIT", "VIRTUAL_ENV")}
    env.update(
        PRE_COMMIT_HOME=str(home),
        # The hook's virtualenv: seeded offline with virtualenv's own pip and
        # setuptools wheels, and nothing from any site-packages outside it.
        VIRTUALENV_SETUPTOOLS="bundle",
        VIRTUALENV_NO_DOWNLOAD="1",
        VIRTUALENV_NO_PERIODIC_UPDATE="1",
        VIRTUALENV_OVERRIDE_APP_DATA=str(home / "virtualenv-app-data"),
        # pip install . in it: dependencies from the local wheelhouse only,
        # the project built with the seeded setuptools.
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheels),
        PIP_NO_BUILD_ISOLATION="0",  # pip reads this as --no-build-isolation
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_CACHE_DIR="1",
        PYTHONDONTWRITEBYTECODE="1",
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def git(*args, cwd, env):
    r = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.strip()


def _pre_commit(*args, cwd, env):
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory):
    base = tmp_path_factory.mktemp("precommit")
    env = _env(base / "home", _wheelhouse(base / "wheels"))
    hook = base / "hook"
    hook.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("autograph_cli", "converters"):
        shutil.copytree(REPO / name, hook / name, ignore=ignore)
    for name in ("setup.cfg", "pyproject.toml", ".pre-commit-hooks.yaml", "README.md"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, hook / name)
        else:
            (hook / name).write_text("")
    git("init", "-q", ".", cwd=hook, env=env)
    git("add", ".", cwd=hook, env=env)
    git("commit", "-q", "-m", "hook repo", cwd=hook, env=env)
    return hook, git("rev-parse", "HEAD", cwd=hook, env=env), env, base


def _project(base: Path, name: str, hook: Path, rev: str, hooks: str, env) -> Path:
    proj = base / name
    proj.mkdir()
    git("init", "-q", ".", cwd=proj, env=env)
    (proj / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook}\n    rev: {rev}\n    hooks:\n{textwrap.indent(hooks, '      ')}")
    return proj


def test_autograph_check_hook_fails_then_passes_on_git_commit(hook_repo):
    hook, rev, env, base = hook_repo
    proj = _project(base, "check_proj", hook, rev, "- id: autograph-check\n", env)
    (proj / "model.py").write_text(PITFALL)
    (proj / "notes.txt").write_text("if x: not python\n")
    git("add", ".", cwd=proj, env=env)
    r = _pre_commit("run", "--all-files", cwd=proj, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "autograph check" in r.stdout and "Failed" in r.stdout
    assert "model.py:8:" in r.stdout and "AG101" in r.stdout
    assert "notes.txt" not in r.stdout  # only Python files are passed

    # The same through git itself: the commit is refused ...
    assert _pre_commit("install", cwd=proj, env=env).returncode == 0
    r = subprocess.run(["git", "commit", "-q", "-m", "bad"], cwd=proj, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode != 0 and "AG101" in r.stdout + r.stderr
    assert subprocess.run(["git", "rev-parse", "--verify", "HEAD"], cwd=proj, env=env, capture_output=True).returncode != 0
    # ... until the pitfall is fixed.
    (proj / "model.py").write_text(FIXED)
    git("add", ".", cwd=proj, env=env)
    r = subprocess.run(["git", "commit", "-q", "-m", "good"], cwd=proj, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout + r.stderr


def test_autograph_convert_check_hook(hook_repo):
    hook, rev, env, base = hook_repo
    proj = _project(base, "convert_proj", hook, rev,
                    "- id: autograph-convert-check\n  files: ^converted/\n", env)
    (proj / "src").mkdir()
    (proj / "src" / "loops.py").write_text(LOOPY)
    autograph = Path(sys.executable).with_name("autograph")
    cmd = [str(autograph)] if autograph.exists() else [sys.executable, "-m", "autograph_cli"]
    r = subprocess.run([*cmd, "convert", "src", "-o", "converted"], cwd=proj, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    git("add", ".", cwd=proj, env=env)
    r = _pre_commit("run", "--all-files", cwd=proj, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout

    # Someone edits the committed converted file by hand: the hook shows the diff and fails.
    edited = (proj / "converted" / "loops.py").read_text() + "\n\ndef later(xs):\n    while xs:\n        xs.pop()\n    return xs\n"
    (proj / "converted" / "loops.py").write_text(edited)
    git("add", ".", cwd=proj, env=env)
    r = _pre_commit("run", "--all-files", cwd=proj, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Failed" in r.stdout
    assert "+++ converted/loops.py\t(converted)" in r.stdout and "ag__.while_stmt(" in r.stdout
    assert (proj / "converted" / "loops.py").read_text() == edited  # a check never writes
