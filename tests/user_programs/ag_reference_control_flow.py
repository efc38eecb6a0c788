# The AutoGraph reference ("control flow" and "limitations"): if/for/while
# on tensors and on Python values, break/continue/return in staged loops,
# for over a dataset and over a tensor's rows, a TensorArray accumulator,
# and the errors the limitations page describes.
import numpy as np
import autograph_cli.tf as tf


@tf.function
def square_if_positive(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


print(float(square_if_positive(tf.constant(3.0))), float(square_if_positive(tf.constant(-2.0))))


@tf.function
def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


print(int(sum_even(tf.constant([10, 12, 15, 20]))))


@tf.function
def fizzbuzz(n):
    out = tf.TensorArray(tf.string, size=0, dynamic_size=True)
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            s = tf.constant("FizzBuzz")
        elif i % 3 == 0:
            s = tf.constant("Fizz")
        elif i % 5 == 0:
            s = tf.constant("Buzz")
        else:
            s = tf.strings.as_string(i)
        out = out.write(i - 1, s)
    return out.stack()


ref = ["FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i) for i in range(1, 16)]
print([b.decode() for b in fizzbuzz(tf.constant(15)).numpy()] == ref)


@tf.function
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def collatz_py(n):
    s = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        s += 1
    return s


print([int(collatz_steps(tf.constant(k))) for k in (1, 6, 27)], [collatz_py(k) for k in (1, 6, 27)])


@tf.function
def find_first_negative(x):
    for i in tf.range(tf.shape(x)[0]):
        if x[i] < 0:
            return i
    return -1


print(int(find_first_negative(tf.constant([3.0, 1.0, -2.0, -5.0]))), int(find_first_negative(tf.constant([1.0]))))


@tf.function
def running_max_rows(m):
    best = tf.fill([tf.shape(m)[1]], -np.inf)
    for row in m:
        best = tf.maximum(best, row)
    return best


mm = np.array([[1.0, 5.0], [4.0, 2.0], [3.0, 9.0]], np.float32)
print(running_max_rows(tf.constant(mm)).numpy().tolist(), mm.max(0).tolist())


@tf.function
def dataset_mean(ds):
    total = tf.constant(0.0)
    count = tf.constant(0.0)
    for x in ds:
        total += tf.reduce_sum(x)
        count += tf.cast(tf.size(x), tf.float32)
    return total / count


print(float(dataset_mean(tf.data.Dataset.range(10).map(lambda v: tf.cast(v, tf.float32)).batch(3))))


# Python control flow on Python values unrolls while tracing
@tf.function
def python_unrolled(x, n_layers):
    for _ in range(n_layers):
        x = tf.tanh(x)
    if n_layers > 2:
        x = -x
    return x


print(np.isclose(float(python_unrolled(tf.constant(0.5), 3)), -np.tanh(np.tanh(np.tanh(0.5)))),
      python_unrolled.experimental_get_tracing_count())


# tf.while_loop / tf.cond written by hand agree with the converted loop
def manual(n):
    return tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, tf.cond(i % 2 == 0, lambda: acc + i, lambda: acc - i)),
                         (tf.constant(0), tf.constant(0)))[1]


@tf.function
def converted(n):
    acc = 0
    for i in tf.range(n):
        if i % 2 == 0:
            acc += i
        else:
            acc -= i
    return acc


print(int(manual(tf.constant(9))), int(converted(tf.constant(9))), sum(i if i % 2 == 0 else -i for i in range(9)))


# limitations: a variable defined in only one branch of a tensor if
@tf.function
def one_branch(x):
    if x > 0:
        y = x * 2
    return y


try:
    one_branch(tf.constant(1.0))
except Exception as e:
    print(type(e).__name__, "'y'" in str(e))


# limitations: a loop variable changing dtype
@tf.function
def dtype_change(n):
    x = 0
    for i in tf.range(n):
        x = x + 0.5
    return x


try:
    dtype_change(tf.constant(3))
except TypeError as e:
    print("TypeError")


# a tensor loop variable whose shape changes needs shape_invariants
@tf.function
def grow(n):
    x = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, [i]], 0)
    return x


print(grow(tf.constant(3)).numpy().tolist())
