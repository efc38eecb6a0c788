# tf.nest over structures inside and outside tf.function: flatten,
# pack_sequence_as, map_structure over several structures, assert_same_structure.
import numpy as np
import autograph_cli.tf as tf

params = {"dense": {"w": tf.constant([[1.0, 2.0]]), "b": tf.constant([0.5])},
          "out": (tf.constant(3.0), tf.constant([1.0, -1.0]))}
grads = tf.nest.map_structure(lambda p: tf.ones_like(p) * 0.1, params)

@tf.function
def sgd(params, grads, lr):
    tf.nest.assert_same_structure(params, grads)
    return tf.nest.map_structure(lambda p, g: p - lr * g, params, grads)

@tf.function
def global_sq_norm(tree):
    total = tf.constant(0.0)
    for leaf in tf.nest.flatten(tree):
        total += tf.reduce_sum(leaf * leaf)
    return total

new = sgd(params, grads, tf.constant(2.0))
flat = [t.numpy() for t in tf.nest.flatten(new)]
ref = [np.array([0.3]), np.array([[0.8, 1.8]]), np.array(2.8), np.array([0.8, -1.2])]
print(sorted(new.keys()), len(flat), all(np.allclose(a, b) for a, b in zip(flat, ref)))
print(np.isclose(float(global_sq_norm(new)), sum(float((r ** 2).sum()) for r in ref)))
rebuilt = tf.nest.pack_sequence_as(params, [tf.constant(i) for i in range(4)])
print(int(rebuilt["dense"]["b"]), int(rebuilt["dense"]["w"]), int(rebuilt["out"][0]), int(rebuilt["out"][1]))
try:
    tf.nest.assert_same_structure({"a": 1}, {"a": 1, "b": 2})
except (ValueError, TypeError) as e:
    print("mismatch", type(e).__name__)
print(tf.nest.flatten({"b": 1, "a": (2, [3, 4])}))
