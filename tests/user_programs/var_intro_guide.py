# "Introduction to Variables": creation, dtype/shape, assign and its
# errors, copies, names, trainable flags, variables in tf.function and
# modules, and gradients that skip non-trainable variables.
import numpy as np
import autograph_cli.tf as tf

my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
my_variable = tf.Variable(my_tensor)
bool_variable = tf.Variable([False, False, False, True])
print(my_variable.shape, my_variable.dtype, bool_variable.dtype, my_variable.numpy().tolist())
print(tf.convert_to_tensor(my_variable).numpy().tolist(), tf.math.argmax(my_variable).numpy().tolist(),
      tf.reshape(my_variable, [1, 4]).numpy().tolist())

a = tf.Variable([2.0, 3.0])
a.assign([1, 2])
print(a.numpy().tolist(), a.dtype)
try:
    a.assign([1.0, 2.0, 3.0])
except Exception as e:
    print(type(e).__name__)
b = tf.Variable(a)
a.assign([5, 6])
print(a.numpy().tolist(), b.numpy().tolist(), a.assign_add([2, 3]).numpy().tolist(), a.assign_sub([7, 9]).numpy().tolist())

va = tf.Variable(my_tensor, name="Mark")
vb = tf.Variable(my_tensor + 1, name="Mark")
print(va.name, vb.name, bool(tf.reduce_all(va == vb - 1)))
step_counter = tf.Variable(1, trainable=False)
print(step_counter.trainable, step_counter.dtype, va.trainable)

# variables read inside a tf.function see later assignments; assign in a loop
v = tf.Variable(1.0)

@tf.function
def add_and_read(n):
    for i in tf.range(n):
        v.assign_add(tf.cast(i, tf.float32))
    return v.read_value()

print(float(add_and_read(tf.constant(5))), float(add_and_read(tf.constant(3))), float(v))
v.assign(100.0)
print(float(add_and_read(tf.constant(1))))

# a model with a non-trainable counter; the tape sees trainable variables only
class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]], name="w")
        self.calls = tf.Variable(0, trainable=False, name="calls")

    @tf.function
    def __call__(self, x):
        self.calls.assign_add(1)
        return x @ self.w

m = Counter()
x = tf.constant([[3.0, 4.0]])
with tf.GradientTape() as tape:
    y = m(x)
print(float(y[0, 0]), int(m.calls), [vv.name for vv in m.trainable_variables], len(m.variables))
print(tape.gradient(y, m.trainable_variables)[0].numpy().tolist())
print(tape.watched_variables()[0] is m.w)

# variable with unknown shape, assigned a different length later
dyn = tf.Variable(tf.zeros([0]), shape=tf.TensorShape(None))
for n in (2, 5):
    dyn.assign(tf.range(n, dtype=tf.float32))
    print(dyn.shape, dyn.numpy().tolist())

# sliced assign and scatter updates
s = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
s[0, 1].assign(10.0)
s[1].assign([7.0, 8.0, 9.0])
s.scatter_nd_add([[0, 0]], [5.0])
print(s.numpy().tolist())
print(tf.Variable(3.0) + tf.Variable(4.0), tf.Variable(2.0) * 3)
