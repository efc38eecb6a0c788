# Linear algebra with gradients inside tf.function: a ridge regression
# solved in closed form with tf.linalg.solve / cholesky / inv, the gradient of
# the validation loss w.r.t. the regularization strength (differentiating
# through the solver), log-determinants via slogdet, and a few gradient
# steps on the hyper-parameter; checked against finite differences.
import numpy as np
import autograph_cli.tf as tf

rng = np.random.RandomState(4)
Xtr = rng.normal(size=(12, 3)).astype(np.float64)
ytr = (Xtr @ np.array([1.0, -1.0, 2.0]) + rng.normal(size=12) * 0.3)[:, None]
Xva = rng.normal(size=(6, 3))
yva = (Xva @ np.array([1.0, -1.0, 2.0]))[:, None]
log_lam = tf.Variable(0.0, dtype=tf.float64)


def val_loss(log_lam_value, method):
    lam = tf.exp(log_lam_value)
    A = tf.matmul(Xtr, Xtr, transpose_a=True) + lam * tf.eye(3, dtype=tf.float64)
    b = tf.matmul(Xtr, ytr, transpose_a=True)
    if method == "solve":
        w = tf.linalg.solve(A, b)
    elif method == "cholesky":
        L = tf.linalg.cholesky(A)
        w = tf.linalg.cholesky_solve(L, b)
    else:
        w = tf.matmul(tf.linalg.inv(A), b)
    return tf.reduce_mean(tf.square(tf.matmul(Xva, w) - yva)), A


@tf.function
def grads(method):
    with tf.GradientTape() as tape:
        loss, A = val_loss(log_lam, method)
    return loss, tape.gradient(loss, log_lam), tf.linalg.slogdet(A)


def np_loss(ll):
    A = Xtr.T @ Xtr + np.exp(ll) * np.eye(3)
    w = np.linalg.solve(A, Xtr.T @ ytr)
    return np.mean((Xva @ w - yva) ** 2)


fd = (np_loss(1e-6) - np_loss(-1e-6)) / 2e-6
for method in ("solve", "cholesky", "inv"):
    loss, g, (sign, logdet) = grads(method)
    print(method, "loss %.6f" % float(loss), np.isclose(float(g), fd, rtol=1e-5),
          float(sign), np.isclose(float(logdet), np.linalg.slogdet(Xtr.T @ Xtr + np.eye(3))[1]))


@tf.function
def tune_step():
    with tf.GradientTape() as tape:
        loss, _ = val_loss(log_lam, "solve")
    log_lam.assign_sub(0.5 * tape.gradient(loss, log_lam))
    return loss


path = [float(tune_step()) for _ in range(4)]
ll, ref = 0.0, []
for _ in range(4):
    ref.append(np_loss(ll))
    ll -= 0.5 * (np_loss(ll + 1e-6) - np_loss(ll - 1e-6)) / 2e-6
print("tuning matches:", np.allclose(path, ref, rtol=1e-6), np.isclose(log_lam.numpy(), ll, atol=1e-6))
M = tf.constant([[4.0, 1.0], [2.0, 3.0]], tf.float64)
with tf.GradientTape() as tape:
    tape.watch(M)
    d = tf.linalg.det(M)
print(round(float(d), 6), np.round(tape.gradient(d, M).numpy(), 6).tolist())
