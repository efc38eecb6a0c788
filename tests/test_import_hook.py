"""The import hook, through real imports in fresh interpreters: what it
claims, what converted modules do, the bytecode cache, tracebacks, warnings,
the opt-out marker and concurrent use."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

MOD = textwrap.dedent('''\
    """A module with control flow."""


    def collatz(x):
        steps = 0
        while x != 1:
            if x % 2 == 0:
                x //= 2
            else:
                x = 3 * x + 1
            steps += 1
        return steps


    def find(xs, target):
        for i, x in enumerate(xs):
            if x == target:
                break
        else:
            return -1
        return i


    def explode(n):
        total = 0
        for i in range(n):
            if i == 3:
                raise ValueError(f"bad item {i}")
            total += i
        return total


    class Counter:
        def tally(self, xs):
            out = []
            for x in xs:
                if x and x > 1:
                    out.append(x)
            return out
    ''')


def py(code: str, cwd: Path, *, bytecode: bool = True, env=None, check=True):
    full = dict(os.environ)
    full.pop("PYTHONDONTWRITEBYTECODE", None)
    if not bytecode:
        full["PYTHONDONTWRITEBYTECODE"] = "1"
    full["PYTHONPATH"] = str(cwd)
    full.update(env or {})
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=full,
                       capture_output=True, text=True, timeout=120)
    if check:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


@pytest.fixture
def proj(tmp_path):
    (tmp_path / "mymod.py").write_text(MOD)
    pkg = tmp_path / "mypkg"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from mypkg.inner.deep import collatz\n")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "deep.py").write_text(MOD)
    (tmp_path / "mypkgother.py").write_text(MOD)
    return tmp_path


def cache_files(root: Path):
    return sorted(p.name for p in root.rglob("__pycache__/*.pyc") if ".autograph-" in p.name)


def test_import_and_install_stay_light(proj):
    r = py("""
        import sys, json
        import autograph_cli
        h = autograph_cli.install_import_hook(["mymod"])
        heavy = [m for m in ("numpy", "libcst", "rich", "converters") if m in sys.modules]
        import mymod
        after = [m for m in ("numpy", "rich") if m in sys.modules]
        print(json.dumps([heavy, after, "libcst" in sys.modules]))
    """, proj, bytecode=False)
    heavy, after, converted_with_libcst = json.loads(r.stdout)
    assert heavy == [] and after == []
    assert converted_with_libcst  # converting does need libcst ...


def test_import_and_install_add_no_stdlib_weight():
    # `import autograph_cli` + install_import_hook in an interpreter without
    # site (which would preload importlib.util etc.): what the front door adds
    # to a bare interpreter is only tiny modules, none of the ones that made
    # it cost 14-16 ms (importlib.abc -> importlib.resources -> pathlib ...).
    root = Path(__file__).resolve().parent.parent
    code = ("import sys; before = set(sys.modules); import autograph_cli; "
            "autograph_cli.install_import_hook(['some_module']); print(sorted(set(sys.modules) - before))")
    env = {**os.environ, "PYTHONPATH": str(root)}
    r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    added = set(eval(r.stdout))
    heavy = {"importlib.abc", "importlib.resources", "importlib.util", "pathlib", "typing", "threading", "hashlib",
             "json", "re", "tempfile", "contextlib", "inspect", "collections"}
    assert added & heavy == set(), sorted(added)


def test_cached_import_needs_no_libcst(proj):
    code = """
        import sys, autograph_cli
        autograph_cli.install_import_hook(["mymod"])
        import mymod
        print(mymod.collatz(27), "libcst" in sys.modules)
    """
    assert py(code, proj).stdout.split() == ["111", "True"]
    assert py(code, proj).stdout.split() == ["111", "False"]  # ... loading the cache does not


def test_claims_named_modules_and_submodules_only(proj):
    r = py("""
        import json, autograph_cli
        with autograph_cli.install_import_hook(["mypkg", "mymod"]) as h:
            import mymod, mypkg, mypkg.inner.deep, mypkgother, textwrap
        def converted(m):
            return type(m.__loader__).__name__ == "ConvertingLoader" and "ag__" in vars(m)
        print(json.dumps({m.__name__: converted(m) for m in (mymod, mypkg, mypkg.inner, mypkg.inner.deep, mypkgother, textwrap)}))
    """, proj)
    assert json.loads(r.stdout) == {"mymod": True, "mypkg": False, "mypkg.inner": False, "mypkg.inner.deep": True,
                                    "mypkgother": False, "textwrap": False}
    # (mypkg/__init__.py and inner/__init__.py have no functions: claimed, nothing to bind)
    r = py("""
        import autograph_cli
        with autograph_cli.install_import_hook(["mypkg"]):
            import mypkg.inner
        print(type(mypkg.inner.__loader__).__name__)
    """, proj)
    assert r.stdout.strip() == "ConvertingLoader"


DIFFERENTIAL = """
    import json, sys
    results = []
    {setup}
    import mymod
    c = mymod.Counter()
    for x in [1, 2, 3, 6, 7, 27, 97]:
        results.append(mymod.collatz(x))
    for xs, t in [([], 1), ([1, 2, 3], 2), ([1, 2, 3], 5), ([5, 5], 5)]:
        results.append(mymod.find(xs, t))
    results.append(c.tally([0, 1, 2, 3, None, 5]))
    for n in [0, 3, 4, 10]:
        try:
            results.append(mymod.explode(n))
        except ValueError as e:
            results.append(str(e))
    print(json.dumps([results, "ag__" in vars(mymod)]))
"""


@pytest.mark.parametrize("forced", [False, True])
def test_converted_module_behaves_like_the_original(proj, forced):
    plain = json.loads(py(DIFFERENTIAL.format(setup=""), proj).stdout)
    setup = "import autograph_cli; autograph_cli.install_import_hook(['mymod'])"
    if forced:
        setup += "; from autograph_cli import operators; operators.force_functional(True)"
    hooked = json.loads(py(DIFFERENTIAL.format(setup=setup), proj).stdout)
    assert plain[1] is False and hooked[1] is True
    assert hooked[0] == plain[0]


def test_functions_really_are_converted(proj):
    r = py("""
        import autograph_cli, dis, io
        autograph_cli.install_import_hook(["mymod"])
        import mymod
        names = mymod.collatz.__code__.co_names
        print("ag__" in names, "fast" in names)
    """, proj)
    assert r.stdout.split() == ["True", "True"]


def test_cache_tag_invalidation_and_options(proj):
    code = """
        import autograph_cli
        autograph_cli.install_import_hook(["mymod"], fast_path={fast})
        import mymod
        print(mymod.collatz(6), mymod.__cached__)
    """
    out = py(code.format(fast=True), proj).stdout.split()
    assert out[0] == "8"
    (tag,) = cache_files(proj)
    assert tag.startswith("mymod.") and f".autograph-{__import__('autograph_cli').__version__}-" in tag
    assert out[1].endswith(tag)
    # Different conversion options: a second, separate cache entry.
    py(code.format(fast=False), proj)
    assert len(cache_files(proj)) == 2
    # The source changes (same size, same mtime second): the hash notices.
    src = proj / "mymod.py"
    st = os.stat(src)
    src.write_text(MOD.replace("steps = 0", "steps = 1"))
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert py(code.format(fast=True), proj).stdout.split()[0] == "9"
    # A corrupt cache file is ignored and replaced.
    cache = proj / "__pycache__" / tag
    cache.write_bytes(b"garbage")
    assert py(code.format(fast=True), proj).stdout.split()[0] == "9"
    assert cache.read_bytes()[:4] != b"garb"
    # No plain .pyc for a converted module: converted and plain never mix.
    assert not (proj / "__pycache__" / f"mymod.{sys.implementation.cache_tag}.pyc").exists()


# Counts what a cached import does: reads of the source, conversions.
SPY = """
    import sys, autograph_cli
    from autograph_cli import import_hook
    log = []
    read, convert = import_hook.ConvertingLoader.get_data, import_hook.ConvertingLoader._convert
    def spy_read(self, path):
        log.append("read")
        return read(self, path)
    def spy_convert(self, *a):
        log.append("convert")
        return convert(self, *a)
    import_hook.ConvertingLoader.get_data = spy_read
    import_hook.ConvertingLoader._convert = spy_convert
    autograph_cli.install_import_hook(["mymod"])
    import mymod
    print(mymod.collatz(6), "+".join(log) or "-")
"""


def _age(path: Path, seconds: int = 3600) -> None:
    """Backdate the file's mtime, and wait until its ctime (which cannot be
    backdated) is older than the cache's racy window (2 s)."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 10**9))
    time.sleep(max(0.0, 2.2 - (time.time() - os.stat(path).st_ctime)))


def test_cache_skips_the_source_while_its_stat_is_unchanged(proj):
    src = proj / "mymod.py"
    _age(src)  # not edited a moment ago
    assert py(SPY, proj).stdout.split() == ["8", "read+convert"]
    # Cached: a stat of the source, no read, no hash, no conversion.
    assert py(SPY, proj).stdout.split() == ["8", "-"]
    # Touched, content unchanged: read and hashed once, the cache is kept
    # (not converted again) and its stat key refreshed.
    _age(src, 1800)
    assert py(SPY, proj).stdout.split() == ["8", "read"]
    assert py(SPY, proj).stdout.split() == ["8", "-"]
    # Edited to the same size with the old mtime put back: the stat key still
    # differs (ctime), the hash decides, the module is converted again.
    st = os.stat(src)
    src.write_text(MOD.replace("steps = 0", "steps = 1"))
    edited = time.monotonic()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert py(SPY, proj).stdout.split() == ["9", "read+convert"]  # read once: hashed, then converted
    # (a loaded machine can take longer than the racy window to run that import)
    recent = time.monotonic() - edited < 1.9
    time.sleep(2.2)  # (the edit was recent: no key until it is older than the racy window)
    out = py(SPY, proj).stdout.split()
    assert out == ["9", "read"] or (not recent and out == ["9", "-"])
    assert py(SPY, proj).stdout.split() == ["9", "-"]


def test_a_source_changed_a_moment_ago_is_hashed_on_every_import(proj):
    # Two edits within one timestamp tick could leave the same stat behind:
    # until the source's last change is older than that, the hash decides
    # every time. (A change "in the future" of our clock counts as recent:
    # it keeps this test independent of how long the imports take.)
    src = proj / "mymod.py"
    st = os.stat(src)
    os.utime(src, ns=(st.st_atime_ns, time.time_ns() + 600 * 10**9))
    assert py(SPY, proj).stdout.split() == ["8", "read+convert"]
    assert py(SPY, proj).stdout.split() == ["8", "read"]
    assert py(SPY, proj).stdout.split() == ["8", "read"]


@pytest.mark.parametrize("mode, second, after_edit", [
    ("always", "read", "read+convert"),  # hashed every time
    ("never", "-", "-"),  # as CPython's checked hash-based pycs: trusted as they are
])
def test_check_hash_based_pycs_option(proj, mode, second, after_edit):
    src = proj / "mymod.py"
    _age(src)
    run = lambda: subprocess.run(  # noqa: E731
        [sys.executable, "--check-hash-based-pycs", mode, "-c", textwrap.dedent(SPY)], cwd=proj,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(proj)},
        capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert run() == ["8", "read+convert"]
    assert run() == ["8", second]
    src.write_text(MOD.replace("steps = 0", "steps = 1"))
    assert run() == (["9", after_edit] if mode == "always" else ["8", after_edit])


def test_dont_write_bytecode_and_unwritable_cache_dir(proj):
    code = """
        import autograph_cli
        autograph_cli.install_import_hook(["mymod"])
        import mymod
        print(mymod.collatz(6))
    """
    assert py(code, proj, bytecode=False).stdout.strip() == "8"
    assert cache_files(proj) == []
    r = py("import sys; sys.dont_write_bytecode = True\n" + textwrap.dedent(code), proj)
    assert r.stdout.strip() == "8" and cache_files(proj) == []
    # __pycache__ cannot be created (a file is in the way: the stand-in for a
    # read-only directory that works even as root).
    (proj / "__pycache__").write_text("not a directory")
    r = py(code, proj)
    assert r.stdout.strip() == "8" and r.stderr == ""
    assert not [p for p in proj.iterdir() if p.name.endswith(".tmp")]


TRACEBACK = """
    import autograph_cli, traceback
    autograph_cli.install_import_hook(["mymod"])
    {force}
    import mymod
    try:
        mymod.explode(10)
    except ValueError:
        print(traceback.format_exc())
"""


@pytest.mark.parametrize("force", ["", "import autograph_cli.operators; autograph_cli.operators.force_functional(True)"])
def test_tracebacks_name_the_original_file_and_line(proj, force):
    code = TRACEBACK.format(force=force)
    path = proj / "mymod.py"
    line = MOD.splitlines().index('            raise ValueError(f"bad item {i}")') + 1
    for attempt in ("converting import", "cached import"):
        out = py(code, proj).stdout
        assert f'File "{path}", line {line}, in ' in out, (attempt, out)
        assert 'raise ValueError(f"bad item {i}")' in out, (attempt, out)
        assert "libcst" not in out
    assert len(cache_files(proj)) == 1


def test_syntax_errors_surface_as_python_reports_them(proj):
    (proj / "broken.py").write_text("def f(x):\n    return x +\n")
    code = """
        import autograph_cli
        {hook}
        try:
            import broken
        except SyntaxError as e:
            print(e.filename, e.lineno, e.msg)
    """
    plain = py(code.format(hook=""), proj).stdout
    hooked = py(code.format(hook="autograph_cli.install_import_hook(['broken'])"), proj).stdout
    assert hooked == plain and "broken.py 2" in hooked


def test_warns_when_a_named_module_was_already_imported(proj):
    r = py("""
        import warnings, mymod, autograph_cli
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            autograph_cli.install_import_hook(["mymod", "mypkg"])
        print(len(w), w[0].category.__name__, str(w[0].message))
    """, proj)
    assert r.stdout.startswith("1 AutographImportWarning") and "mymod" in r.stdout and "mypkg" not in r.stdout


def test_opt_out_marker_in_docstring(proj):
    (proj / "optout.py").write_text('"""Helpers.\n\nautograph: off\n"""\n' + MOD.split('"""', 2)[2])
    (proj / "comment_only.py").write_text('"""Helpers."""\n# autograph: off is not a docstring\n' + MOD.split('"""', 2)[2])
    r = py("""
        import autograph_cli
        autograph_cli.install_import_hook(["optout", "comment_only"])
        import optout, comment_only
        print("ag__" in vars(optout), "ag__" in vars(comment_only), optout.collatz(6))
    """, proj)
    assert r.stdout.split() == ["False", "True", "8"]


def test_uninstall_and_context_manager():
    import autograph_cli
    from autograph_cli.import_hook import _Hook

    before = list(sys.meta_path)
    h = autograph_cli.install_import_hook(["nonexistent_mod_a"])
    assert isinstance(sys.meta_path[0], _Hook)
    h.uninstall()
    h.uninstall()  # twice is fine
    with autograph_cli.install_import_hook("nonexistent_mod_b") as h2:
        assert h2.modules == ("nonexistent_mod_b",)
        assert any(isinstance(f, _Hook) for f in sys.meta_path)
    assert sys.meta_path == before
    with pytest.raises(ValueError):
        autograph_cli.install_import_hook(["not a name"])
    with pytest.raises(ValueError):
        autograph_cli.install_import_hook([])


def test_install_and_uninstall_from_many_threads():
    import autograph_cli
    from autograph_cli.import_hook import _Hook

    before = list(sys.meta_path)
    errors = []

    def worker(i):
        try:
            for j in range(50):
                h = autograph_cli.install_import_hook([f"nonexistent_{i}_{j}"])
                h.uninstall()
        except Exception as e:  # pragma: no cover - the failure being tested for
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert not any(isinstance(f, _Hook) for f in sys.meta_path)
    assert sys.meta_path == before


def test_concurrent_processes_share_the_cache_safely(proj):
    # Several interpreters convert and cache the same modules at the same time.
    big = "\n\n".join(MOD.replace("def ", f"def v{i}_").replace("class Counter", f"class Counter{i}") for i in range(15))
    (proj / "bigmod.py").write_text(big)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(proj)
    code = ("import autograph_cli; autograph_cli.install_import_hook(['bigmod', 'mymod']); "
            "import bigmod, mymod; print(bigmod.v14_collatz(27) + mymod.collatz(27))")
    for _round in range(2):
        procs = [subprocess.Popen([sys.executable, "-c", code], cwd=proj, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(6)]
        outs = [p.communicate(timeout=180) for p in procs]
        assert [p.returncode for p in procs] == [0] * 6, outs
        assert {o for o, _ in outs} == {"222\n"}
    assert len(cache_files(proj)) == 2
    assert not [p for p in (proj / "__pycache__").iterdir() if p.name.endswith(".tmp")]


def test_hooked_functions_stage_under_tf_function(proj):
    # The dual form the hook installs is what the runtime traces: a tensor
    # condition becomes a staged While, a Python int still runs as Python.
    r = py("""
        import autograph_cli
        autograph_cli.install_import_hook(["mymod"])
        import mymod
        import autograph_cli.tf as tf
        f = tf.function(mymod.collatz)
        cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
        print(sorted({n.op for n in cf.graph.root.nodes} & {"While", "If"}), f(tf.constant(27)).numpy(), mymod.collatz(27))
    """, proj)
    assert r.stdout.strip() == "['While'] 111 111"


def test_a_converter_failure_imports_the_module_as_written_with_a_warning(proj):
    # (simulated: the converter returns code with a `break` outside its loop)
    code = """
        import re, warnings, converters
        real = converters.convert
        def broken(source, **kw):
            r = real(source, **kw)
            r.code = re.sub(r"(?m)^( *)steps = 0$", r"\\1steps = 0\\n\\1break", r.code, count=1)
            return r
        converters.convert = broken
        import autograph_cli
        autograph_cli.install_import_hook(["mymod"])
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            import mymod
        print(mymod.collatz(6), "ag__" in vars(mymod), [str(x.message).split(" (")[0] for x in w])
    """
    for _ in range(2):  # not cached: the warning shows every time
        out = py(code, proj).stdout
        assert out.startswith("8 False ['"), out
        assert "mymod.py:" in out and "internal error, the converted module does not compile" in out
    assert cache_files(proj) == []


PRIVATE = textwrap.dedent('''\
    class Account:
        def __init__(self, balance):
            self.__balance = balance

        def plain(self, xs):
            total = 0
            for x in xs:
                if x > 0:
                    total += x
            return total

        def withdraw(self, amounts):
            taken = []
            for n in amounts:
                if n > self.__balance:
                    break
                self.__balance -= n + self.__fee(n)
                taken.append(n)
            return taken, self.__balance

        def __fee(self, n):
            if n > 5:
                return 1
            return 0

        def nested(self, k):
            def helper(j):
                if j:
                    return self.__balance + j
                return -1
            return [helper(j) for j in range(k)]


    class __Hidden:
        def peek(self, a):
            if a:
                return self.__secret(a)
            return None

        def unicode(self, a):
            self.__état = a
            if a:
                return self.__état + 1
            return 0

        def __secret(self, a):
            return a * 2


    def run():
        acct = Account(20)
        out = [acct.plain([1, -2, 3]), acct.withdraw([3, 7, 4, 30]), acct.nested(3)]
        out.append(globals()["__Hidden"]().peek(5))
        out.append(globals()["__Hidden"]().unicode(6))
        return out
    ''')


def test_private_names_in_methods_keep_their_mangling(proj):
    # The lazy functional form moves method bodies out of their class: the
    # names Python mangles there (self.__x, __method) must be mangled alike.
    (proj / "private.py").write_text(PRIVATE)
    code = """
        import autograph_cli
        {setup}
        import private
        print(private.run(), "ag__" in vars(private))
    """
    plain = py(code.format(setup=""), proj).stdout
    forced = ("autograph_cli.install_import_hook(['private']); "
              "import autograph_cli.operators as ops; ops.force_functional(True)")
    hooked = py(code.format(setup=forced), proj).stdout
    assert plain.endswith("False\n") and hooked == plain.replace("False", "True")
    assert plain.startswith("[4, ([3, 7, 4], 5), [-1, 6, 7], 10, 7]")


def test_the_loaders_code_runs_on_its_own_runpy_and_exec(proj):
    # runpy and other users of loader.get_code exec the code in a fresh namespace.
    (proj / "script_mod.py").write_text(MOD + "\nif __name__ == '__main__':\n    print('main', collatz(27))\n")
    r = py("""
        import autograph_cli, importlib.util, runpy
        autograph_cli.install_import_hook(["script_mod"])
        runpy.run_module("script_mod", run_name="__main__")
        code = importlib.util.find_spec("script_mod").loader.get_code("script_mod")
        ns = {"__name__": "copy"}
        exec(code, ns)
        print(ns["collatz"](6), ns["collatz"].__code__.co_names.count("ag__") > 0)
    """, proj)
    assert r.stdout.split() == ["main", "111", "8", "True"]


def test_an_error_in_the_module_body_has_the_tracebacks_of_a_plain_import(proj):
    (proj / "raises.py").write_text(MOD + "\nexplode(10)\n")
    code = """
        import autograph_cli, traceback
        {hook}
        try:
            import raises
        except ValueError:
            print(traceback.format_exc())
    """
    plain = py(code.format(hook=""), proj).stdout
    hooked = py(code.format(hook="autograph_cli.install_import_hook(['raises'])"), proj).stdout
    assert "bad item 3" in plain and "import_hook.py" not in hooked and "importlib" not in hooked
    frames = lambda tb: [l for l in tb.splitlines() if l.lstrip().startswith("File ")]  # noqa: E731
    assert frames(hooked) == frames(plain)


def test_code_the_compiler_rejects_fails_as_a_plain_import_and_is_not_our_error(proj):
    (proj / "badbreak.py").write_text("x = 1\n\n\ndef f(x):\n    if x:\n        return 1\n    break\n")
    code = """
        import autograph_cli, warnings
        {hook}
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                import badbreak
            except SyntaxError as e:
                print(e.lineno, e.msg, e.__cause__, e.__context__, [str(x.message) for x in w])
    """
    plain = py(code.format(hook=""), proj).stdout
    hooked = py(code.format(hook="autograph_cli.install_import_hook(['badbreak'])"), proj).stdout
    assert plain == "7 'break' outside loop None None []\n"
    assert hooked == plain


def test_a_users_own_converters_module_shadows_nothing(proj):
    # `converters` is this project's top-level package; a user's module of that
    # name comes first on sys.path and must keep working, as must the hook.
    (proj / "converters.py").write_text("X = 'the user converters'\n")
    r = py("""
        import autograph_cli
        autograph_cli.install_import_hook(["mymod"])
        import mymod, converters
        print(mymod.collatz(6), "ag__" in vars(mymod), converters.X)
    """, proj)
    assert r.stdout.strip() == "8 True the user converters", r.stderr
    cli = subprocess.run([sys.executable, "-m", "autograph_cli", "check", "mymod.py"], cwd=proj, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(proj)})
    assert (cli.returncode, cli.stderr) == (0, ""), cli.stderr


@pytest.mark.parametrize("head", [
    'from __future__ import annotations\n',
    '"""Doc."""\n# a comment\n\n',
    '#!/usr/bin/env python\n"""Doc\n\nover lines."""\nfrom __future__ import annotations\n\n',
])
def test_tracing_sees_the_same_lines_as_without_the_hook(proj, head):
    # What the hook adds in front of the module (the ag__ binding, the table
    # of functional forms) has no line of its own: debuggers and coverage see
    # the lines a plain import runs, inside functions too.
    (proj / "traced.py").write_text(head + MOD.split('"""', 2)[2] + "\nTOTAL = collatz(6) + find([1, 2], 2)\n")
    code = """
        import sys, autograph_cli
        {hook}
        events = []
        def tracer(frame, event, arg):
            if frame.f_code.co_filename.endswith("traced.py"):
                if event == "line":
                    events.append((frame.f_code.co_name, frame.f_lineno))
                return tracer
        sys.settrace(tracer)
        import traced
        sys.settrace(None)
        print(events)
    """
    plain = py(code.format(hook=""), proj).stdout
    hooked = py(code.format(hook="autograph_cli.install_import_hook(['traced'])"), proj).stdout
    assert "collatz" in plain and hooked == plain
