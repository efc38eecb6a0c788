# Nested input signatures and a whole epoch in one tf.function: a dict of
# TensorSpecs with None dims as the signature (one trace for every batch
# size), a training step taking a (features, labels) tuple spec, and an
# epoch loop `for step, (x, y) in enumerate(dataset)` inside tf.function
# (staged over the dataset) that logs with tf.print every other step,
# stops early with `break` on a tensor condition, and returns per-step losses
# from a TensorArray; checked against numpy.
import numpy as np
import autograph_cli.tf as tf

spec = {"ids": tf.TensorSpec([None], tf.int32, name="ids"), "weights": tf.TensorSpec([None, 2], tf.float32)}


@tf.function(input_signature=[spec])
def pooled(batch):
    return tf.reduce_sum(batch["weights"] * tf.cast(batch["ids"], tf.float32)[:, None], axis=0)


print(pooled({"ids": [1, 2], "weights": [[1.0, 0.0], [0.5, 1.0]]}))
print(pooled({"weights": np.ones((3, 2), np.float32), "ids": np.array([1, 1, 1], np.int32)}))
print("traces:", pooled.experimental_get_tracing_count())
try:
    pooled({"ids": [1.5], "weights": [[1.0, 1.0]]})
except (TypeError, ValueError) as e:
    print("float ids refused:", type(e).__name__)

w = tf.Variable([0.0, 0.0])
rng = np.random.RandomState(5)
X = rng.normal(size=(20, 2)).astype(np.float32)
Y = (X @ np.array([2.0, -1.0], np.float32)).astype(np.float32)
ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)


@tf.function(input_signature=[(tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.float32))])
def step(batch):
    x, y = batch
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) - y))
    w.assign_sub(0.3 * tape.gradient(loss, w))
    return loss


@tf.function
def epoch(dataset, threshold):
    losses = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i, (x, y) in enumerate(dataset):
        loss = step((x, y))
        losses = losses.write(tf.cast(i, tf.int32), loss)
        if i % 2 == 0:
            tf.print("step", i, "loss", tf.round(loss * 1000) / 1000)
        if loss < threshold:
            break
    return losses.stack()


first = epoch(ds, tf.constant(0.5))
print("first epoch steps:", first.shape[0], np.round(first.numpy().astype(np.float64), 4).tolist())
second = epoch(ds, tf.constant(0.5))
print("second epoch steps:", second.shape[0], "traces:", epoch.experimental_get_tracing_count(),
      step.experimental_get_tracing_count())

W, ref = np.zeros(2), []
for threshold_run in range(2):
    run = []
    for i in range(5):
        xb, yb = X[4 * i:4 * i + 4].astype(np.float64), Y[4 * i:4 * i + 4]
        r = xb @ W - yb
        run.append(np.mean(r ** 2))
        W -= 0.3 * 2 * xb.T @ r / 4
        if run[-1] < 0.5:
            break
    ref.append(run)
print("matches numpy:", np.allclose(first.numpy(), ref[0], rtol=1e-5), np.allclose(second.numpy(), ref[1], rtol=1e-5),
      np.allclose(w.numpy(), W, atol=1e-5))
