"""``autograph run``: programs run as ``python`` runs them, with the script
and the ``--convert`` modules converted."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("autograph")
AUTOGRAPH = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "autograph_cli"]

LIB = textwrap.dedent('''\
    def classify(xs):
        out = []
        for x in xs:
            if x < 0:
                out.append("neg")
            elif x == 0:
                out.append("zero")
            else:
                out.append("pos")
        return out


    def fail_on(xs, bad):
        for x in xs:
            if x == bad:
                raise KeyError(x)
        return len(xs)
    ''')

SCRIPT = textwrap.dedent('''\
    import sys
    import mylib

    def main(argv):
        n = 0
        while n < len(argv):
            n += 1
        print("args", argv, n)
        print(mylib.classify([int(a) for a in argv if a.lstrip("-").isdigit()]))
        print("lib converted:", "ag__" in vars(mylib), "main converted:", "ag__" in globals())
        print("name:", __name__, "argv0:", sys.argv[0].endswith("prog.py"))
        if argv and argv[0] == "7":
            mylib.fail_on([1, 7], 7)
        return 3 if argv and argv[0] == "3" else 0

    if __name__ == "__main__":
        sys.exit(main(sys.argv[1:]))
    ''')


def run(*args, cwd):
    env = dict(os.environ)
    # (the tree under test first when one is on the path, as in a worktree)
    env["PYTHONPATH"] = os.pathsep.join([str(cwd), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run([*AUTOGRAPH, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _proj(tmp_path):
    (tmp_path / "mylib.py").write_text(LIB)
    (tmp_path / "prog.py").write_text(SCRIPT)
    return tmp_path


def test_run_script_with_converted_module_and_args(tmp_path):
    proj = _proj(tmp_path)
    r = run("run", "--convert", "mylib", "prog.py", "-1", "0", "2", cwd=proj)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "args ['-1', '0', '2'] 3",
        "['neg', 'zero', 'pos']",
        "lib converted: True main converted: True",
        "name: __main__ argv0: True",
    ]
    # Options after the script belong to the script.
    r = run("run", "prog.py", "--convert", "-m", cwd=proj)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("args ['--convert', '-m'] 2\n")
    r = run("run", "--no-convert-main", "prog.py", cwd=proj)
    assert "lib converted: False main converted: False" in r.stdout


def test_run_exit_codes_and_program_tracebacks(tmp_path):
    proj = _proj(tmp_path)
    assert run("run", "--convert", "mylib", "prog.py", "3", cwd=proj).returncode == 3
    r = run("run", "--convert", "mylib", "prog.py", "7", cwd=proj)
    assert r.returncode == 1
    lib_line = LIB.splitlines().index("            raise KeyError(x)") + 1
    assert r.stderr.startswith("Traceback (most recent call last):")
    assert f'File "{proj / "mylib.py"}", line {lib_line}, in ' in r.stderr
    assert 'prog.py", line 13, in main' in r.stderr
    assert "autograph_cli/cli.py" not in r.stderr and "click" not in r.stderr
    assert r.stderr.rstrip().endswith("KeyError: 7")


def test_run_module_with_dash_m(tmp_path):
    proj = _proj(tmp_path)
    pkg = proj / "tool"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text(textwrap.dedent('''\
        import sys
        import mylib
        total = 0
        for a in sys.argv[1:]:
            if a.isdigit():
                total += int(a)
        print(total, mylib.classify([total]), "ag__" in vars(mylib), "ag__" in globals())
        '''))
    r = run("run", "--convert", "mylib", "-m", "tool", "1", "x", "2", cwd=proj)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "3 ['pos'] True True"
    r = run("run", "-m", "no_such_module_here", cwd=proj)
    assert r.returncode == 2 and r.stderr.startswith("no_such_module_here:1:1: ")


def test_run_bad_script_is_one_located_line(tmp_path):
    (tmp_path / "bad.py").write_text("x = (\n")
    r = run("run", "bad.py", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith("bad.py:1:") and "Traceback" not in r.stderr
    r = run("run", "missing.py", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("missing.py:1:1: ")
    assert run("run", cwd=tmp_path).returncode == 2


def test_everything_after_dash_m_module_is_the_modules(tmp_path):
    # As `python -m app ARGS`: -h, --convert, -- and the rest are app's own.
    (tmp_path / "app.py").write_text("import sys\nprint(sys.argv[1:])\n")
    for args, want in [
        (["-m", "app", "-h"], "['-h']"),
        (["-m", "app", "--convert", "zz", "--verbose"], "['--convert', 'zz', '--verbose']"),
        (["-m", "app", "--", "--x"], "['--', '--x']"),
        (["--convert", "app", "-m", "app", "--no-convert-main"], "['--no-convert-main']"),
        (["-mapp", "a"], "['a']"),
    ]:
        r = run("run", *args, cwd=tmp_path)
        assert (r.returncode, r.stdout.strip(), r.stderr) == (0, want, ""), args


def test_dash_m_errors_are_reported_as_python_reports_them(tmp_path):
    (tmp_path / "nomain").mkdir()
    (tmp_path / "nomain" / "__init__.py").write_text("")
    r = run("run", "-m", "nomain", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("nomain:1:1: ") and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    # A parent package that raises: the program's error, with its traceback.
    (tmp_path / "brk").mkdir()
    (tmp_path / "brk" / "__init__.py").write_text("x = 1 / 0\n")
    (tmp_path / "brk" / "sub.py").write_text("print('never')\n")
    r = run("run", "-m", "brk.sub", cwd=tmp_path)
    assert r.returncode == 1
    assert f'File "{tmp_path / "brk" / "__init__.py"}", line 1' in r.stderr
    assert r.stderr.rstrip().endswith("ZeroDivisionError: division by zero") and "internal error" not in r.stderr


def test_a_script_runs_with_an_absolute_file_name_as_under_python(tmp_path):
    (tmp_path / "where.py").write_text("print(__file__)\n")
    plain = subprocess.run([sys.executable, "where.py"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert run("run", "where.py", cwd=tmp_path).stdout == plain == f"{tmp_path / 'where.py'}\n"


def test_a_scripts_own_converters_module_is_the_one_it_imports(tmp_path):
    (tmp_path / "converters.py").write_text("NAME = 'mine'\n")
    (tmp_path / "s.py").write_text("import converters\nprint(converters.NAME)\n")
    for args in (["s.py"], ["--no-convert-main", "s.py"], ["-m", "s"]):
        r = run("run", *args, cwd=tmp_path)
        assert (r.returncode, r.stdout, r.stderr) == (0, "mine\n", ""), args


CLICK_PROGRAM = textwrap.dedent('''\
    import click

    print("context outside:", click.get_current_context(silent=True))


    @click.command()
    @click.option("--n", type=int, default=2)
    @click.pass_context
    def cli(ctx, n):
        assert click.get_current_context() is ctx
        for i in range(n):
            if i % 2:
                click.echo(f"odd {i}")
        click.echo("click converted: %s" % ("ag__" in vars(click.core)))


    cli(["--n", "4"], standalone_mode=False)
    print("context after:", click.get_current_context(silent=True))
    ''')


def test_a_click_program_runs_outside_autographs_own_click_context(tmp_path):
    # (autograph's command line is a click program: its context was the
    # program's "current context"; click's own suite failed on it)
    (tmp_path / "clickprog.py").write_text(CLICK_PROGRAM)
    r = run("run", "clickprog.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["context outside: None", "odd 1", "odd 3", "click converted: False",
                                     "context after: None"]


def test_convert_click_converts_the_click_autograph_itself_imported(tmp_path):
    # (autograph imports click before the program runs: ``--convert click``
    # gives the program its own converted copy, as it would import it)
    (tmp_path / "clickprog.py").write_text(CLICK_PROGRAM)
    r = run("run", "--convert", "click", "clickprog.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["context outside: None", "odd 1", "odd 3", "click converted: True",
                                     "context after: None"]
    assert "warning" not in r.stderr
