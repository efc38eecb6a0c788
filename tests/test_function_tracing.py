"""`function`: the trace cache, signatures, concrete functions, variables."""
from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import autograph_cli.tf as tf
from autograph_cli.runtime.function import RetracingWarning


def _tracer():
    traces = []

    @tf.function
    def f(x):
        traces.append(x)
        return x

    return f, traces


def test_tensors_keyed_by_dtype_and_shape():
    f, traces = _tracer()
    f(tf.constant(1))
    f(tf.constant(2))
    assert len(traces) == 1
    f(tf.constant(1.0))
    f(tf.constant([1]))
    f(tf.constant([2]))
    assert len(traces) == 3


def test_python_primitives_keyed_by_value_and_type():
    f, traces = _tracer()
    f(1)
    f(1)
    f(2)
    f(True)
    f(1.0)
    assert len(traces) == 4
    assert f(3).numpy() == 3  # python outputs become tensors


def test_containers_keyed_by_structure():
    f, traces = _tracer()
    f([tf.constant(1), tf.constant(2)])
    f([tf.constant(3), tf.constant(4)])
    assert len(traces) == 1
    f((tf.constant(1), tf.constant(2)))
    f({"a": tf.constant(1)})
    f({"a": tf.constant(2)})
    assert len(traces) == 3
    out = f({"a": tf.constant(5), "b": [tf.constant(1.5)]})
    assert out["a"].numpy() == 5 and out["b"][0].numpy() == 1.5


def test_other_objects_keyed_by_identity_and_tracing_protocol():
    class Fruit:
        flavor = tf.constant([1, 2])

    @tf.function
    def flavor(fruit):
        calls.append(1)
        return fruit.flavor

    calls = []
    a = Fruit()
    flavor(a)
    flavor(a)
    assert len(calls) == 1
    b = Fruit()
    flavor(b)
    assert len(calls) == 2

    class FruitType(tf.types.experimental.TraceType):
        def __init__(self, fruit):
            self.fruit_type = type(fruit)
            self.fruit = fruit

        def placeholder_value(self, placeholder_context=None):
            return self.fruit

        def __eq__(self, other):
            return type(other) is FruitType and self.fruit_type is other.fruit_type

        def __hash__(self):
            return hash(self.fruit_type)

    class Typed:
        flavor = tf.constant([3, 4])

        def __tf_tracing_type__(self, context):
            return FruitType(self)

    calls.clear()
    flavor(Typed())
    flavor(Typed())
    assert len(calls) == 1


def test_input_signature_traces_once_and_rejects_incompatible_inputs():
    traces = []

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        traces.append(str(x))
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    assert next_collatz(tf.constant([1, 2])).numpy().tolist() == [4, 1]
    assert next_collatz(tf.constant([1, 2, 3, 4, 5])).numpy().tolist() == [4, 1, 10, 2, 16]
    assert next_collatz([3]).numpy().tolist() == [10]
    assert traces == ['Tensor("x:0", shape=(None,), dtype=int32)']
    with pytest.raises(ValueError, match="Python inputs incompatible with input_signature") as e:
        next_collatz(tf.constant([[1, 2], [3, 4]]))
    assert "TensorSpec(shape=(None,), dtype=tf.int32, name=None)" in str(e.value)
    with pytest.raises(ValueError):
        next_collatz(tf.constant([1.0, 2.0]))


def test_input_signature_must_be_specs():
    with pytest.raises(TypeError):
        tf.function(lambda x: x, input_signature=[1])


def test_concrete_functions():
    @tf.function
    def double(a):
        return a + a

    cf = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
    assert cf(tf.constant("a")).numpy() == b"aa"
    assert cf(a=tf.constant("b")).numpy() == b"bb"
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a int32 tensor"):
        cf(tf.constant(1))
    assert cf.structured_input_signature == ((tf.TensorSpec(None, tf.string, name="a"),), {})
    assert str(cf.structured_outputs) == 'Tensor("add:0", dtype=string)'
    assert str(cf) == (
        "ConcreteFunction double(a)\n  Args:\n    a: string Tensor, shape=<unknown>\n  Returns:\n"
        "    string Tensor, shape=<unknown>"
    )
    # the placeholder is named after the argument
    nodes = cf.graph.as_graph_def().node
    assert [(n.name, n.op, list(n.input)) for n in nodes] == [("a", "Placeholder", []), ("add", "AddV2", ["a", "a"])]


def test_concrete_function_python_arguments_are_bound():
    @tf.function
    def pow_(a, b):
        return a ** b

    square = pow_.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert square(tf.constant(10.0)).numpy() == 100
    with pytest.raises(TypeError):
        square(tf.constant(10.0), b=3)


def test_pretty_printed_concrete_signatures():
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)

    my_relu(tf.constant(5.5))
    my_relu([1, -1])
    my_relu(tf.constant([3.0, -3.0]))
    assert my_relu.pretty_printed_concrete_signatures() == (
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "my_relu(x=[1, -1])\n  Returns:\n    float32 Tensor, shape=(2,)\n\n"
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=(2,)\n  Returns:\n    float32 Tensor, shape=(2,)"
    )


def test_subtype_matching_reuses_general_traces():
    f, traces = _tracer()
    f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    f(tf.constant([1, 2, 3]))
    f(tf.constant([1]))
    assert len(traces) == 1


def test_reduce_retracing_relaxes_shapes():
    traces = []

    @tf.function(reduce_retracing=True)
    def f(x):
        traces.append(x.shape)
        return tf.reduce_sum(x)

    f(tf.ones([2]))
    f(tf.ones([3]))
    f(tf.ones([7]))
    assert traces == [tf.TensorShape([2]), tf.TensorShape([None])]
    assert f(tf.ones([9])).numpy() == 9


def test_frequent_retracing_warns():
    f, _ = _tracer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(6):
            f(i)
    assert any(issubclass(w.category, RetracingWarning) for w in caught)


def test_methods_traced_per_instance():
    class Model(tf.Module):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        @tf.function
        def __call__(self, x):
            return x * self.scale

    a, b = Model(2.0), Model(3.0)
    assert a(tf.constant(1.0)).numpy() == 2.0
    assert b(tf.constant(1.0)).numpy() == 3.0


def test_singleton_variable_rule():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        v.assign_add(x)
        return v

    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        f(1.0)

    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert [int(c()), int(c()), int(c())] == [1, 2, 3]


def test_automatic_control_dependencies_keep_program_order():
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    assert f(1.0, 2.0).numpy() == 10.0
    assert (a.numpy(), b.numpy()) == (4.0, 6.0)


def test_variable_initializers_may_depend_on_arguments():
    state = []

    @tf.function
    def fn(x):
        if not state:
            state.append(tf.Variable(2.0 * x))
            state.append(tf.Variable(state[0] * 3.0))
        return state[0] * x * state[1]

    assert fn(tf.constant(1.0)).numpy() == 12.0
    assert fn(tf.constant(3.0)).numpy() == 36.0


def test_non_strict_execution_skips_unneeded_ops():
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused: would fail
        return x

    assert unused_return_graph(tf.constant([0.0])).numpy().tolist() == [0.0]
    tf.config.run_functions_eagerly(True)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError):
            unused_return_graph(tf.constant([0.0]))
    finally:
        tf.config.run_functions_eagerly(False)


def test_run_functions_eagerly_runs_python_every_call(capsys):
    @tf.function
    def get_mse(y_true, y_pred):
        print("Calculating MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y_true = tf.constant([7, 2, 7, 5, 2])
    y_pred = tf.constant([9, 9, 0, 8, 8])
    for _ in range(3):
        assert int(get_mse(y_true, y_pred)) == 29
    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            assert int(get_mse(y_true, y_pred)) == 29
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 4


def test_functions_calling_functions_and_plain_functions():
    def inner(x, y, b):
        return tf.matmul(x, y) + b

    @tf.function
    def outer(x):
        return inner(x, tf.constant([[2.0], [3.0]]), tf.constant(4.0))

    @tf.function
    def add(a, b):
        return a + b

    @tf.function
    def dense(x, w, b):
        return add(tf.matmul(x, w), b)

    assert outer(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[12.0]]
    assert dense(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2])).numpy().tolist() == [[3.0, 3.0]] * 3


def test_autograph_off_rejects_tensor_conditions():
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="as a Python `bool` is not allowed"):
        tf.function(f, autograph=False)(tf.constant(1))
    assert tf.function(f)(tf.constant(-2)).numpy() == 2


def test_leaked_tensors():
    box = {}

    @tf.function
    def leaky(a):
        box["x"] = a + 1
        return a + 2

    assert leaky(tf.constant(1)).numpy() == 3
    with pytest.raises(AttributeError):
        box["x"].numpy()

    @tf.function
    def captures_leaked(b):
        return b + box["x"]

    with pytest.raises(TypeError, match="cannot be accessed here"):
        captures_leaked(tf.constant(2))


def test_recursion_with_python_values_traces_each_level(capsys):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print("tracing")
            return recursive_fn(n - 1)
        else:
            return 1

    assert recursive_fn(5).numpy() == 1
    assert capsys.readouterr().out == "tracing\n" * 5


def test_recursion_on_tensors_fails():
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1

    # (the seed: "Bad - maximum recursion error"; ours stops earlier, at the
    # tensor condition of the inner, unconverted call: OperatorNotAllowedInGraphError)
    with pytest.raises(Exception):  # noqa: B017
        recursive_fn(tf.constant(5))


def test_init_scope_lifts_ops_out_of_the_graph():
    class Model(tf.Module):
        def __init__(self, lifted):
            self.v = tf.Variable(0)
            self.counter = 0
            self.lifted = lifted

        @tf.function
        def __call__(self):
            if self.counter == 0:
                if self.lifted:
                    with tf.init_scope():
                        self.counter += 1
                        self.v.assign_add(1)
                else:
                    self.counter += 1
                    self.v.assign_add(1)
            return self.v

    m = Model(False)
    assert [m().numpy() for _ in range(3)] == [1, 2, 3]
    m = Model(True)
    assert [m().numpy() for _ in range(3)] == [1, 1, 1]


def test_py_function_runs_every_call():
    seen = []

    @tf.function
    def f(x):
        tf.py_function(lambda v: seen.append(v), inp=[x], Tout=[])
        return tf.py_function(lambda v: v * 2, inp=[x], Tout=tf.int32)

    assert [int(f(1)) for _ in range(3)] == [2, 2, 2]
    assert len(seen) == 3 and seen[0].numpy() == 1


def test_gradients_through_functions_conds_and_loops():
    @tf.function
    def g(x):
        if tf.reduce_sum(x) > 0:
            y = x * x
        else:
            y = -x
        i = tf.constant(0)
        while i < 3:
            y = y * 2.0
            i += 1
        return tf.reduce_sum(y)

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = g(x)
    assert out.numpy() == 40.0
    assert tape.gradient(out, x).numpy().tolist() == [16.0, 32.0]
    v = tf.Variable(1.0)

    @tf.function
    def add(a, b):
        return a + b

    with tf.GradientTape() as tape:
        result = add(v, 1.0)
    assert tape.gradient(result, v).numpy() == 1.0


def test_datasets_inside_and_outside_functions():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    assert [int(x) for x in ds] == [1, 2, 3]

    @tf.function
    def total(dataset):
        s = tf.constant(0)
        for x in dataset:
            s += x
        return s

    assert int(total(ds)) == 6
    assert int(total(tf.data.Dataset.range(5).map(lambda x: tf.cast(x, tf.int32) * 2))) == 20

    @tf.function
    def consume(iterator):
        return next(iterator)

    it = iter(ds)
    assert [int(consume(it)) for _ in range(3)] == [1, 2, 3]


def test_functions_accept_the_api_reference_arguments():
    f = tf.function(lambda x: x + 1, experimental_relax_shapes=True, experimental_compile=False,
                    experimental_autograph_options=(tf.autograph.experimental.Feature.ALL,))
    assert f(tf.constant(1)).numpy() == 2
    g = tf.function(jit_compile=True)(lambda x: x * 2)
    assert g(tf.constant(2)).numpy() == 4


def test_print_runs_at_every_call(capsys):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x, output_stream=sys.stdout)

    f(1)
    f(1)
    f(2)
    assert capsys.readouterr().out == (
        "Traced with 1\nExecuted with 1\nExecuted with 1\nTraced with 2\nExecuted with 2\n"
    )


def test_numpy_values_are_baked_in_as_constants():
    def add_noise():
        return tf.eye(5) + np.random.randn(5, 5).astype(np.float32)

    traced = tf.function(add_noise)
    assert np.array_equal(traced().numpy(), traced().numpy())


def test_method_with_input_signature():
    class Scale(tf.Module):
        def __init__(self, k):
            self.k = tf.Variable(k)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            return x * self.k

    a, b = Scale(2.0), Scale(3.0)
    assert a(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert b(tf.constant([1.0])).numpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="incompatible with input_signature"):
        a(tf.constant([[1.0]]))
    assert a.__call__.get_concrete_function().structured_input_signature[0][1].shape == tf.TensorShape([None])


def test_runtime_errors_name_the_node_and_the_users_line():
    @tf.function
    def pick(x, i):
        y = x * 2
        return tf.gather(y, i)

    assert pick(tf.constant([1, 2]), tf.constant(1)).numpy() == 4
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        pick(tf.constant([1, 2]), tf.constant(5))
    import inspect

    lines, start = inspect.getsourcelines(pick.python_function)
    line = start + next(i for i, text in enumerate(lines) if "tf.gather" in text)
    assert "indices[] = 5 is not in [0, 2)" in str(e.value)
    assert f"[[node GatherV2 (defined at {__file__}:{line})]]" in str(e.value)


def test_function_of_a_bound_method_is_converted():
    class Counter:
        def __init__(self):
            self.limit = 3

        def run(self, x):
            n = 0
            while x > self.limit:
                x -= 1
                n += 1
            return n

    c = Counter()
    f = tf.function(c.run)
    assert f(tf.constant(10)).numpy() == 7
    assert "while" in [n.name for n in f.get_concrete_function(tf.constant(1)).graph.as_graph_def().node]


def test_a_staged_assert_fails_with_the_users_message_at_run_time():
    calls = []

    def message(x):
        calls.append(x)
        return f"x must be positive, got a tensor of shape {x.shape}"

    @tf.function
    def checked(x):
        assert x > 0, message(x)
        return x * 2

    assert checked(tf.constant(3)).numpy() == 6
    assert len(calls) == 1  # the message is built once, while tracing
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        checked(tf.constant(-1))
    import inspect

    lines, start = inspect.getsourcelines(checked.python_function)
    line = start + next(i for i, text in enumerate(lines) if "assert x > 0" in text)
    assert "x must be positive, got a tensor of shape ()" in str(e.value)
    assert f"(defined at {__file__}:{line})" in str(e.value)
    assert len(calls) == 1  # no retrace


def test_an_assert_on_python_values_stays_pythons_assert():
    calls = []

    def message(x):
        calls.append(x)
        return f"x must be positive, got {x}"

    def checked(x):
        assert x > 0, message(x)
        return x * 2

    from autograph_cli import operators, to_graph

    converted = to_graph(checked)
    prev = operators.force_functional(True)  # the form that runs under a trace
    try:
        assert converted(3) == 6 and calls == []  # the message only on failure
        with pytest.raises(AssertionError, match="x must be positive, got -1"):
            converted(-1)
    finally:
        operators.force_functional(prev)
    assert calls == [-1]


def test_dict_arguments_in_any_insertion_order():
    """A dict argument whose insertion order is not its sorted-key order:
    each placeholder receives its own key's value (the trace's inputs were
    made in insertion order and fed in sorted order: 'w' read 'b')."""
    @tf.function
    def f(d):
        return d["w"] - d["b"], {"w": d["w"], "b": d["b"]}

    diff, out = f({"w": tf.constant(10), "b": tf.constant(1)})
    assert int(diff) == 9 and (int(out["w"]), int(out["b"])) == (10, 1)
    assert list(out) == ["w", "b"]
    cf = f.get_concrete_function({"w": tf.TensorSpec([], tf.int32), "b": tf.TensorSpec([], tf.int32)})
    diff, out = cf({"w": tf.constant(7), "b": tf.constant(5)})
    assert int(diff) == 2 and int(out["w"]) == 7
    params = {"dense": {"w": tf.constant([[1.0, 2.0]]), "b": tf.constant([0.5])}}
    new = tf.function(lambda p: tf.nest.map_structure(lambda t: t * 2, p))(params)
    assert new["dense"]["w"].shape == (1, 2) and float(new["dense"]["b"][0]) == 1.0


def test_symbolic_tensor_str_and_repr_are_tensorflows():
    seen = []

    @tf.function
    def f(n):
        seen.append((str(n), repr(n), repr([n])))
        return n

    f(tf.constant(1))
    assert seen == [('Tensor("n:0", shape=(), dtype=int32)', "<tf.Tensor 'n:0' shape=() dtype=int32>",
                     "[<tf.Tensor 'n:0' shape=() dtype=int32>]")]
