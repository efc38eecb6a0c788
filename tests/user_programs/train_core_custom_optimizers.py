# "Custom optimizers with Core APIs": GradientDescent, Momentum and Adam
# written as tf.Module classes whose slot variables are created on the first
# apply_gradients call INSIDE a tf.function (the guide's `if not self.built`
# pattern), minimizing the guide's convex loss and a least-squares problem
# with the tape inside tf.function; each checked against numpy.
import numpy as np
import autograph_cli.tf as tf


class GradientDescent(tf.Module):
    def __init__(self, learning_rate=1e-3):
        self.learning_rate = learning_rate
        self.title = f"Gradient descent optimizer: learning rate={self.learning_rate}"

    def apply_gradients(self, grads, vars):
        for grad, var in zip(grads, vars):
            var.assign_sub(self.learning_rate * grad)


class Momentum(tf.Module):
    def __init__(self, learning_rate=1e-3, momentum=0.7):
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.change = 0.
        self.title = f"Gradient descent optimizer: learning rate={self.learning_rate}"

    def apply_gradients(self, grads, vars):
        for grad, var in zip(grads, vars):
            curr_change = self.learning_rate * grad + self.momentum * self.change
            var.assign_sub(curr_change)
            self.change = curr_change


class Adam(tf.Module):
    def __init__(self, learning_rate=1e-3, beta_1=0.9, beta_2=0.999, ep=1e-7):
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.learning_rate = learning_rate
        self.ep = ep
        self.t = 1.
        self.v_dvar, self.s_dvar = [], []
        self.title = f"Adam: learning rate={self.learning_rate}"
        self.built = False

    def apply_gradients(self, grads, vars):
        if not self.built:
            for var in vars:
                v = tf.Variable(tf.zeros(shape=var.shape))
                s = tf.Variable(tf.zeros(shape=var.shape))
                self.v_dvar.append(v)
                self.s_dvar.append(s)
            self.built = True
        for i, (d_var, var) in enumerate(zip(grads, vars)):
            self.v_dvar[i].assign(self.beta_1 * self.v_dvar[i] + (1 - self.beta_1) * d_var)
            self.s_dvar[i].assign(self.beta_2 * self.s_dvar[i] + (1 - self.beta_2) * tf.square(d_var))
            v_dvar_bc = self.v_dvar[i] / (1 - (self.beta_1 ** self.t))
            s_dvar_bc = self.s_dvar[i] / (1 - (self.beta_2 ** self.t))
            var.assign_sub(self.learning_rate * (v_dvar_bc / (tf.sqrt(s_dvar_bc) + self.ep)))
        self.t += 1.
        return


def loss(x):
    return 2 * (x ** 4) + 3 * (x ** 3) + 2


def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        result = f(x)
    return tape.gradient(result, x)


def convergence_test(optimizer, loss_fn, grad_fn=grad, init_val=2., max_iters=2000):
    print(optimizer.title)
    print("-------------------------------")
    x_star = tf.Variable(init_val)
    param_path = []
    converged = False
    for iter in range(1, max_iters + 1):
        x_grad = grad_fn(loss_fn, x_star)
        if tf.math.is_nan(x_grad):
            print(f"Gradient exploded at iteration {iter}\n")
            return []
        optimizer.apply_gradients([x_grad], [x_star])
        param_path.append(x_star.numpy())
        if x_grad == 0:
            converged = True
            print(f"Converged in {iter} iterations\n")
            break
    if not converged:
        print(f"Exceeded maximum of {max_iters} iterations. Test terminated.\n")
    return param_path


print("exploded path:", convergence_test(GradientDescent(learning_rate=0.3), loss_fn=loss))
path = convergence_test(GradientDescent(learning_rate=1e-3), loss_fn=loss, max_iters=60)
x, ref = 2.0, []
for _ in range(60):
    x = np.float32(x - np.float32(1e-3) * np.float32(8 * x ** 3 + 9 * x ** 2))
    ref.append(x)
print("gd path matches numpy:", np.allclose(path, ref, rtol=1e-5), "last %.4f" % path[-1])
path = convergence_test(Momentum(learning_rate=1e-3, momentum=0.7), loss_fn=loss, max_iters=40)
x, change, ref = 2.0, 0.0, []
for _ in range(40):
    change = 1e-3 * (8 * x ** 3 + 9 * x ** 2) + 0.7 * change
    x -= change
    ref.append(x)
print("momentum path matches numpy:", np.allclose(path, ref, rtol=1e-4), "last %.4f" % path[-1])

# least squares with each optimizer, the whole step in tf.function
rng = np.random.RandomState(0)
X = rng.normal(size=(16, 3)).astype(np.float32)
Y = (X @ np.array([1.5, -2.0, 0.5], np.float32) + 0.3).astype(np.float32)


def fit(optimizer, steps=25):
    w = tf.Variable(tf.zeros([3]))
    b = tf.Variable(0.0)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            l = tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) + b - y))
        grads = tape.gradient(l, [w, b])
        optimizer.apply_gradients(grads, [w, b])
        return l

    losses = [float(step(X, Y)) for _ in range(steps)]
    return losses, w.numpy(), b.numpy(), step.experimental_get_tracing_count()


def np_fit(kind, steps=25, lr=0.1, frozen_t=None):
    w, b = np.zeros(3), 0.0
    m = [np.zeros(3), 0.0]
    s = [np.zeros(3), 0.0]
    losses = []
    for t in range(1, steps + 1):
        r = X @ w + b - Y
        losses.append(np.mean(r ** 2))
        g = [2 * X.T @ r / len(r), 2 * r.mean()]
        if kind == "gd":
            w, b = w - lr * g[0], b - lr * g[1]
        else:
            upd = []
            for i in range(2):
                m[i] = 0.9 * m[i] + 0.1 * g[i]
                s[i] = 0.999 * s[i] + 0.001 * g[i] ** 2
                tt = t if frozen_t is None else frozen_t
                mh, sh = m[i] / (1 - 0.9 ** tt), s[i] / (1 - 0.999 ** tt)
                upd.append(lr * mh / (np.sqrt(sh) + 1e-7))
            w, b = w - upd[0], b - upd[1]
    return losses, w, b


for name, opt in [("gd", GradientDescent(0.1)), ("adam", Adam(0.1))]:
    losses, w, b, traces = fit(opt)
    # `self.t += 1.` is Python state: it changes while tracing only. The step traces twice (slots are
    # created on the first trace, then traced again without creating them) and every call runs the
    # second trace, where t is 2.0: the bias correction stays at t = 2 (TensorFlow's behaviour)
    ref_l, ref_w, ref_b = np_fit(name, frozen_t=2.0 if name == "adam" else None)
    print(name, "final loss %.5f" % losses[-1], "traces", traces, np.allclose(losses, ref_l, rtol=1e-4, atol=1e-6),
          np.allclose(w, ref_w, atol=1e-4), np.allclose(b, ref_b, atol=1e-4))
adam = Adam(0.1)
fit(adam, steps=3)
print("adam slots:", len(adam.v_dvar), [tuple(v.shape) for v in adam.s_dvar], "t after 3 steps:", adam.t)
