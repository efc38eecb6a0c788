# "Basic training loops" / "Modules": a tf.Module MLP whose variables are made
# in its name scope (names "mlp/w1:0"; variables listed as tf.Module lists
# them: attributes sorted by name), trained with Adam and the tape inside a
# tf.function whose signature has a None batch (one trace; a second for the
# optimizer's first-call variables), a step counter Variable driving a staged
# tf.print; checked against the same MLP and Adam in numpy.
import numpy as np
import autograph_cli.tf as tf

rng = np.random.RandomState(0)
X = rng.randn(50, 2).astype(np.float32)
Y = (X @ np.array([[2.0], [-1.0]], np.float32) + 0.5).astype(np.float32)


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w1 = tf.Variable(np.full((2, 4), 0.1, np.float32), name="w1")
            self.b1 = tf.Variable(tf.zeros([4]), name="b1")
            self.w2 = tf.Variable(np.full((4, 1), 0.2, np.float32), name="w2")
            self.b2 = tf.Variable(tf.zeros([1]), name="b2")
        self.steps = tf.Variable(0, trainable=False, name="steps")

    @tf.Module.with_name_scope
    def __call__(self, x):
        h = tf.nn.relu(x @ self.w1 + self.b1)
        return h @ self.w2 + self.b2


model = MLP(name="mlp")
print([v.name for v in model.trainable_variables], len(model.variables))
opt = tf.keras.optimizers.Adam(learning_rate=0.05)
loss_fn = tf.keras.losses.MeanSquaredError()
traces = []


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def train_step(x, y):
    traces.append(x.shape)
    with tf.GradientTape() as tape:
        pred = model(x)
        loss = loss_fn(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    model.steps.assign_add(1)
    if model.steps % 10 == 0:
        tf.print("step", model.steps, "batch", tf.shape(x)[0])
    return loss


ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)
for epoch in range(3):
    losses = [float(train_step(x, y)) for x, y in ds]
print(len(traces), traces[0], int(model.steps), int(opt.iterations))

# numpy reference: the same MLP, Adam and batches
p = {"w1": np.full((2, 4), 0.1), "b1": np.zeros(4), "w2": np.full((4, 1), 0.2), "b2": np.zeros(1)}
m = {k: np.zeros_like(v) for k, v in p.items()}
v = {k: np.zeros_like(v) for k, v in p.items()}
t = 0
for epoch in range(3):
    ref_losses = []
    for i in range(0, 50, 16):
        x, y = X[i:i + 16].astype(np.float64), Y[i:i + 16].astype(np.float64)
        z = x @ p["w1"] + p["b1"]
        h = np.maximum(z, 0)
        out = h @ p["w2"] + p["b2"]
        ref_losses.append(np.mean((out - y) ** 2))
        d = 2 * (out - y) / out.size
        g = {"w2": h.T @ d, "b2": d.sum(0)}
        dh = d @ p["w2"].T * (z > 0)
        g["w1"], g["b1"] = x.T @ dh, dh.sum(0)
        t += 1
        for k in p:
            m[k] = 0.9 * m[k] + 0.1 * g[k]
            v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
            lr = 0.05 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
            p[k] -= lr * m[k] / (np.sqrt(v[k]) + 1e-7)
print(np.allclose(losses, ref_losses, rtol=1e-4, atol=1e-5), np.allclose(model.w1.numpy(), p["w1"], atol=1e-4))

# a concrete function with the signature runs any batch size
cf = train_step.get_concrete_function()
print(cf.structured_input_signature[0][0].shape, model(tf.zeros([3, 2])).shape)

# name scopes prefix the names of variables made in them
with tf.name_scope("outer") as scope:
    with tf.name_scope("inner") as inner:
        v = tf.Variable(1.0, name="v")
    u = tf.Variable(2.0)
print(scope, inner, v.name, u.name, tf.Variable(0.0, name="top").name)
print([s.name for s in MLP(name="second").submodules], [w.name for w in MLP(name="second").variables])
