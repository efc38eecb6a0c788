# "Better performance with tf.function": tracing rules (Python vs tensor
# arguments, dtypes, shapes), input_signature with None, reduce_retracing,
# concrete functions and their signatures, Python side effects only while
# tracing, the iterator/variable-creation pitfalls, and methods.
import numpy as np
import autograph_cli.tf as tf

trace_log = []


@tf.function
def double(a):
    trace_log.append(f"Tracing with {a}")
    return a + a


print(double(tf.constant(1)).numpy(), double(tf.constant(1.1)).numpy().round(4), double(tf.constant("a")).numpy())
print(double(tf.constant(2)).numpy(), len(trace_log))
print(trace_log[0])
cf = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
print(cf(tf.constant("b")).numpy())
try:
    cf(tf.constant(1))
except (TypeError, tf.errors.InvalidArgumentError) as e:
    print("wrong dtype refused")
print(cf.structured_input_signature[0][0].dtype, cf.structured_outputs.dtype)
print(len(trace_log), double.experimental_get_tracing_count())


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    trace_log.append("collatz")
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])).numpy().tolist(), next_collatz(tf.constant([7, 8, 9, 10])).numpy().tolist())
for bad in (tf.constant([1.0, 2.0]), tf.constant([[1, 2], [3, 4]])):
    try:
        next_collatz(bad)
    except (TypeError, ValueError) as e:
        print("refused")
print(next_collatz.experimental_get_tracing_count())


@tf.function(reduce_retracing=True)
def g(x):
    return tf.reduce_sum(x)


for n in (1, 2, 3, 4, 5):
    g(tf.ones([n]))
print(g.experimental_get_tracing_count())


# Python scalars retrace per value; tensors do not
@tf.function
def train_steps(num_steps):
    total = tf.constant(0)
    for i in tf.range(num_steps):
        total += i
    return total


for n in (10, 20):
    train_steps(n)
print(train_steps.experimental_get_tracing_count())
for n in (10, 20):
    train_steps(tf.constant(n))
print(train_steps.experimental_get_tracing_count(), int(train_steps(tf.constant(30))), sum(range(30)))


# Python side effects run only while tracing; tf.print every call
@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)


f(1)
f(1)
f(2)


# variables: create once, reuse
class Count(tf.Module):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Count()
print(int(c()), int(c()), c.__call__.experimental_get_tracing_count())


@tf.function
def bad_variable():
    v = tf.Variable(1.0)
    return v + 1


try:
    bad_variable()
except ValueError as e:
    print("ValueError", "singleton" in str(e))


# Python iterator consumed at trace time vs a dataset iterated in the graph
@tf.function
def sum_all(it):
    total = tf.constant(0, tf.int64)
    for x in it:
        total += x
    return total


print(int(sum_all(tf.data.Dataset.range(5))), int(sum_all(iter(tf.data.Dataset.range(4)))))


# methods and a class with a tf.function attribute
class Model(tf.Module):
    def __init__(self, scale):
        self.scale = scale

    @tf.function
    def apply(self, x):
        return x * self.scale


m1, m2 = Model(2.0), Model(3.0)
print(float(m1.apply(tf.constant(1.0))), float(m2.apply(tf.constant(1.0))))


# the retrace hazard of a global Python value captured while tracing
scale = 2.0


@tf.function
def captured(x):
    return x * scale


print(float(captured(tf.constant(5.0))))
scale = 10.0
print(float(captured(tf.constant(5.0))))
