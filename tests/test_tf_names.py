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


def test_engine_columns_are_read_from_the_op_table():
    from autograph_cli.runtime.opdef import REGISTRY

    row = next(r for r in _names.engines_table().splitlines() if r.startswith("| `tf.linalg.cholesky` |"))
    assert "Cholesky" in row
    had = REGISTRY["Cholesky"].lowerings.pop("onnx", None)
    try:
        before = next(r for r in _names.engines_table().splitlines() if r.startswith("| `tf.linalg.cholesky` |"))
        REGISTRY["Cholesky"].lowerings["onnx"] = lambda cx, node, ins: ins
        after = next(r for r in _names.engines_table().splitlines() if r.startswith("| `tf.linalg.cholesky` |"))
    finally:
        REGISTRY["Cholesky"].lowerings.pop("onnx", None)
        if had is not None:
            REGISTRY["Cholesky"].lowerings["onnx"] = had
    cells = lambda r: [c.strip() for c in r.strip("|").split("|")]  # noqa: E731
    head = cells(_names.engines_table().splitlines()[0])
    col = head.index("ONNX export")
    assert cells(before)[col] == "no" and cells(after)[col] == "yes"


def test_ops_of_follows_the_families_helpers():
    import autograph_cli.tf as tf

    assert _names.ops_of(tf.add) == {"AddV2"}
    assert {"Sum", "SumDyn"} <= _names.ops_of(tf.reduce_sum)
    assert "Softmax" in _names.ops_of(tf.nn.softmax)
    assert _names.ops_of(tf.function) == set()


def test_onnx_lowerings_live_on_the_op_table():
    from autograph_cli.export import _onnx
    from autograph_cli.runtime.opdef import REGISTRY

    onnx_ops = {n for n, op in REGISTRY.items() if "onnx" in op.lowerings}
    # (a lowering marked exportable=False only explains the refusal: not in the table)
    refusing = {n for n in onnx_ops if not getattr(REGISTRY[n].lowerings["onnx"], "exportable", True)}
    assert "EagerPyFunc" in refusing
    assert onnx_ops - refusing == set(_onnx.LOWERINGS) == set(_onnx.lowerings())
    assert REGISTRY["AddV2"].lowerings["onnx"] is _onnx.LOWERINGS["AddV2"]


# One call per declared static-only argument, given a symbolic int32 scalar `n`
# (known only when the graph runs): each must be refused, naming the function
# and the argument. Together with the checks refusing undeclared arguments
# (shape_args._declared), the README's column is exactly what the code enforces.
def _static_calls():
    import autograph_cli.tf as tf

    x = lambda: tf.ones([2, 2])  # noqa: E731
    f = lambda n: tf.cast(n, tf.float32)  # noqa: E731
    seed = [1, 2]
    return {
        ("tf.transpose", "perm"): lambda n: tf.transpose(x(), perm=[n, 1 - n]),
        ("tf.concat", "axis"): lambda n: tf.concat([x(), x()], axis=n),
        ("tf.stack", "axis"): lambda n: tf.stack([x(), x()], axis=n),
        ("tf.unstack", "axis"): lambda n: tf.unstack(x(), axis=n),
        ("tf.expand_dims", "axis"): lambda n: tf.expand_dims(x(), n),
        ("tf.squeeze", "axis"): lambda n: tf.squeeze(tf.ones([1, 2]), axis=[n]),
        ("tf.gather", "axis"): lambda n: tf.gather(x(), [0], axis=n),
        ("tf.gather", "batch_dims"): lambda n: tf.gather(x(), [[0], [1]], batch_dims=n),
        ("tf.eye", "batch_shape"): lambda n: tf.eye(2, batch_shape=[n]),
        ("tf.gather_nd", "batch_dims"): lambda n: tf.gather_nd(x(), [[0], [1]], batch_dims=n),
        ("tf.reverse", "axis"): lambda n: tf.reverse(x(), [n]),
        ("tf.math.bincount", "minlength"): lambda n: tf.math.bincount(tf.constant([1, 2]), minlength=n),
        ("tf.math.bincount", "maxlength"): lambda n: tf.math.bincount(tf.constant([1, 2]), maxlength=n),
        ("tf.split", "num_or_size_splits"): lambda n: tf.split(x(), n),
        ("tf.split", "axis"): lambda n: tf.split(x(), 2, axis=n),
        ("tf.sort", "axis"): lambda n: tf.sort(x(), axis=n),
        ("tf.argsort", "axis"): lambda n: tf.argsort(x(), axis=n),
        ("tf.boolean_mask", "axis"): lambda n: tf.boolean_mask(x(), [True, False], axis=n),
        ("tf.linspace", "axis"): lambda n: tf.linspace(tf.zeros([2]), tf.ones([2]), 3, axis=n),
        ("tf.norm", "axis"): lambda n: tf.norm(x(), axis=n),
        ("tf.math.argmax", "axis"): lambda n: tf.math.argmax(x(), axis=n),
        ("tf.math.argmin", "axis"): lambda n: tf.math.argmin(x(), axis=n),
        ("tf.math.cumsum", "axis"): lambda n: tf.math.cumsum(x(), axis=n),
        ("tf.math.cumprod", "axis"): lambda n: tf.math.cumprod(x(), axis=n),
        ("tf.random.stateless_uniform", "minval"): lambda n: tf.random.stateless_uniform([2], seed, minval=f(n)),
        ("tf.random.stateless_uniform", "maxval"): lambda n: tf.random.stateless_uniform([2], seed, maxval=f(n)),
        ("tf.random.stateless_normal", "mean"): lambda n: tf.random.stateless_normal([2], seed, mean=f(n)),
        ("tf.random.stateless_normal", "stddev"): lambda n: tf.random.stateless_normal([2], seed, stddev=f(n)),
        ("tf.random.stateless_truncated_normal", "mean"):
            lambda n: tf.random.stateless_truncated_normal([2], seed, mean=f(n)),
        ("tf.random.stateless_truncated_normal", "stddev"):
            lambda n: tf.random.stateless_truncated_normal([2], seed, stddev=f(n)),
        ("tf.random.truncated_normal", "mean"): lambda n: tf.random.truncated_normal([2], mean=f(n)),
        ("tf.random.truncated_normal", "stddev"): lambda n: tf.random.truncated_normal([2], stddev=f(n)),
    }


def test_every_declared_static_argument_is_refused_when_symbolic():
    import pytest

    import autograph_cli.tf as tf
    from autograph_cli.runtime.ops.shape_args import STATIC_ARGS, StaticArgumentError

    calls = _static_calls()
    assert sorted(calls) == sorted((name, a) for name, args in STATIC_ARGS.items() for a in args)
    for (name, arg), call in calls.items():
        fn = tf.function(call, input_signature=[tf.TensorSpec([], tf.int32)])
        with pytest.raises(StaticArgumentError, match=f"{name}: argument `{arg}`"):
            fn.get_concrete_function()
        call(tf.constant({"num_or_size_splits": 2, "maxval": 1, "stddev": 1}.get(arg, 0)))  # a known value is fine


def test_a_static_check_on_an_undeclared_argument_is_an_internal_error():
    import pytest

    from autograph_cli.runtime.ops import shape_args as sa

    with pytest.raises(AssertionError, match="tf.concat requires a static `values` without declaring it"):
        sa.require_static_int(0, "tf.concat", "values")
    with pytest.raises(AssertionError, match="tf.not_a_name"):
        sa.static_argument_error("tf.not_a_name", "axis", "must be static")
