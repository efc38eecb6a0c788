# Learning-rate schedules (the optimizer guide / the Transformer tutorial's
# CustomSchedule): ExponentialDecay with staircase, PiecewiseConstantDecay and
# a LearningRateSchedule subclass, each driving SGD inside a tf.function
# training step; the schedule is evaluated at optimizer.iterations before the
# update (0 on the first step), so the Transformer's warmup starts at lr 0.
import numpy as np
import autograph_cli.tf as tf


class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, d_model, warmup_steps=4):
        super().__init__()
        self.d_model = tf.cast(d_model, tf.float32)
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        step = tf.cast(step, dtype=tf.float32)
        arg1 = tf.math.rsqrt(step)
        arg2 = step * (self.warmup_steps ** -1.5)
        return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)

    def get_config(self):
        return {"d_model": 16, "warmup_steps": self.warmup_steps}


schedules = {
    "exponential": tf.keras.optimizers.schedules.ExponentialDecay(
        initial_learning_rate=0.4, decay_steps=2, decay_rate=0.5, staircase=True),
    "piecewise": tf.keras.optimizers.schedules.PiecewiseConstantDecay(boundaries=[1, 3], values=[0.3, 0.2, 0.05]),
    "custom": CustomSchedule(16, warmup_steps=3),
}

print("custom lr:", [round(float(schedules["custom"](s)), 5) for s in range(6)])
print("piecewise lr:", [round(float(schedules["piecewise"](s)), 5) for s in range(6)])
print("exponential lr:", [round(float(schedules["exponential"](s)), 5) for s in range(6)])
config = schedules["exponential"].get_config()
print("config:", sorted(config.items()))
rebuilt = tf.keras.optimizers.schedules.ExponentialDecay.from_config(config)
print("rebuilt lr(5):", round(float(rebuilt(5)), 5))
try:
    schedules["custom"].__class__.__bases__[0].get_config(schedules["custom"])
except NotImplementedError as e:
    print("base get_config:", type(e).__name__)

X = np.array([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5]], np.float32)
Y = np.array([[1.0], [0.0], [2.0]], np.float32)


def train(schedule, steps=6):
    w = tf.Variable([[0.1], [-0.2]])
    opt = tf.keras.optimizers.SGD(learning_rate=schedule)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    losses = [float(step(X, Y)) for _ in range(steps)]
    return losses, w.numpy(), int(opt.iterations.numpy()), step.experimental_get_tracing_count()


def numpy_train(lr_of, steps=6):
    w = np.array([[0.1], [-0.2]])
    losses = []
    for s in range(steps):
        r = X @ w - Y
        losses.append(np.mean(r ** 2))
        w = w - lr_of(s) * (2 * X.T @ r / 3)
    return losses, w


lr_fns = {
    "exponential": lambda s: 0.4 * 0.5 ** (s // 2),
    "piecewise": lambda s: 0.3 if s <= 1 else (0.2 if s <= 3 else 0.05),
    "custom": lambda s: 16 ** -0.5 * (min(s ** -0.5, s * 3 ** -1.5) if s else 0.0),
}
for name, schedule in schedules.items():
    losses, w, iterations, traces = train(schedule)
    ref_losses, ref_w = numpy_train(lr_fns[name])
    print(name, "iterations", iterations, "traces", traces, "final loss %.5f" % losses[-1],
          np.allclose(losses, ref_losses, rtol=1e-5), np.allclose(w, ref_w, atol=1e-6))
