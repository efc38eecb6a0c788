"""Seed 001 ("Better performance with tf.function"): its examples with
`import autograph_cli.tf as tf`, printing what the guide says they print."""
from __future__ import annotations

import contextlib
import traceback

import autograph_cli.tf as tf


@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class:
        print("Caught expected exception \n  {}:".format(error_class))
        traceback.print_exc(limit=2)
    except Exception as e:
        raise e
    else:
        raise Exception("Expected {} to be raised but no error was raised!".format(error_class))


def test_concrete_functions_and_graphs(capsys):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    print(double(tf.constant("b")))
    print("Obtaining concrete trace")
    double_strings = double.get_concrete_function(tf.constant("a"))
    print("Executing traced function")
    print(double_strings(tf.constant("a")))
    print(double_strings(a=tf.constant("b")))
    double_strings_from_inputspec = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    print(double_strings_from_inputspec(tf.constant("c")))
    print(double_strings)
    print(double_strings.structured_input_signature)
    print(double_strings.structured_outputs)
    with assert_raises(tf.errors.InvalidArgumentError):
        double_strings(tf.constant(1))
    graph = double_strings.graph
    for node in graph.as_graph_def().node:
        print(f"{node.input} -> {node.name}")

    @tf.function
    def pow(a, b):  # noqa: A001 - the seed's name
        return a ** b

    square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    print(square)
    assert square(tf.constant(10.0)) == 100
    with assert_raises(TypeError):
        square(tf.constant(10.0), b=3)
    assert capsys.readouterr().out == """\
Tracing with Tensor("a:0", shape=(), dtype=string)
tf.Tensor(b'bb', shape=(), dtype=string)
Obtaining concrete trace
Executing traced function
tf.Tensor(b'aa', shape=(), dtype=string)
tf.Tensor(b'bb', shape=(), dtype=string)
tf.Tensor(b'cc', shape=(), dtype=string)
ConcreteFunction double(a)
  Args:
    a: string Tensor, shape=()
  Returns:
    string Tensor, shape=()
((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})
Tensor("add:0", shape=(), dtype=string)
Caught expected exception 
  <class 'autograph_cli.runtime.errors.InvalidArgumentError'>:
[] -> a
['a', 'a'] -> add
ConcreteFunction pow(a, b=2)
  Args:
    a: float32 Tensor, shape=<unknown>
  Returns:
    float32 Tensor, shape=<unknown>
Caught expected exception 
  <class 'TypeError'>:
"""


def test_new_function_objects_do_not_share_traces(capsys):
    def f():
        print("Tracing!")
        tf.print("Executing")

    tf.function(f)()
    tf.function(f)()
    out = capsys.readouterr()
    assert (out.out, out.err) == ("Tracing!\n" * 2, "Executing\n" * 2)


def test_tracing_protocol(capsys):
    traces = []

    @tf.function
    def get_mixed_flavor(fruit_a, fruit_b):
        traces.append(1)
        return fruit_a.flavor + fruit_b.flavor

    class Fruit:
        flavor = tf.constant([0, 0])

    class Apple(Fruit):
        flavor = tf.constant([1, 2])

    class Mango(Fruit):
        flavor = tf.constant([3, 4])

    assert get_mixed_flavor(Apple(), Mango()).numpy().tolist() == [4, 6]

    class FruitTraceType(tf.types.experimental.TraceType):
        def __init__(self, fruit):
            self.fruit_type = type(fruit)
            self.fruit_value = fruit

        def is_subtype_of(self, other):
            return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

        def most_specific_common_supertype(self, others):
            return self if all(self == other for other in others) else None

        def placeholder_value(self, placeholder_context=None):
            return self.fruit_value

        def __eq__(self, other):
            return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

        def __hash__(self):
            return hash(self.fruit_type)

    class FruitWithTraceType:
        def __tf_tracing_type__(self, context):
            return FruitTraceType(self)

    class AppleWithTraceType(FruitWithTraceType):
        flavor = tf.constant([1, 2])

    class MangoWithTraceType(FruitWithTraceType):
        flavor = tf.constant([3, 4])

    traces.clear()
    get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())
    get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())
    assert len(traces) == 1


def test_python_side_effects_happen_at_trace_time(capsys):
    external_list = []

    @tf.function
    def side_effect(x):
        print("Python side effect")
        external_list.append(x)

    side_effect(1)
    side_effect(1)
    side_effect(1)
    assert len(external_list) == 1

    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                self.counter += 1
                self.v.assign_add(1)
            return self.v

    m = Model()
    for n in range(3):
        print(m().numpy())

    class Model2(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                with tf.init_scope():
                    self.counter += 1
                    self.v.assign_add(1)
            return self.v

    m = Model2()
    for n in range(3):
        print(m().numpy())
    assert capsys.readouterr().out == "Python side effect\n1\n2\n3\n1\n1\n1\n"


def test_iterators(capsys):
    @tf.function
    def buggy_consume_next(iterator):
        tf.print("Value:", next(iterator))

    iterator = iter([1, 2, 3])
    buggy_consume_next(iterator)
    buggy_consume_next(iterator)
    buggy_consume_next(iterator)

    @tf.function
    def good_consume_next(iterator):
        tf.print("Value:", next(iterator))

    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    iterator = iter(ds)
    good_consume_next(iterator)
    good_consume_next(iterator)
    good_consume_next(iterator)
    assert capsys.readouterr().err == "Value: 1\n" * 3 + "Value: 1\nValue: 2\nValue: 3\n"


def test_outputs_must_be_return_values(capsys):
    x = None

    @tf.function
    def leaky_function(a):
        nonlocal x
        x = a + 1
        return a + 2

    correct_a = leaky_function(tf.constant(1))
    print(correct_a.numpy())
    try:
        x.numpy()
    except AttributeError as expected:
        print(expected)

    @tf.function
    def leaky_function2(a):
        nonlocal x
        x = a + 1
        return x

    print(leaky_function2(tf.constant(1)).numpy())

    @tf.function
    def captures_leaked_tensor(b):
        b += x
        return b

    with assert_raises(TypeError):
        captures_leaked_tensor(tf.constant(2))
    assert capsys.readouterr().out == (
        "3\n'SymbolicTensor' object has no attribute 'numpy'\n2\nCaught expected exception \n  <class 'TypeError'>:\n"
    )


def test_recursive_functions(capsys):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1

    with assert_raises(Exception):
        recursive_fn(tf.constant(5))

    @tf.function
    def recursive_fn2(n):
        if n > 0:
            print("tracing")
            return recursive_fn2(n - 1)
        else:
            return 1

    recursive_fn2(5)
    assert capsys.readouterr().out == "Caught expected exception \n  <class 'Exception'>:\n" + "tracing\n" * 5


def test_known_issues_globals_and_objects(capsys):
    g = {"foo": 1}

    @tf.function
    def buggy_add():
        return 1 + g["foo"]

    @tf.function
    def recommended_add(foo):
        return 1 + foo

    print("Buggy:", buggy_add())
    print("Correct:", recommended_add(g["foo"]))
    print("Updating the value of `foo` to 100!")
    g["foo"] = 100
    print("Buggy:", buggy_add())
    print("Correct:", recommended_add(g["foo"]))

    foo = tf.Variable(1)

    @tf.function
    def variable_add():
        return 1 + foo

    print("Variable:", variable_add())
    foo.assign(100)
    print("Variable:", variable_add())

    class SimpleModel(tf.Module):
        def __init__(self):
            self.bias = 0.0
            self.weight = 2.0

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    simple_model = SimpleModel()
    x = tf.constant(10.0)
    print(evaluate(simple_model, x))
    simple_model.bias += 5.0
    print(evaluate(simple_model, x))

    def evaluate_py(model, x):
        return model.weight * x + model.bias

    new_model = SimpleModel()
    evaluate_no_bias = tf.function(evaluate_py).get_concrete_function(new_model, x)
    print(evaluate_no_bias(x))
    new_model.bias += 5.0
    evaluate_with_bias = tf.function(evaluate_py).get_concrete_function(new_model, x)
    print(evaluate_with_bias(x))

    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.0)
            self.weight = tf.Variable(2.0)

    better_model = BetterModel()
    print(evaluate(better_model, x))
    better_model.bias.assign_add(5.0)
    print(evaluate(better_model, x))
    assert capsys.readouterr().out == """\
Buggy: tf.Tensor(2, shape=(), dtype=int32)
Correct: tf.Tensor(2, shape=(), dtype=int32)
Updating the value of `foo` to 100!
Buggy: tf.Tensor(2, shape=(), dtype=int32)
Correct: tf.Tensor(101, shape=(), dtype=int32)
Variable: tf.Tensor(2, shape=(), dtype=int32)
Variable: tf.Tensor(101, shape=(), dtype=int32)
tf.Tensor(20.0, shape=(), dtype=float32)
tf.Tensor(20.0, shape=(), dtype=float32)
tf.Tensor(20.0, shape=(), dtype=float32)
tf.Tensor(25.0, shape=(), dtype=float32)
tf.Tensor(20.0, shape=(), dtype=float32)
tf.Tensor(25.0, shape=(), dtype=float32)
"""


def test_creating_variables(capsys):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v

    with assert_raises(ValueError):
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
    print(c())
    print(c())
    assert capsys.readouterr().out == (
        "Caught expected exception \n  <class 'ValueError'>:\n"
        "tf.Tensor(1, shape=(), dtype=int32)\ntf.Tensor(2, shape=(), dtype=int32)\n"
    )


def test_accumulating_values_in_a_loop():
    batch_size, seq_len, feature_size = 2, 3, 4

    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    out = dynamic_rnn(rnn_step, tf.random.uniform([batch_size, seq_len, feature_size]),
                      tf.zeros([batch_size, feature_size]))
    assert out.shape == tf.TensorShape([batch_size, seq_len, feature_size])
