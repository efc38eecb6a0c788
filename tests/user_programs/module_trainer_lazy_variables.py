# "Introduction to modules" + "Better performance with tf.function": a
# tf.Module whose layer creates its variables on the first call (the guide's
# FlexibleDenseModule), called for the first time INSIDE a trainer module's
# @tf.function method with an input_signature of None dims. The trainer's
# learning rate and step counter are created outside the function, its
# momentum buffers inside on the first trace (`if self.velocity is None`).
import numpy as np
import autograph_cli.tf as tf


class FlexibleDense(tf.Module):
    def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features

    def __call__(self, x):
        if not self.is_built:
            n_in = x.shape[-1]
            init = np.arange(n_in * self.out_features, dtype=np.float32).reshape(n_in, self.out_features) / 10.0
            self.w = tf.Variable(init, name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
            self.is_built = True
        return tf.matmul(x, self.w) + self.b


class Trainer(tf.Module):
    def __init__(self, model, lr):
        super().__init__(name="trainer")
        self.model = model
        self.lr = tf.Variable(lr, trainable=False, name="lr")
        self.steps = tf.Variable(0, name="steps")
        self.velocity = None

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 2], tf.float32)])
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        params = self.model.trainable_variables
        grads = tape.gradient(loss, params)
        if self.velocity is None:
            self.velocity = [tf.Variable(tf.zeros_like(p), trainable=False) for p in params]
        for p, g, m in zip(params, grads, self.velocity):
            m.assign(0.9 * m + g)
            p.assign_sub(self.lr * m)
        self.steps.assign_add(1)
        return loss


model = FlexibleDense(2, name="dense")
trainer = Trainer(model, 0.05)
print("before:", [v.name for v in trainer.variables])
rng = np.random.RandomState(3)
batches = [rng.normal(size=(n, 3)).astype(np.float32) for n in (4, 2, 5, 3)]
targets = [np.stack([b.sum(1), b[:, 0] - b[:, 2]], 1).astype(np.float32) for b in batches]
losses = []
for epoch in range(2):
    for xb, yb in zip(batches, targets):
        losses.append(float(trainer.train_step(xb, yb)))
trainer.lr.assign(0.01)                       # a variable: the trace sees the new value
losses.append(float(trainer.train_step(batches[0], targets[0])))

print("after:", [v.name for v in trainer.variables])
print("trainable:", [v.name for v in trainer.trainable_variables])
print("model vars:", [(v.name, tuple(v.shape)) for v in model.variables])
print("steps:", int(trainer.steps.numpy()), "traces:", trainer.train_step.experimental_get_tracing_count())
print("submodules:", [m.name for m in trainer.submodules])

W = np.arange(6, dtype=np.float64).reshape(3, 2) / 10.0
B = np.zeros(2)
mW, mB = np.zeros_like(W), np.zeros_like(B)
ref = []
schedule = [(xb, yb, 0.05) for _ in range(2) for xb, yb in zip(batches, targets)] + [(batches[0], targets[0], 0.01)]
for xb, yb, lr in schedule:
    r = xb @ W + B - yb
    ref.append(np.mean(r ** 2))
    gW, gB = 2 * xb.T @ r / r.size, 2 * r.sum(0) / r.size
    mB, mW = 0.9 * mB + gB, 0.9 * mW + gW
    W, B = W - lr * mW, B - lr * mB
print("losses match:", np.allclose(losses, ref, rtol=1e-5), "weights match:",
      np.allclose(model.w.numpy(), W, atol=1e-5), np.allclose(model.b.numpy(), B, atol=1e-5))
print("velocity match:", np.allclose(trainer.velocity[1].numpy(), mW, atol=1e-5))
