# Gradient gotchas from "Introduction to gradients" and the training guides:
# gradients of gathered rows (tf.gather / tf.nn.embedding_lookup) applied by an
# optimizer eagerly and in tf.function, a None gradient next to a real one,
# NaN from tf.where over sqrt and the safe rewrite, divide_no_nan, integer
# sources, reads after assign inside the tape, clip_by_global_norm, norm at 0.
import numpy as np
import autograph_cli.tf as tf

emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
with tf.GradientTape() as tape:
    rows = tf.gather(emb, [0, 2, 2])
    loss = tf.reduce_sum(rows * rows)
g = tape.gradient(loss, emb)

print(tf.convert_to_tensor(g).numpy().tolist())
opt = tf.keras.optimizers.SGD(0.1)
opt.apply_gradients([(g, emb)])
print(np.round(emb.numpy().astype(float), 4).tolist())

@tf.function
def step(ids):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) ** 2)
    g = tape.gradient(loss, emb)
    opt.apply_gradients([(g, emb)])
    return loss
print(float(step(tf.constant([1, 1]))))
print(np.round(emb.numpy().astype(float), 4).tolist())

# None gradients
a = tf.Variable(1.0); b = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = a * 3.0
ga, gb = tape.gradient(y, [a, b])
print(float(ga), gb)
opt2 = tf.keras.optimizers.SGD(0.1)
opt2.apply_gradients(zip([ga, gb], [a, b]))
print(round(float(a.numpy()), 4), float(b.numpy()))

# nan in tf.where gradient (the guide's trap) and the safe version
x = tf.constant([0.0, 4.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))
print(tape.gradient(y, x).numpy().tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    safe = tf.where(x > 0, x, tf.ones_like(x))
    y = tf.where(x > 0, tf.sqrt(safe), tf.zeros_like(x))
print(tape.gradient(y, x).numpy().tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.divide_no_nan(tf.ones_like(x), x)
print(tape.gradient(y, x).numpy().tolist())
# integer target / source
xi = tf.constant(3)
with tf.GradientTape() as t:
    t.watch(xi)
    yi = xi * 2
print(t.gradient(yi, xi))
# gradients of state: assign inside tape
v = tf.Variable(2.0)
with tf.GradientTape() as t:
    v.assign(v * 3.0)
    out = v * v
print(t.gradient(out, v))
# gradient through read_value after assign
w = tf.Variable(1.0)
with tf.GradientTape() as t:
    w2 = w * 1.0
    w.assign_add(1.0)
    out = w * w2
print(float(t.gradient(out, w)))
# clip_by_global_norm in a train step
vs = [tf.Variable([3.0, 4.0]), tf.Variable(12.0)]
@tf.function
def clipped():
    with tf.GradientTape() as t:
        l = tf.reduce_sum(vs[0] ** 2) / 2 + vs[1] ** 2 / 2
    grads = t.gradient(l, vs)
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    return clipped, norm
c, n = clipped()
print(float(n), [np.round(x.numpy().astype(float), 4).tolist() for x in c])
# norm at zero
z = tf.Variable([0.0, 0.0])
with tf.GradientTape() as t:
    nn = tf.norm(z)
print(t.gradient(nn, z).numpy().tolist())
