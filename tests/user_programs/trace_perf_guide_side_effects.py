# "Better performance with tf.function": variables created only on the first
# call, Python side effects once per trace (counters, iterators, lists, globals)
# vs tf.print and Variables every call, a trace per dtype, Python range
# unrolled per value, a TensorArray accumulating an RNN's states.
import numpy as np
import autograph_cli.tf as tf

# "Better performance with tf.function": variables created only on first call
class Count(tf.Module):
    def __init__(self):
        self.count = None
    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)
c = Count()
print(c().numpy(), c().numpy(), c.__call__.experimental_get_tracing_count())

# recommended: initialize outside
class Model(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)
        self.calls = 0
    @tf.function
    def __call__(self, x):
        self.calls += 1
        return self.v * x
m = Model()
for _ in range(3):
    m(tf.constant(1.0))
print(m.calls)

# Python side effects: iterators
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
iterator = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
good_consume_next(iterator)
good_consume_next(iterator)
good_consume_next(iterator)

# global list mutation
external_list = []
@tf.function
def side_effect(x):
    print('Python side effect')
    external_list.append(x)
side_effect(1)
side_effect(1)
print(len(external_list))

# object mutation
class Mutable:
    def __init__(self):
        self.x = tf.Variable(1.0)
m2 = Mutable()
@tf.function
def get_x(obj):
    return obj.x * 1
print(get_x(m2).numpy())
m2.x.assign(2.0)
print(get_x(m2).numpy())

# Depending on Python global and free variables
@tf.function
def buggy_add():
    return 1 + foo
foo = 1
print(buggy_add().numpy())
foo = 100
print(buggy_add().numpy())

@tf.function
def variable_add():
    return 1 + foo_v
foo_v = tf.Variable(1)
print(variable_add().numpy())
foo_v.assign(100)
print(variable_add().numpy())

# retracing warning / tracing counts with dtype
@tf.function
def double(a):
    print("Tracing with", a)
    return a + a
print(double(tf.constant(1)))
print(double(tf.constant(1.1)))
print(double(tf.constant("a")))
print(double.experimental_get_tracing_count(), [cf.structured_input_signature[0][0].dtype.name for cf in [double.get_concrete_function(tf.constant(2)), double.get_concrete_function(tf.constant(2.0))]], double.experimental_get_tracing_count())

# loops: Python range unrolled vs tf.range
@tf.function
def unrolled(n):
    s = tf.constant(0)
    for i in range(n):
        s += i
    return s
print(unrolled(5).numpy(), unrolled(6).numpy(), unrolled.experimental_get_tracing_count())

# accumulate in TensorArray
batch_size, seq_len, feature_size = 2, 3, 4
def rnn_step(inp, state):
    return inp + state
@tf.function
def dynamic_rnn(rnn_cell, input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_cell(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])
out = dynamic_rnn(rnn_step, tf.ones([batch_size, seq_len, feature_size]), tf.zeros([batch_size, feature_size]))
print(out.shape, out[0, :, 0].numpy())
