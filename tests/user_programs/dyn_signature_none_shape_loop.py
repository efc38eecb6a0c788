# tf.function with an input_signature whose dims are None: the row loop is
# driven by tf.shape(x)[0] (a tensor), so one trace serves every shape.
import numpy as np
import autograph_cli.tf as tf

traces = []

@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def running_row_max(x):
    traces.append(1)
    n = tf.shape(x)[0]
    best = tf.fill([tf.shape(x)[1]], -1e9)
    out = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        best = tf.maximum(best, x[i])
        out = out.write(i, best)
    return out.stack()

print(running_row_max.input_signature[0].shape)
rng = np.random.RandomState(0)
for shape in [(3, 2), (5, 4), (1, 7)]:
    a = rng.randn(*shape).astype(np.float32)
    got = running_row_max(tf.constant(a)).numpy()
    print(shape, got.shape, np.allclose(got, np.maximum.accumulate(a, axis=0)))
print("traces", len(traces))
cf = running_row_max.get_concrete_function()
print(cf(tf.constant(np.ones((2, 3), np.float32))).shape)
