"""Seed 000 (tf.function guide, TF 2.0 alpha): its examples with
`import autograph_cli.tf as tf`, checked against what the guide says they do."""
from __future__ import annotations

import contextlib
import inspect

import autograph_cli.tf as tf


@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class as e:
        print("Caught expected exception \n  {}: {}".format(error_class, e))
    except Exception as e:
        print("Got unexpected exception \n  {}: {}".format(type(e), e))
    else:
        raise Exception("Expected {} to be raised but no error was raised!".format(error_class))


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_python_or_tensor_args(capsys):
    def train_one_step():
        pass

    @tf.function
    def train(num_steps):
        print("Tracing with num_steps = {}".format(num_steps))
        for _ in tf.range(num_steps):
            train_one_step()

    train(num_steps=10)
    train(num_steps=20)
    train(num_steps=tf.constant(10))
    train(num_steps=tf.constant(20))
    assert capsys.readouterr().out == (
        "Tracing with num_steps = 10\nTracing with num_steps = 20\n"
        'Tracing with num_steps = Tensor("num_steps:0", shape=(), dtype=int32)\n'
    )


def test_side_effects(capsys):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)

    f(1)
    f(1)
    f(2)
    out = capsys.readouterr()
    assert out.out == "Traced with 1\nTraced with 2\n"
    assert out.err == "Executed with 1\nExecuted with 1\nExecuted with 2\n"

    external_list = []

    def side_effect(x):
        print("Python side effect")
        external_list.append(x)

    @tf.function
    def g(x):
        tf.py_function(side_effect, inp=[x], Tout=[])

    g(1)
    g(1)
    g(1)
    assert len(external_list) == 3
    assert external_list[0].numpy() == 1
    assert capsys.readouterr().out == "Python side effect\n" * 3


def test_beware_of_python_state(capsys):
    external_var = tf.Variable(0)

    @tf.function
    def buggy_consume_next(iterator):
        external_var.assign_add(next(iterator))
        tf.print("Value of external_var:", external_var)

    iterator = iter([0, 1, 2, 3])
    buggy_consume_next(iterator)
    buggy_consume_next(iterator)
    buggy_consume_next(iterator)
    assert capsys.readouterr().err == "Value of external_var: 0\n" * 3


def test_graph_size_of_python_data_vs_datasets(capsys):
    def measure_graph_size(f, *args):
        g = f.get_concrete_function(*args).graph
        return len(g.as_graph_def().node)

    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    small_data = [(1, 1)] * 2
    big_data = [(1, 1)] * 10
    assert measure_graph_size(train, small_data) < measure_graph_size(train, big_data)
    small = tf.data.Dataset.from_generator(lambda: small_data, (tf.int32, tf.int32))
    big = tf.data.Dataset.from_generator(lambda: big_data, (tf.int32, tf.int32))
    assert measure_graph_size(train, small) == measure_graph_size(train, big)
    assert train(big).numpy() == 0
    assert train(tf.data.Dataset.from_generator(lambda: [(1, 3)] * 4, (tf.int32, tf.int32))).numpy() == 8


def test_automatic_control_dependencies():
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    assert f(1.0, 2.0).numpy() == 10.0


def test_variables(capsys):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        v.assign_add(x)
        return v

    with assert_raises(ValueError):
        f(1.0)
    assert "singleton tf.Variables" in capsys.readouterr().out

    v = tf.Variable(1.0)

    @tf.function
    def g(x):
        return v.assign_add(x)

    print(g(1.0))
    print(g(2.0))

    class C:
        pass

    obj = C()
    obj.v = None

    @tf.function
    def h(x):
        if obj.v is None:
            obj.v = tf.Variable(1.0)
        return obj.v.assign_add(x)

    print(h(1.0))
    print(h(2.0))

    state = []

    @tf.function
    def fn(x):
        if not state:
            state.append(tf.Variable(2.0 * x))
            state.append(tf.Variable(state[0] * 3.0))
        return state[0] * x * state[1]

    print(fn(tf.constant(1.0)))
    print(fn(tf.constant(3.0)))
    assert capsys.readouterr().out == (
        "tf.Tensor(2.0, shape=(), dtype=float32)\ntf.Tensor(4.0, shape=(), dtype=float32)\n" * 2
        + "tf.Tensor(12.0, shape=(), dtype=float32)\ntf.Tensor(36.0, shape=(), dtype=float32)\n"
    )


def test_autograph_conditionals_and_loops(capsys):
    def test_tf_cond(f, *args):
        g = f.get_concrete_function(*args).graph
        if any(node.name == "cond" for node in g.as_graph_def().node):
            print("{}({}) uses tf.cond.".format(f.__name__, ", ".join(map(str, args))))
        else:
            print("{}({}) executes normally.".format(f.__name__, ", ".join(map(str, args))))

    @tf.function
    def hyperparam_cond(x, training=True):
        if training:
            x = tf.nn.dropout(x, rate=0.5)
        return x

    @tf.function
    def maybe_tensor_cond(x):
        if x < 0:
            x = -x
        return x

    test_tf_cond(hyperparam_cond, tf.ones([1], dtype=tf.float32))
    test_tf_cond(maybe_tensor_cond, tf.constant(-1))
    test_tf_cond(maybe_tensor_cond, -1)

    def test_dynamically_unrolled(f, *args):
        g = f.get_concrete_function(*args).graph
        if any(node.name == "while" for node in g.as_graph_def().node):
            print("{}({}) uses tf.while_loop.".format(f.__name__, ", ".join(map(str, args))))
        elif any(node.name == "ReduceDataset" for node in g.as_graph_def().node):
            print("{}({}) uses tf.data.Dataset.reduce.".format(f.__name__, ", ".join(map(str, args))))
        else:
            print("{}({}) gets unrolled.".format(f.__name__, ", ".join(map(str, args))))

    @tf.function
    def for_in_range():
        x = 0
        for i in range(5):
            x += i
        return x

    @tf.function
    def for_in_tfrange():
        x = tf.constant(0, dtype=tf.int32)
        for i in tf.range(5):
            x += i
        return x

    @tf.function
    def for_in_tfdataset():
        x = tf.constant(0, dtype=tf.int64)
        for i in tf.data.Dataset.range(5):
            x += i
        return x

    test_dynamically_unrolled(for_in_range)
    test_dynamically_unrolled(for_in_tfrange)
    test_dynamically_unrolled(for_in_tfdataset)

    @tf.function
    def while_py_cond():
        x = 5
        while x > 0:
            x -= 1
        return x

    @tf.function
    def while_tf_cond():
        x = tf.constant(5)
        while x > 0:
            x -= 1
        return x

    test_dynamically_unrolled(while_py_cond)
    test_dynamically_unrolled(while_tf_cond)

    @tf.function
    def buggy_while_py_true_tf_break(x):
        while True:
            if tf.equal(x, 0):
                break
            x -= 1
        return x

    @tf.function
    def while_tf_true_tf_break(x):
        while tf.constant(True):
            if tf.equal(x, 0):
                break
            x -= 1
        return x

    # as the seed: a break that depends on a tensor needs a tensor loop
    with assert_raises(TypeError):
        test_dynamically_unrolled(buggy_while_py_true_tf_break, 5)
    test_dynamically_unrolled(while_tf_true_tf_break, 5)

    @tf.function
    def buggy_py_for_tf_break():
        x = 0
        for i in range(5):
            if tf.equal(i, 3):
                break
            x += i
        return x

    @tf.function
    def tf_for_tf_break():
        x = 0
        for i in tf.range(5):
            if tf.equal(i, 3):
                break
            x += i
        return x

    with assert_raises(TypeError):
        test_dynamically_unrolled(buggy_py_for_tf_break)
    test_dynamically_unrolled(tf_for_tf_break)
    lines = capsys.readouterr().out.splitlines()
    caught = [i for i, line in enumerate(lines) if line.startswith("  <class 'TypeError'>") or line.startswith("  <class")]
    assert [line for i, line in enumerate(lines) if i not in caught] == [
        "hyperparam_cond(tf.Tensor([1.], shape=(1,), dtype=float32)) executes normally.",
        "maybe_tensor_cond(tf.Tensor(-1, shape=(), dtype=int32)) uses tf.cond.",
        "maybe_tensor_cond(-1) executes normally.",
        "for_in_range() gets unrolled.",
        "for_in_tfrange() uses tf.while_loop.",
        "for_in_tfdataset() uses tf.data.Dataset.reduce.",
        "while_py_cond() gets unrolled.",
        "while_tf_cond() uses tf.while_loop.",
        "Caught expected exception ",
        "while_tf_true_tf_break(5) uses tf.while_loop.",
        "Caught expected exception ",
        "tf_for_tf_break() uses tf.while_loop.",
    ]
    while_line = _line_of(buggy_while_py_true_tf_break.python_function, "while True:")
    for_line = _line_of(buggy_py_for_tf_break.python_function, "for i in range(5):")
    assert [lines[i] for i in caught] == [
        f"  <class 'TypeError'>: {__file__}:{while_line}: The condition of while loop started as non-Tensor, then "
        f"changed to Tensor: the `while` loop at line {while_line} began as a Python loop, and then a `break` or "
        "`return` inside it depended on a tensor condition, or a variable of its condition became a tensor. Make "
        "the condition a tensor from the start (while tf.constant(True): ...) so that the loop is staged.",
        f"  <class 'TypeError'>: {__file__}:{for_line}: break and return statements which depend on a TF condition "
        f"are not supported in Python for loops: the `for` loop at line {for_line} iterates over a Python range, and "
        "a `break` or `return` inside it depends on a tensor. Did you intend to make it a TF loop? Iterate over a "
        "tensor or a dataset (tf.range instead of range) so that the loop is staged.",
    ]


def test_loop_variable_rules(capsys):
    @tf.function
    def buggy_loop_var_uninitialized():
        for i in tf.range(3):
            x = i
        return x

    @tf.function
    def f():
        x = tf.constant(0)
        for i in tf.range(3):
            x = i
        return x

    # Seed 000 (TensorFlow 2.0 alpha) expects a ValueError here; current
    # TensorFlow, and this runtime, return the value the loop bound, and the
    # graph raises only when the loop ran zero times (see
    # test_staged_control_flow.test_loop_variable_errors_name_variable_and_line).
    print(buggy_loop_var_uninitialized())
    print(f())

    @tf.function
    def buggy_loop_type_changes():
        x = tf.constant(0, dtype=tf.float32)
        for i in tf.range(3):
            x = i
        return x

    with assert_raises(tf.errors.InvalidArgumentError):
        buggy_loop_type_changes()

    @tf.function
    def buggy_concat():
        x = tf.ones([0, 10])
        for i in tf.range(5):
            x = tf.concat([x, tf.ones([1, 10])], axis=0)
        return x

    with assert_raises(ValueError):
        buggy_concat()

    @tf.function
    def concat_with_padding():
        x = tf.zeros([5, 10])
        for i in tf.range(5):
            x = tf.concat([x[:i], tf.ones([1, 10]), tf.zeros([4 - i, 10])], axis=0)
            x.set_shape([5, 10])
        return x

    assert concat_with_padding().shape == tf.TensorShape([5, 10])
    out = capsys.readouterr().out
    assert out.count("Caught expected exception") == 2
    assert out.count("tf.Tensor(2, shape=(), dtype=int32)") == 2
    assert "'x' has dtype float32 before the loop, but dtype int32 after one iteration" in out
    assert "'x' has shape (0, 10) before the loop, but shape (1, 10) after one iteration" in out
