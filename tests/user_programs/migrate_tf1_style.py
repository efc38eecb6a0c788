# "Migrate to TF2": a TF1-style graph program (placeholders fed through
# session.run, variables from an initializer, a manual update op) rewritten
# as TF2 code -- tf.function with an input_signature instead of
# placeholders, tf.Variable instead of get_variable, Python control flow
# instead of tf.cond -- plus the compat.v1 names that still work, and the
# "validate numerical equivalence" recipe with stateless randomness.
import numpy as np
import autograph_cli.tf as tf

# TF1: x = tf.placeholder(tf.float32, [None, 3]); w = tf.get_variable(..); y = tf.matmul(x, w) ...
init = tf.keras.initializers.GlorotUniform(seed=1)
w = tf.Variable(init(shape=(3, 2)), name="w")
b = tf.Variable(tf.zeros([2]), name="b")


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def forward(x):
    return tf.matmul(x, w) + b


x_feed = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]], np.float32)
out = forward(x_feed)
print(out.shape, np.allclose(out.numpy(), x_feed @ w.numpy() + b.numpy()))
limit = np.sqrt(6.0 / (3 + 2))
# a seeded Keras initializer gives the same values on every call
print(bool(np.all(np.abs(w.numpy()) <= limit)), np.array_equal(init(shape=(3, 2)).numpy(), w.numpy()))

# TF1: update = tf.assign_sub(w, lr * grad); sess.run(update, feed_dict=...)
lr = 0.1


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 2], tf.float32)])
def update(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(forward(x) - y))
    gw, gb = tape.gradient(loss, [w, b])
    tf.compat.v1.assign(w, w - lr * gw)
    b.assign_sub(lr * gb)
    return loss


y_feed = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
wn, bn = w.numpy().astype(np.float64), b.numpy().astype(np.float64)
for _ in range(3):
    err = x_feed @ wn + bn - y_feed
    loss_n = (err ** 2).mean()
    d = 2 * err / err.size
    wn, bn = wn - lr * x_feed.T @ d, bn - lr * d.sum(0)
    loss_t = float(update(x_feed, y_feed))
    print(np.isclose(loss_t, loss_n, rtol=1e-5))
print(np.allclose(w.numpy(), wn, rtol=1e-5), update.experimental_get_tracing_count())

# TF1: tf.cond(pred, true_fn, false_fn) -> Python if inside tf.function
@tf.function
def clip_or_scale(v, use_clip):
    if use_clip:
        return tf.clip_by_value(v, -1.0, 1.0)
    return v * 0.5


vv = tf.constant([-3.0, 0.5, 2.0])
print(clip_or_scale(vv, tf.constant(True)).numpy().tolist(), clip_or_scale(vv, tf.constant(False)).numpy().tolist())
print(clip_or_scale.experimental_get_tracing_count())

# compat.v1 names kept by TF2
print(tf.compat.v1.to_float(tf.constant([1, 2])).dtype, tf.compat.v1.constant(3).numpy())
glorot = tf.compat.v1.glorot_uniform_initializer(seed=3)
print(glorot([4, 4]).shape)

# validating numerical equivalence: the same stateless draws in both versions
def tf1_style_init(shape):
    return tf.random.stateless_uniform(shape, seed=[7, 8], minval=-0.05, maxval=0.05)


def tf2_style_init(shape):
    return tf.random.stateless_uniform(shape, seed=tf.constant([7, 8]), minval=-0.05, maxval=0.05)


print(np.array_equal(tf1_style_init([5, 5]).numpy(), tf.function(tf2_style_init)([5, 5]).numpy()))
