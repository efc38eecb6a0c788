"""Staged conditionals and loops: graphs, results, and the seeds' errors."""
from __future__ import annotations

import inspect
import re
import sys

import numpy as np
import pytest

import autograph_cli.tf as tf


def _node_names(f, *args):
    return [n.name for n in f.get_concrete_function(*args).graph.as_graph_def().node]


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


# ----------------------------------------------------------------- cond
def test_tensor_condition_becomes_a_cond_node_python_condition_does_not():
    @tf.function
    def maybe_tensor_cond(x):
        if x < 0:
            x = -x
        return x

    assert "cond" in _node_names(maybe_tensor_cond, tf.constant(-1))
    assert "cond" not in _node_names(maybe_tensor_cond, -1)
    assert maybe_tensor_cond(tf.constant(-3)).numpy() == 3
    assert maybe_tensor_cond(tf.constant(4)).numpy() == 4


def test_cond_traces_both_branches_once(capsys):
    @tf.function
    def f():
        x = tf.constant(0)
        if tf.constant(True):
            x = x + 1
            print("Tracing `then` branch")
        else:
            x = x - 1
            print("Tracing `else` branch")
        return x

    assert f().numpy() == 1
    assert f().numpy() == 1
    assert capsys.readouterr().out == "Tracing `then` branch\nTracing `else` branch\n"


def test_variable_defined_in_one_branch_only_names_variable_and_line():
    @tf.function
    def f():
        if tf.constant(True):
            x = tf.ones([3, 3])
        return x

    with pytest.raises(ValueError) as e:
        f()
    msg = str(e.value)
    assert "'x'" in msg and "else branch" in msg
    assert f"{__file__}:{_line_of(f.python_function, 'if tf.constant(True)')}:" in msg


def test_branches_with_different_dtypes_are_an_error():
    @tf.function
    def f(c):
        if c:
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y

    with pytest.raises(TypeError, match="'y' has dtype int32 in the main branch, but dtype float32"):
        f(tf.constant(True))


def test_python_values_merge_into_tensors():
    @tf.function
    def f(c):
        if c:
            y = 1
        else:
            y = 2
        return y

    assert f(tf.constant(True)).numpy() == 1
    assert f(tf.constant(False)).numpy() == 2


def test_equal_python_values_from_both_branches_are_tensors_too():
    """A staged conditional's outputs are tensors, as TensorFlow's cond makes
    them: the same number, bool, string or tuple of them from both branches
    is one too (so a later `if` on it is staged), and so is an item both
    branches write (`acc[0]`, a composite name); a value with no tensor form
    (a function, an object, an int beyond int32) stays as it is."""
    seen = {}

    def helper():
        return 5

    @tf.function
    def f(c):
        n, s, p, fn, acc, big = 0, "a", (1, 2.5), None, [1], 0
        if c:
            n, s, p, fn, big = 3, "b", (1, 2.5), helper, 2**40
        else:
            n, s, p, fn, big = 3, "b", (1, 2.5), helper, 2**40
        if c:
            acc[0] = 2
        else:
            acc[0] = 2
        seen.update(n=n, s=s, p=p, fn=fn, acc=acc, big=big)
        if n > 2:  # staged: n is a tensor
            k = 1
        else:
            k = 2
        seen["k"] = k
        return n + k + fn() + acc[0], s, p

    out = f(tf.constant(True))
    assert [type(seen[k]).__name__ for k in ("n", "s", "k")] == ["SymbolicTensor"] * 3
    assert [type(x).__name__ for x in seen["p"]] == ["SymbolicTensor"] * 2
    assert seen["fn"] is helper and type(seen["acc"][0]).__name__ == "SymbolicTensor"
    assert seen["big"] == 2**40 and type(seen["big"]) is int  # no int32 form: kept
    assert (out[0].numpy(), out[1].numpy(), out[2][1].numpy()) == (11, b"b", 2.5)
    assert out[2][0].dtype == tf.int32 and out[2][1].dtype == tf.float32


def test_return_in_if_without_else():
    def relu(x):
        if tf.greater(x, 0):
            return x
        return 0

    f = tf.function(relu)
    assert f(tf.constant(1)).numpy() == 1
    assert f(tf.constant(-1)).numpy() == 0

    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    g = tf.function(simple_relu)
    assert (g(tf.constant(1)).numpy(), g(tf.constant(-1)).numpy()) == (1, 0)


def test_staged_and_or_not_and_ternary():
    @tf.function
    def f(x, y):
        a = (x > 0) and (y > 0)
        b = (x > 0) or (y > 0)
        c = not (x > y)
        d = x if x > y else y
        return a, b, c, d

    for x, y in [(1, 2), (-1, 2), (-1, -2), (3, -1)]:
        a, b, c, d = f(tf.constant(x), tf.constant(y))
        assert (bool(a), bool(b), bool(c), int(d)) == ((x > 0) and (y > 0), (x > 0) or (y > 0), not (x > y), max(x, y))


def test_tf_cond_functional_api():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * 2, lambda: x - 1)

    assert f(tf.constant(3)).numpy() == 6
    assert f(tf.constant(-3)).numpy() == -4
    assert tf.cond(tf.constant(True), lambda: 1, lambda: 2) == 1


# ---------------------------------------------------------------- loops
def test_staged_loops_are_one_node_unrolled_loops_grow():
    @tf.function
    def unrolled(n):
        x = tf.constant(0)
        for i in range(n):
            x += i
        return x

    @tf.function
    def staged(n):
        x = tf.constant(0)
        for i in tf.range(n):
            x += i
        return x

    assert len(_node_names(unrolled, 3)) < len(_node_names(unrolled, 10))
    assert "while" in _node_names(staged, tf.constant(3))
    assert len(_node_names(staged, 3)) == len(_node_names(staged, 10))
    assert staged(tf.constant(5)).numpy() == 10
    assert unrolled(5).numpy() == 10


def test_loop_over_dataset_is_a_reduce_dataset_node():
    @tf.function
    def f(ds):
        x = tf.constant(0, dtype=tf.int64)
        for i in ds:
            x += i
        return x

    ds = tf.data.Dataset.range(5)
    assert "ReduceDataset" in _node_names(f, ds)
    assert f(ds).numpy() == 10


def test_collatz_while_loop():
    @tf.function
    def collatz(x):
        count = 0
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
            count += 1
        return count

    assert collatz(tf.constant(27)).numpy() == 111
    assert "while True" not in collatz.get_concrete_function(tf.constant(1)).source
    assert "while (" in collatz.get_concrete_function(tf.constant(1)).source


def test_break_continue_and_return_inside_staged_loops():
    @tf.function
    def first_over(xs, limit):
        for x in xs:
            if x > limit:
                return x
        return -1

    @tf.function
    def sum_odd_until(n, stop):
        total = 0
        for i in tf.range(n):
            if i % 2 == 0:
                continue
            if i > stop:
                break
            total += i
        return total

    @tf.function
    def while_return(x):
        while tf.constant(True):
            if x > 10:
                return x * 2
            x += 3
        return x

    xs = tf.constant([1, 5, 9, 12])
    assert first_over(xs, tf.constant(4)).numpy() == 5
    assert first_over(xs, tf.constant(20)).numpy() == -1
    assert sum_odd_until(tf.constant(10), tf.constant(6)).numpy() == 1 + 3 + 5
    assert while_return(tf.constant(1)).numpy() == 26


def test_python_loop_with_tensor_break_raises_at_the_loop():
    # As TensorFlow and seed 000: a break or return that depends on a tensor
    # needs a tensor loop. The error (NotImplementedError and TypeError)
    # names the user's file and the loop's line, and is raised there.
    def py_for_tf_break(n):
        x = 0
        for i in range(5):
            if tf.equal(i, n):
                break
            x += i
        return x

    for_line = _line_of(py_for_tf_break, "for i in range(5):")
    for n in (0, 3, 7):
        with pytest.raises(NotImplementedError, match=rf"^{re.escape(__file__)}:{for_line}: break and return "
                           rf"statements which depend on a TF condition are not supported in Python for loops: the "
                           rf"`for` loop at line {for_line} iterates over a Python range") as e:
            tf.function(py_for_tf_break)(tf.constant(n))
        assert isinstance(e.value, TypeError)
        tb = e.value.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        assert (tb.tb_frame.f_code.co_filename, tb.tb_lineno) == (__file__, for_line)

    @tf.function
    def while_py_true_tf_break(x):
        while True:
            if tf.equal(x, 0):
                break
            x -= 1
        return x

    while_line = _line_of(while_py_true_tf_break.python_function, "while True:")
    for x in (5, tf.constant(3)):
        with pytest.raises(TypeError, match=rf"^{re.escape(__file__)}:{while_line}: The condition of while loop "
                           rf"started as non-Tensor, then changed to Tensor: the `while` loop at line {while_line}"):
            while_py_true_tf_break(x)

    def py_for_tf_return(x):
        for i in range(4):
            if x < i:
                return i * 10
            x = x - 1
        return -1

    with pytest.raises(NotImplementedError, match="not supported in Python for loops"):
        tf.function(py_for_tf_return)(tf.constant(1))
    assert tf.function(py_for_tf_return)(1).numpy() == py_for_tf_return(1)

    @tf.function
    def while_tf_true_tf_break(x):
        while tf.constant(True):
            if tf.equal(x, 0):
                break
            x -= 1
        return x

    assert while_tf_true_tf_break(5).numpy() == 0
    # a Python `while` inside a staged `if`, returning on a tensor
    with pytest.raises(NotImplementedError, match=f":{_line_of(_return_in_loop_in_if, 'while g < 3')}: The "
                       "condition of while loop started as non-Tensor"):
        tf.function(_return_in_loop_in_if)(tf.constant(1), tf.constant(2))
    for a, b in [(1, 2), (1, 5), (0, 1), (-1, 7), (2, 0)]:
        assert tf.function(_return_in_loop_in_if)(a, b).numpy() == _return_in_loop_in_if(a, b)


def test_python_loop_with_tensor_continue_or_if_is_legal():
    # only a jump that stops the loop needs the loop staged: a tensor
    # `continue`, or an `if` that assigns, stage the rest of the body
    def py_for_tf_continue(n):
        x = 0
        for i in range(5):
            if tf.equal(i, n):
                continue
            x += i
        return x

    def py_while_tf_if(n, t):
        x = 0
        while n > 0:
            n -= 1
            if n < t:
                x += n
        return x

    def empty_python_loop_tf_break(n):
        x = 0
        for i in []:
            if i < n:
                break
        return x

    for n in (0, 3, 7):
        assert tf.function(py_for_tf_continue)(tf.constant(n)).numpy() == py_for_tf_continue(n)
        assert tf.function(py_while_tf_if)(4, tf.constant(n)).numpy() == py_while_tf_if(4, n)
        assert tf.function(empty_python_loop_tf_break)(tf.constant(n)).numpy() == 0


def test_loop_variable_errors_name_variable_and_line():
    @tf.function
    def loop_created(n):
        for i in tf.range(n):
            x = i
        return x

    # as TensorFlow: a variable bound in the loop is usable after it; the
    # graph raises (Python's UnboundLocalError) only when the loop ran zero times
    assert loop_created(tf.constant(3)).numpy() == 2
    with pytest.raises(UnboundLocalError, match="'x' is used after the loop, but the loop ran zero times") as e:
        loop_created(tf.constant(0))
    assert isinstance(e.value, tf.errors.InvalidArgumentError)
    assert f"{__file__}:{_line_of(loop_created.python_function, 'for i in tf.range(n)')}:" in str(e.value)

    @tf.function
    def type_changes():
        x = tf.constant(0, dtype=tf.float32)
        for i in tf.range(3):
            x = i
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="'x' has dtype float32 before the loop, but dtype int32") as e:
        type_changes()
    assert isinstance(e.value, TypeError)
    assert f"{__file__}:{_line_of(type_changes.python_function, 'for i in tf.range(3)')}:" in str(e.value)

    @tf.function
    def buggy_concat():
        x = tf.ones([0, 10])
        for i in tf.range(5):
            x = tf.concat([x, tf.ones([1, 10])], axis=0)
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(0, 10\) before the loop, but shape \(1, 10\) after one iteration\. Use tf\.autograph\.experimental\.set_loop_options to set shape invariants\."):
        buggy_concat()


def test_set_shape_and_shape_invariants_allow_shape_changes():
    @tf.function
    def concat_with_padding():
        x = tf.zeros([5, 10])
        for i in tf.range(5):
            x = tf.concat([x[:i], tf.ones([1, 10]), tf.zeros([4 - i, 10])], axis=0)
            x.set_shape([5, 10])
        return x

    assert concat_with_padding().numpy().tolist() == np.ones([5, 10]).tolist()

    @tf.function
    def grow():
        x = tf.ones([0, 2])
        for i in tf.range(3):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 2]))])
            x = tf.concat([x, tf.ones([1, 2])], axis=0)
        return x

    assert grow().shape == tf.TensorShape([3, 2])

    @tf.function
    def grow_functional():
        return tf.while_loop(lambda x: tf.shape(x)[0] < 4, lambda x: tf.concat([x, x[:1]], 0), [tf.ones([1, 2])],
                             shape_invariants=[tf.TensorShape([None, 2])])

    assert grow_functional()[0].shape == tf.TensorShape([4, 2])


def test_tensor_array_accumulation_and_rnn():
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

    def rnn_step(inp, state):
        return inp + state

    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = dynamic_rnn(rnn_step, tf.constant(data), tf.zeros([2, 4])).numpy()
    assert np.allclose(out, np.cumsum(data, axis=1))

    @tf.function
    def dynamic(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i * i)
        return ta.stack(), ta.size(), ta.read(2)

    s, size, third = dynamic(tf.constant(4))
    assert s.numpy().tolist() == [0, 1, 4, 9] and size.numpy() == 4 and third.numpy() == 4


def test_list_appended_in_a_staged_loop_becomes_a_tensor_array():
    @tf.function
    def squares(n):
        out = []
        for i in tf.range(n):
            out.append(i * i)
        return tf.stack(out)

    assert squares(tf.constant(4)).numpy().tolist() == [0, 1, 4, 9]


def _stack_program(n):
    """A stack built in a loop and drained by pop statements."""
    stack = []
    for i in range(n):
        stack.append(i + 1)
    stack.pop()  # drop the top
    total = 0
    while len(stack) > 1:
        top = stack.pop()
        total = total * 10 + top
    if len(stack) > 0:
        last = stack.pop()
        return total * 10 + last
    return total


def test_pop_from_a_list_staged_as_a_tensor_array():
    def staged(n):
        stack = []
        for i in tf.range(n):
            stack.append(i + 1)
        stack.pop()  # drop the top
        total = 0
        while len(stack) > 1:
            top = stack.pop()
            total = total * 10 + top
        if len(stack) > 0:
            last = stack.pop()
            return total * 10 + last
        return total

    f = tf.function(staged)
    for n in (0, 1, 2, 5):
        if n == 0:
            with pytest.raises(tf.errors.InvalidArgumentError, match="pop from an empty list"):
                f(tf.constant(n))
            with pytest.raises(IndexError, match="pop from empty list"):
                _stack_program(n)
            continue
        assert f(tf.constant(n)).numpy() == _stack_program(n), n
    ops = {node.op for node in f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.as_graph_def().node}
    assert {"While", "TensorListPopBack"} <= ops

    @tf.function
    def top_of(n):
        stack = []
        for i in tf.range(n):
            stack.append(i * 3)
        return stack.pop()

    assert top_of(tf.constant(4)).numpy() == 9


def test_pop_inside_an_expression_on_a_staged_list_says_how_to_write_it():
    @tf.function
    def f(n):
        stack = []
        for i in tf.range(n):
            stack.append(i)
        return 1 + stack.pop()

    with pytest.raises(NotImplementedError, match=r"write it as its own statement, `v = xs.pop\(\)`"):
        f(tf.constant(3))


def test_fizzbuzz_prints_at_run_time_and_traces_each_branch_once(capsys):
    @tf.function
    def fizzbuzz(n):
        for i in tf.range(1, n + 1):
            print("Tracing for loop")
            if i % 15 == 0:
                print("Tracing fizzbuzz branch")
                tf.print("fizzbuzz", output_stream=sys.stdout)
            elif i % 3 == 0:
                print("Tracing fizz branch")
                tf.print("fizz", output_stream=sys.stdout)
            elif i % 5 == 0:
                print("Tracing buzz branch")
                tf.print("buzz", output_stream=sys.stdout)
            else:
                print("Tracing default branch")
                tf.print(i, output_stream=sys.stdout)

    fizzbuzz(tf.constant(5))
    fizzbuzz(tf.constant(20))
    out = capsys.readouterr().out.splitlines()
    assert out[:5] == ["Tracing for loop", "Tracing fizzbuzz branch", "Tracing fizz branch", "Tracing buzz branch",
                       "Tracing default branch"]
    want = []
    for n in (5, 20):
        for i in range(1, n + 1):
            want.append("fizzbuzz" if i % 15 == 0 else "fizz" if i % 3 == 0 else "buzz" if i % 5 == 0 else str(i))
    assert out[5:] == want


def test_staged_assert_runs_at_every_call():
    @tf.function
    def f(x):
        assert x > 0, "x must be positive"
        return x

    assert f(tf.constant(1)).numpy() == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="Assertion failed: x must be positive"):
        f(tf.constant(-1))


def test_range_len_and_builtins_on_tensors():
    @tf.function
    def f(x, n):
        total = 0
        for i in range(n):
            total += i
        return total + len(x) + int(abs(tf.constant(-2.0)))

    assert f(tf.constant([1, 2, 3]), tf.constant(4)).numpy() == 6 + 3 + 2


def test_tanh_loop_on_vector(capsys):
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x, output_stream=sys.stdout)
            x = tf.tanh(x)
        return x

    x0 = np.array([0.5, 0.5, 0.5], np.float32)
    got = f(tf.constant(x0)).numpy()
    want = x0
    steps = 0
    while want.sum() > 1:
        want = np.tanh(want)
        steps += 1
    assert np.allclose(got, want)
    assert len(capsys.readouterr().out.splitlines()) == steps


def test_enumerate_and_zip_over_tensors_are_staged():
    @tf.function
    def weighted(xs, ws):
        total = 0.0
        for x, w in zip(xs, ws):
            total += x * w
        last = -1
        for i, x in enumerate(xs):
            if x > 1.5:
                last = i
        return total, last

    xs = tf.constant([1.0, 2.0, 3.0])
    ws = tf.constant([0.5, 0.25, 2.0])
    total, last = weighted(xs, ws)
    assert total.numpy() == 7.0 and last.numpy() == 2
    assert "while" in _node_names(weighted, xs, ws)


def test_loop_variable_losing_a_known_dimension_is_an_error():
    @tf.function
    def f(n):
        x = tf.zeros([3])
        for i in tf.range(n):
            x = x[: i + 1]
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(3,\) before the loop, but shape \(None,\) after one iteration\. Use tf\.autograph"):
        f(tf.constant(2))


# -- composite names, branch state, returns (issue 8) -------------------------

class _Box:
    pass


def _composite_dict_if(a):
    x = {"a": a}
    if x["a"] > 0:
        x["b"] = 1
    else:
        x["b"] = -1
    return x["b"]


def _composite_list_while(n):
    y = [0]
    while n > 0:
        n -= 1
        y[0] += 1
    return y[0]


def _composite_dict_for(n):
    y = {"a": 0}
    for _ in range(n):
        y["a"] += 1
    return y["a"]


def _composite_attr_break(n):
    a = _Box()
    a.total = 0
    for i in range(n):
        if i > 2:
            break
        a.total = a.total + i
    return a.total


def _branch_state(n):
    i = 0
    if i < n:
        s = i
        i += 1
    else:
        s = i + 10
        i += 2
    return s


def _return_in_loop_in_if(a, b):
    v = 0
    if a > 0:
        g = 0
        while g < 3:
            g += 1
            if b > g:
                return b
        v = 1
    return v + a


def _user_names_like_generated(x):
    retval_ = 0
    do_return = 5
    if x > 0:
        retval_ = 1
        do_return = 7
    return retval_ + do_return


@pytest.mark.parametrize("fn, cases", [
    (_composite_dict_if, [(-2,), (0,), (3,)]),
    (_composite_list_while, [(0,), (1,), (4,)]),
    (_composite_dict_for, [(0,), (1,), (4,)]),
    (_composite_attr_break, [(0,), (2,), (6,)]),
    (_branch_state, [(0,), (3,)]),
    (_user_names_like_generated, [(-1,), (1,)]),
])
def test_staged_answers_equal_pythons(fn, cases):
    staged = tf.function(fn)
    for args in cases:
        assert staged(*[tf.constant(a) for a in args]).numpy() == fn(*args), args


# -- lists and dicts changed in place in staged conditionals -------------------
# A branch's values are frozen when it ends, and the lists/dicts the carried
# names hold are put back before the other branch runs: neither sees what the
# other wrote into them.

def _return_list_then_item_written(a, b):
    arr = [a, 1]  # `retval_ = arr` in one cond; arr[0] written in the next
    if a > 100:
        if b > 0:
            return arr
    arr[0] = arr[0] + a
    return arr


def _return_list_elif_item_written(a, b):
    arr = [a, 1]
    if a > 100:
        return arr
    elif b > 0:
        arr[1] = 5
    arr[0] = arr[0] + a
    return arr


def _dict_item_written_then_rebound(a, b):
    d = {"k": b % 3, "m": 2}
    if a > 0:
        d["m"] = 7  # the dict the else branch starts from must keep m = 2
        d = {"k": 1, "m": d["m"] + 1}
    return d["k"], d["m"]


def _append_on_one_path(a, b):
    acc = [a]  # its length depends on the condition: a TensorArray
    if a > 0:
        acc.append(b)
    return tf.reduce_sum(tf.stack(acc)), len(acc)


def _append_in_nested_conds(a, b):
    acc = [1]
    if a > 0:
        if b > 0:
            acc.append(b)
        acc.append(a)
    return tf.reduce_sum(tf.stack(acc)), len(acc)


def _append_python_value_under_cond_in_staged_loop(a, b):
    acc = [a]
    for i in range(a % 5):
        if b > i:
            acc.append(1)
    return tf.reduce_sum(tf.stack(acc)), len(acc)


def _plain(v):
    if isinstance(v, tf.Tensor):
        return v.numpy().item()
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x) for x in v)
    return v


@pytest.mark.parametrize("fn", [
    _return_list_then_item_written, _return_list_elif_item_written, _dict_item_written_then_rebound,
    _append_on_one_path, _append_in_nested_conds, _append_python_value_under_cond_in_staged_loop,
])
def test_lists_and_dicts_changed_in_place_in_a_branch(fn):
    staged = tf.function(fn)
    for a, b in [(3, 5), (-4, 11), (0, 0), (17, -2), (4, 2)]:
        assert _plain(staged(tf.constant(a), tf.constant(b))) == _plain(fn(a, b)), (a, b)


def test_empty_list_appended_on_one_path_is_a_structure_error():
    def f(a):
        acc = []
        if a > 0:
            acc.append(a)
        return len(acc)

    with pytest.raises(ValueError, match="'acc' has a different structure in the two branches"):
        tf.function(f)(tf.constant(1))


def test_a_path_falling_off_the_end_is_tensorflows_error_not_zeros():
    def f(x):
        if x > 0:
            if x < 5:
                return x
        else:
            return x * x * x

    assert f(5) is None
    with pytest.raises(ValueError, match="else branch must also have a return statement"):
        tf.function(f)(tf.constant(5))


def test_chained_comparisons_stage_as_and():
    def between(x, y, z):
        return x < y <= z

    staged = tf.function(between)
    for args in [(1, 2, 3), (2, 1, 3), (1, 3, 2), (1, 2, 2)]:
        assert bool(staged(*[tf.constant(a) for a in args]).numpy()) == between(*args)


def test_chained_comparisons_of_computed_operands_evaluate_each_once():
    calls = []

    def middle(t):
        calls.append(t)
        return t * 2

    def chain(x, y):
        return x - 1 < middle(y) <= x + 5 != y, x < y + 1 < middle(x) + 3

    staged = tf.function(chain)
    for x, y in [(1, 2), (5, 1), (3, 3), (-2, 4), (9, 0)]:
        got = staged(tf.constant(x), tf.constant(y))
        assert tuple(bool(g.numpy()) for g in got) == chain(x, y), (x, y)
    converted = tf.autograph.to_graph(chain)
    for x, y in [(1, 2), (9, 0)]:
        calls.clear()
        want = chain(x, y)  # middle(x) only when x < y + 1: Python stops at the first false comparison
        assert calls == ([y, x] if x < y + 1 else [y])
        calls.clear()
        assert converted(x, y) == want and calls == ([y, x] if x < y + 1 else [y])


def test_tensorflow_modules_the_facade_lacks_fail_where_used():
    strategy = tf.distribute.TPUStrategy  # naming it (at import time, say) works

    class Custom(tf.distribute.Strategy):  # and so does subclassing
        pass

    assert not isinstance(Custom, strategy)
    assert isinstance(Custom(), Custom)  # a subclass is an ordinary class
    with pytest.raises(NotImplementedError, match="tf.distribute.TPUStrategy is not supported"):
        strategy()
    with pytest.raises(AttributeError):
        tf.no_such_op


def test_builtin_functions_feature_stages_print(capsys):
    def f(x):
        for i in tf.range(x):
            print("i is", i)
        return x

    staged = tf.function(f, experimental_autograph_options=tf.autograph.experimental.Feature.BUILTIN_FUNCTIONS)
    staged(tf.constant(3))
    staged(tf.constant(2))
    assert capsys.readouterr().out == "i is 0\ni is 1\ni is 2\ni is 0\ni is 1\n"
    default = tf.function(f)  # TensorFlow's default: Python's print, once, while tracing
    default(tf.constant(3))
    default(tf.constant(2))
    assert capsys.readouterr().out == 'i is Tensor("for_body_arg0:0", shape=(), dtype=int32)\n'


def _created_read_on_some_paths(n, flag):
    for i in tf.range(n):
        v = i * 2
    if flag > 0:
        return v
    return -1


def _created_read_then_dead(n):
    x = 0
    for i in tf.range(n):
        t = i + 1
    x = x + t  # Python raises here when the loop ran zero times, though x is overwritten
    x = 7
    return x


def test_loop_created_variables_raise_exactly_where_python_reads_them():
    staged = tf.function(_created_read_on_some_paths)
    assert staged(tf.constant(3), tf.constant(1)).numpy() == 4
    assert staged(tf.constant(0), tf.constant(0)).numpy() == -1  # never read: no error
    with pytest.raises(UnboundLocalError, match="'v' is used after the loop"):
        staged(tf.constant(0), tf.constant(1))
    staged = tf.function(_created_read_then_dead)
    assert staged(tf.constant(2)).numpy() == 7
    with pytest.raises(UnboundLocalError, match="'t' is used after the loop"):
        staged(tf.constant(0))


def _created_by_inner_loop(a, late):
    # t is first bound by an inner staged loop that may run zero times on
    # some (or every) outer iteration; it is read in the outer body
    x = 0
    for j in tf.range(3):
        for i in tf.range(a + j - late):
            t = i * 2
        if j == 2:
            x = x + t
    return x


def _created_then_cond(n, flag):
    for i in tf.range(n):
        t = i + 7
    if flag > 0:
        t = 5  # bound here: the else side passes t on without reading it
    y = t if flag > -5 else 0
    return y


def _python_outcome(fn, *args):
    try:
        return fn(*args)
    except UnboundLocalError:
        return UnboundLocalError


def test_variables_a_staged_loop_may_not_bind_stay_tracked_through_loops_and_conds():
    """Random-program failure classes: a variable first bound by an inner
    staged loop was carried by the outer loop as a zeros placeholder, so an
    unbound read returned 0 (Python raises); merging such a variable in a
    staged conditional read it (checked it) in the branch that bound it."""
    nested = tf.function(_created_by_inner_loop)
    cond = tf.function(_created_then_cond)
    for fn, staged, cases in ((_created_by_inner_loop, nested, [(0, 0), (2, 0), (0, 1), (0, 2), (0, 4)]),
                              (_created_then_cond, cond, [(0, 1), (0, 0), (3, 0), (3, 1)])):
        for args in cases:
            want = _python_outcome(fn, *args)
            if want is UnboundLocalError:
                with pytest.raises(UnboundLocalError, match="'t' is used after the loop"):
                    staged(*[tf.constant(a) for a in args])
            else:
                assert staged(*[tf.constant(a) for a in args]).numpy() == want, (fn.__name__, args)


def test_iterators_inside_functions():
    ds = tf.data.Dataset.range(5)

    @tf.function
    def first_two(ds):
        it = iter(ds)  # a new iterator at every call, as TensorFlow's
        a = next(it)
        return a + next(it)

    assert first_two(ds).numpy() == 1
    assert first_two(ds).numpy() == 1

    @tf.function
    def total(it):
        s = tf.constant(0, tf.int64)
        for x in it:  # an iterator made outside: a staged loop over what remains
            s += x
        return s

    it = iter(ds)
    next(it)
    assert total(it).numpy() == 1 + 2 + 3 + 4


def test_a_python_loop_over_an_iterator_while_tracing_fails_fast():
    ds = tf.data.Dataset.range(3)

    def endless(ds):
        s = tf.constant(0, tf.int64)
        for x in iter(ds):  # not converted: Python's own loop, whose end only the graph knows
            s += x
        return s

    with pytest.raises(TypeError, match="more than 10000 times on a dataset iterator"):
        tf.function(endless, autograph=False)(ds)


def _numbers(n):
    for i in range(n):
        yield i


def _sum_of_generated(x):
    s = 0
    for v in _numbers(3):
        s += v
    if x > 0:
        s += 1
    return s


def test_strict_conversion_makes_unconverted_generators_an_error(monkeypatch):
    from autograph_cli.api import UnsupportedLanguageElementError

    assert tf.function(_sum_of_generated)(tf.constant(1)).numpy() == 4

    def numbers(n):  # (conversions are cached per function: fresh ones here)
        for i in range(n):
            yield i

    def sum_of_generated(x):
        s = 0
        for v in numbers(3):
            s += v
        if x > 0:
            s += 1
        return s

    monkeypatch.setenv("AUTOGRAPH_STRICT_CONVERSION", "1")
    with pytest.raises(NotImplementedError, match="numbers .*generator") as e:
        tf.function(sum_of_generated)(tf.constant(1))
    assert isinstance(e.value, UnsupportedLanguageElementError)


def test_tf_namespaces_are_importable_modules():
    import importlib

    math = importlib.import_module("autograph_cli.tf.math")
    assert math is tf.math and "reduce_sum" in math.__all__
    experimental = importlib.import_module("autograph_cli.tf.autograph.experimental")
    assert experimental.Feature.BUILTIN_FUNCTIONS == "BUILTIN_FUNCTIONS"
    from autograph_cli.tf import nn

    assert nn is tf.nn


def test_datasets_built_inside_a_function_from_traced_tensors():
    @tf.function
    def total(n, xs):
        s = tf.constant(0, tf.int64)
        for v in tf.data.Dataset.range(n):
            s += v
        t = tf.constant(0)
        for x in tf.data.Dataset.from_tensor_slices(xs):
            t += x
        return s, t

    for n, xs in ((4, [1, 2, 3]), (0, [5])):
        s, t = total(tf.constant(n), tf.constant(xs))
        assert (s.numpy(), t.numpy()) == (sum(range(n)), sum(xs))

    # transformations of such a dataset are applied when the graph runs
    @tf.function
    def transformed(n):
        return tf.data.Dataset.range(n).map(lambda x: x * 2).batch(2).reduce(
            tf.constant(0, tf.int64), lambda a, b: a * 100 + tf.reduce_sum(b))

    assert int(transformed(tf.constant(5, tf.int64))) == (2 * 100 + 10) * 100 + 8

    @tf.function
    def returned(n):
        return tf.data.Dataset.range(n)

    with pytest.raises(TypeError, match="GraphDataset"):
        returned(tf.constant(3))


def _structure_created_by_inner_loop(a, b):
    # g, a list of tensors (as tape.gradient returns), is first bound by an
    # inner staged loop and carried by the outer one
    s = 0.0
    for e in tf.range(a):
        for i in tf.range(b):
            g = [tf.cast(i, tf.float32), tf.cast(e, tf.float32)]
        s = s + g[0] + g[1]
    return s


def test_a_structure_an_inner_staged_loop_binds_is_carried_by_the_outer_loop():
    """A list bound inside an inner staged loop (gradients in a training
    loop over epochs and batches) was an error in the outer loop ('g' ...
    a staged loop can only change tensors); an unbound read still raises."""
    staged = tf.function(_structure_created_by_inner_loop)
    for args in [(2, 3), (1, 1), (3, 2)]:
        assert staged(*[tf.constant(a) for a in args]).numpy() == _structure_created_by_inner_loop(*args)
    with pytest.raises(UnboundLocalError, match="'g' is used after the loop"):
        staged(tf.constant(2), tf.constant(0))


# -- enumerate and zip nested over staged tensors ------------------------------

def _enumerate_zip(a, b):
    s = 0
    for i, (p, q) in enumerate(zip(tf.stack([a, b]), tf.stack([b, a + 1]))):
        if p > q:
            continue
        s = s + i * p - q
    return s


def _zip_enumerate(a, b):
    s = 0
    for (i, p), q in zip(enumerate(tf.stack([a, b, a])), tf.stack([b, a, 1])):
        s = s + i * p - q
    return s


@pytest.mark.parametrize("fn", [_enumerate_zip, _zip_enumerate])
def test_enumerate_and_zip_nest_over_staged_tensors(fn):
    staged = tf.function(fn)
    for a, b in [(3, 5), (-4, 11), (0, 0)]:
        assert _plain(staged(tf.constant(a), tf.constant(b))) == _plain(fn(a, b)), (a, b)


# -- a nested function reads the variables it closes over when it is called ----

def _closure_called_after_cond(a, b):
    z = 1

    def h(u):
        return u + z

    if a > 0:
        z = z + a  # live after the conditional: h reads it
    return h(2)


def _closure_calling_closure_after_loop(a, b):
    z = 1

    def h(u):
        return u * z

    def g(u):
        return h(u) + 1

    for i in range(b % 4):
        z = z + i
    return g(3)


@pytest.mark.parametrize("fn", [_closure_called_after_cond, _closure_calling_closure_after_loop])
def test_a_closure_called_after_staged_control_flow_sees_its_values(fn):
    staged = tf.function(fn)
    for a, b in [(3, 5), (-4, 11), (0, 0)]:
        assert _plain(staged(tf.constant(a), tf.constant(b))) == _plain(fn(a, b)), (a, b)


def _function_defined_in_staged_loop_body(a, b):
    x = a % 11
    for i1 in range(2):  # the inner loop runs in Python first, staged once x is a tensor
        for i2 in range(x % 4):
            def k(u):
                return (u + i2) % 11
            x = k(x)
        x = x + tf.constant(1)
    return x


def test_a_function_defined_in_a_staged_loop_body_is_not_a_changing_loop_variable():
    # on Python values, the first inner loop runs in Python and defines k; the
    # second is staged and defines k again: the same code over the same cells
    for a, b in [(3, 5), (-4, 11), (0, 0)]:
        staged = tf.function(_function_defined_in_staged_loop_body)
        assert _plain(staged(a, b)) == _plain(_function_defined_in_staged_loop_body(a, b))


def test_set_loop_options_maximum_iterations_caps_while_and_for_loops(capsys):
    v = tf.Variable(0)

    @tf.function
    def capped_while(n):
        i = tf.constant(0)
        while i < n:
            tf.autograph.experimental.set_loop_options(maximum_iterations=7)
            v.assign_add(1)
            i += 1
        return i

    @tf.function
    def capped_for(n, cap):
        total = 0
        for j in tf.range(n):
            tf.autograph.experimental.set_loop_options(maximum_iterations=cap)
            if j == 5:
                break
            total += j
        return total

    assert [int(capped_while(tf.constant(n))) for n in (3, 100)] == [3, 7]
    assert int(v) == 10  # the body's effects ran 3 + 7 times (a capped loop is traced, not built twice)
    assert [int(capped_for(tf.constant(n), tf.constant(c))) for n, c in ((3, 9), (100, 9), (100, 2))] == [3, 10, 1]
    assert "while" in _node_names(capped_while, tf.constant(1))

    @tf.function
    def nested(n):
        outer = tf.constant(0)
        inner_total = tf.constant(0)
        while outer < n:
            tf.autograph.experimental.set_loop_options(maximum_iterations=2)
            k = tf.constant(0)
            while k < n:
                k += 1
            inner_total += k
            outer += 1
        return outer, inner_total

    assert [int(t) for t in nested(tf.constant(5))] == [2, 10]

def _function_defined_after_continue(a, b):
    x = a % 11
    for i in range(3):  # a Python loop; the rest after `continue` is a staged conditional
        if x > 20 + i:
            continue
        def k(u):
            return (u * 2 + i) % 13
        x = k(x) + tf.constant(0)
    return x


def test_a_function_defined_in_a_staged_branch_again_is_the_same_value():
    for a, b in [(3, 5), (-4, 11)]:
        staged = tf.function(_function_defined_after_continue)
        assert _plain(staged(a, b)) == _plain(_function_defined_after_continue(a, b))
        assert _plain(staged(tf.constant(a), b)) == _plain(_function_defined_after_continue(a, b))


# ------------------------------------------------- dynamic shapes, computed keys
_VEC = [tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)]


def _return_vector_from_staged_loop(v, a):
    u = v * 2
    for i in tf.range(tf.shape(v)[0]):
        if v[i] > a:
            return u, i
    return u, -1


def _return_after_a_cond_that_returned_another_shape(v, a):
    u = v
    g = tf.zeros([0], tf.int32)
    x = 0
    if a > 3:
        if a > 4:
            return x, u, g
    else:
        g = tf.concat([g, [1]], 0)
    while tf.size(u) > 1:
        x = x + u[0]
        u = u[1:]
        if x > 5:
            return x, u, g
    return x, u, g


@pytest.mark.parametrize("fn", [_return_vector_from_staged_loop, _return_after_a_cond_that_returned_another_shape])
def test_a_return_inside_a_staged_loop_may_return_a_vector_of_dynamic_length(fn):
    """The return value's placeholder before the loop stands for a (None,)
    vector (its zeros have shape (0,)): its shape must not become the
    loop's invariant (was: "'retval_' has shape (0,) before the loop")."""
    staged = tf.function(fn, input_signature=_VEC)
    for v, a in (([1, 3, 5, 7, 9], 1), ([1], 5), ([], 2), ([6, 2], 5)):
        args = (tf.constant(v, tf.int32), tf.constant(a))
        want, got = fn(*args), staged(*args)
        assert [np.asarray(w).tolist() for w in want] == [g.numpy().tolist() for g in got], (v, a)


def _items_by_computed_keys(a):
    d = {'k': a, 'm': 2}
    alias = d
    arr = [a, 1]
    if a > 1:
        for key in ('k', 'm'):
            d[key] = d[key] * 2
    i = a * 0
    while i < a:
        for j in range(2):
            arr[j] = arr[j] + j + 1
        i += 1
    return d['k'], d['m'], alias['m'], arr


def test_items_written_by_computed_keys_in_staged_control_flow_are_carried():
    """`d[key] = v` with a key the converter cannot name (a Python loop's
    variable) inside a staged if/loop: the whole object is carried (was: a
    branch's tensor leaked out, "cannot be accessed here"); the new values
    are written into the same dict (an alias sees them)."""
    staged = tf.function(_items_by_computed_keys)
    for a in (3, 0, 1):
        want = _items_by_computed_keys(a)
        got = staged(tf.constant(a))
        assert [int(x) for x in got[:3]] == list(want[:3]) and [int(x) for x in got[3]] == want[3], a


def test_nonlocal_and_global_names_written_in_staged_blocks_are_carried_out():
    def outer(a, b):
        x = 0

        def go():
            nonlocal x
            if a > b:
                x = a
            else:
                x = b
            i = 0
            while i < a % 4:
                x += 1
                i += 1

        go()
        return x

    staged = tf.function(outer)
    for a, b in [(3, 5), (-4, 11), (17, -2), (6, 6)]:
        assert staged(tf.constant(a), tf.constant(b)).numpy() == outer(a, b), (a, b)


_STAGED_GLOBAL = 0


def _write_global(a):
    global _STAGED_GLOBAL
    if a > 2:
        _STAGED_GLOBAL = a * 2
    else:
        _STAGED_GLOBAL = a - 1


def test_global_written_in_a_staged_if_is_the_branch_result():
    @tf.function
    def f(a):
        _write_global(a)
        return _STAGED_GLOBAL + 0

    assert f(tf.constant(5)).numpy() == 10
    assert f(tf.constant(1)).numpy() == 0


def test_switch_case_and_case_called_directly_in_converted_control_flow():
    def f(a, b):
        x = 0
        for i in range(a % 5):
            x = tf.switch_case(i % 3, {0: lambda: x + 1, 1: lambda: x * 2, 2: lambda: x - b})
        y = tf.switch_case(a % 4, [lambda: b, lambda: b * 2])  # index 2, 3: the last branch
        z = tf.case([(a > b, lambda: a), (a < 0, lambda: b)], default=lambda: a + b)
        w = tf.case([(a <= b, lambda: 1), (a > b, lambda: 2)])
        return x, y, z, w

    staged = tf.function(f)
    for a, b in [(3, 5), (-4, 11), (0, 0), (17, -2), (7, 7)]:
        got = tuple(int(t.numpy()) for t in staged(tf.constant(a), tf.constant(b)))
        assert got == tuple(int(t) for t in f(a, b)), (a, b)


def test_case_without_default_asserts_its_last_predicate():
    @tf.function
    def f(a, b):
        return tf.case([(a > b, lambda: a), (a < b, lambda: b)])

    assert f(tf.constant(1), tf.constant(2)).numpy() == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="None of conditions evaluated as True"):
        f(tf.constant(2), tf.constant(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than 1 conditions"):
        tf.case([(tf.constant(True), lambda: 1), (tf.constant(True), lambda: 2)], exclusive=True)

    @tf.function
    def untaken(a):  # Python predicates, all false: fails only where the graph runs the case
        y = a
        if a > 100:
            y = tf.case([(a < 0, lambda: a), (False, lambda: 7)])
            y = tf.case([(True, lambda: 1), (True, lambda: 2)], exclusive=True)
        return y

    assert untaken(tf.constant(3)).numpy() == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="None of conditions evaluated as True"):
        untaken(tf.constant(101))


def test_a_false_staged_assert_is_invalid_argument_and_assertion_error():
    @tf.function
    def f(a):
        for i in tf.range(a):
            assert i < 3, "too many"
        return a

    assert f(tf.constant(3)).numpy() == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="too many") as info:
        f(tf.constant(5))
    assert isinstance(info.value, AssertionError)  # as Python's assert raises


def test_a_call_of_a_nested_function_writing_nonlocal_names_in_staged_control_flow():
    """A staged if/loop around a call of a nested function that assigns the
    caller's variables through ``nonlocal`` carries them (Python's answer)."""

    def f(a, b):
        x = 0
        y = b % 7

        def add(t):
            nonlocal x
            x = x + t

        def twice(t):  # writes x through add: nested functions calling each other
            add(t)
            add(t)

        for i in range(a % 4):
            add(b)
        if a > b:
            twice(a)
        w = a * 0
        while w < 2:
            w = w + 1
            if y >= 3:
                break
        else:
            def reset():
                nonlocal y
                y = 4
            reset()
        return x, y

    staged = tf.function(f)
    for a, b in [(3, 5), (-4, 11), (0, 0), (17, -2), (6, 2)]:
        got = tuple(int(t) for t in staged(tf.constant(a), tf.constant(b)))
        assert got == f(a, b), (a, b)


def test_an_error_tracing_a_branch_leaves_the_variables_as_before_the_if():
    """A `finally` around a staged if whose branch fails while tracing sees
    the values from before the if, and the branch's own error propagates
    (not 'cannot be accessed here' from the finally reading a branch tensor)."""

    @tf.function
    def f(a, b):
        z = a % 5
        try:
            if b >= 5:
                z = z + b
                z = z + tf.add_n([e * 2 for e in tf.stack([a, b])])  # iterates a symbolic tensor
        finally:
            z = (z + 1) % 7
        return z

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over a symbolic tf.Tensor"):
        f(tf.constant(3), tf.constant(5))
