"""The hooks of .pre-commit-hooks.yaml under the real pre-commit framework.

The hook repository is a committed copy of this working tree (what a user
gets from ``rev:``), installed by pre-commit as a ``language: python`` hook.
pre-commit builds the hook's virtualenv with ``pip install .``; to stay off
the network the test lets that virtualenv see the already-installed
dependencies (``VIRTUALENV_SYSTEM_SITE_PACKAGES``) and forbids pip any index
(``PIP_NO_INDEX``, no build isolation), so the only thing installed is this
project, from the local clone.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
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


def _env(home: Path) -> dict:
    env = dict(os.environ)
    env.update(
        PRE_COMMIT_HOME=str(home),
        VIRTUALENV_SYSTEM_SITE_PACKAGES="1",
        PIP_NO_INDEX="1",
        PIP_NO_BUILD_ISOLATION="0",  # pip reads this as --no-build-isolation
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
        GIT_CONFIG_NOSYSTEM="1",
    )
    env.pop("PRE_COMMIT", None)
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
    env = _env(base / "home")
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
