"""AdamW (and weight_decay on any optimizer), Adamax, Adadelta and the added
learning-rate schedules against numpy of tf.keras' update rules."""
import math

import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(13)


def _run(opt, grads, w0):
    v = tf.Variable(w0.astype(np.float32))
    for g in grads:
        opt.apply_gradients([(tf.constant(g.astype(np.float32)), v)])
    return v.numpy()


def _adam_ref(w, grads, lr=0.001, b1=0.9, b2=0.999, eps=1e-7, wd=0.0):
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        w = w - lr * wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        alpha = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w = w - alpha * m / (np.sqrt(v) + eps)
    return w


def test_adamw_is_adam_with_decoupled_weight_decay():
    w0 = RNG.standard_normal(4)
    grads = [RNG.standard_normal(4) for _ in range(5)]
    got = _run(keras.optimizers.AdamW(learning_rate=0.01, weight_decay=0.1), grads, w0)
    np.testing.assert_allclose(got, _adam_ref(w0, grads, lr=0.01, wd=0.1), rtol=1e-5, atol=1e-6)
    got = _run(keras.optimizers.SGD(0.1, weight_decay=0.5), grads, w0)
    ref = w0.copy()
    for g in grads:
        ref = ref - 0.1 * 0.5 * ref - 0.1 * g
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    opt = keras.optimizers.AdamW(0.01, weight_decay=0.1)
    bias = tf.Variable(w0.astype(np.float32), name="bias")
    opt.exclude_from_weight_decay(var_names=["bias"])
    for g in grads:
        opt.apply_gradients([(tf.constant(g.astype(np.float32)), bias)])
    np.testing.assert_allclose(bias.numpy(), _adam_ref(w0, grads, lr=0.01), rtol=1e-5, atol=1e-6)
    assert isinstance(keras.optimizers.get("adamw"), keras.optimizers.AdamW)


def test_adamax_and_adadelta():
    w0 = RNG.standard_normal(3)
    grads = [RNG.standard_normal(3) for _ in range(4)]
    m, u, w = np.zeros(3), np.zeros(3), w0.copy()
    for t, g in enumerate(grads, 1):
        m = 0.9 * m + 0.1 * g
        u = np.maximum(0.999 * u, np.abs(g))
        w = w - 0.01 / (1 - 0.9 ** t) * m / (u + 1e-7)
    np.testing.assert_allclose(_run(keras.optimizers.Adamax(0.01), grads, w0), w, rtol=1e-5, atol=1e-6)
    ag, ad, w = np.zeros(3), np.zeros(3), w0.copy()
    for g in grads:
        ag = 0.95 * ag + 0.05 * g * g
        d = -np.sqrt(ad + 1e-7) / np.sqrt(ag + 1e-7) * g
        ad = 0.95 * ad + 0.05 * d * d
        w = w + 1.0 * d
    np.testing.assert_allclose(_run(keras.optimizers.Adadelta(1.0), grads, w0), w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,make,ref", [
    ("InverseTimeDecay", lambda S: S.InverseTimeDecay(0.1, 10, 0.5), lambda s: 0.1 / (1 + 0.5 * s / 10)),
    ("PiecewiseConstantDecay", lambda S: S.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]),
     lambda s: 1.0 if s <= 5 else 0.5 if s <= 10 else 0.1),
    ("PolynomialDecay", lambda S: S.PolynomialDecay(0.1, 20, 0.01, power=2.0),
     lambda s: (0.1 - 0.01) * (1 - min(s, 20) / 20) ** 2 + 0.01),
    ("CosineDecay", lambda S: S.CosineDecay(0.1, 20, alpha=0.1),
     lambda s: 0.1 * (0.9 * 0.5 * (1 + math.cos(math.pi * min(s, 20) / 20)) + 0.1)),
    ("CosineDecay-warmup", lambda S: S.CosineDecay(0.0, 20, warmup_target=0.2, warmup_steps=4),
     lambda s: 0.2 * s / 4 if s < 4 else 0.2 * 0.5 * (1 + math.cos(math.pi * min(s - 4, 20) / 20))),
])
def test_schedules(name, make, ref):
    sched = make(keras.optimizers.schedules)
    for s in (0, 1, 3, 4, 5, 6, 10, 11, 19, 25, 40):
        assert np.isclose(float(sched(s)), ref(s), rtol=1e-5, atol=1e-7), (name, s)
    # as an optimizer's learning rate, read at each step inside the traced train step
    opt = keras.optimizers.SGD(sched)
    v = tf.Variable(0.0)
    step = tf.function(lambda: opt.apply_gradients([(tf.constant(1.0), v)]))
    for _ in range(6):
        step()
    assert np.isclose(-v.numpy(), sum(ref(s) for s in range(6)), rtol=1e-5)


@pytest.mark.parametrize("make", [
    lambda: keras.optimizers.Adam(0.05), lambda: keras.optimizers.Adam(0.05, amsgrad=True),
    lambda: keras.optimizers.AdamW(0.05), lambda: keras.optimizers.Adamax(0.05),
    lambda: keras.optimizers.SGD(0.05, momentum=0.9), lambda: keras.optimizers.RMSprop(0.05),
    lambda: keras.optimizers.Adagrad(0.05), lambda: keras.optimizers.Adadelta(0.05)])
@pytest.mark.parametrize("staged", [False, True])
def test_float64_variables_update_in_float64(make, staged):
    # Bias corrections (beta ** step) are computed in the variable's dtype: a
    # float64 variable gets the float32 run's values, and stays float64.
    w0 = np.array([1.0, -2.0, 0.5])
    grads = [RNG.standard_normal(3) for _ in range(3)]
    expected = _run(make(), grads, w0)
    opt, v = make(), tf.Variable(w0)

    def step(g):
        opt.apply_gradients([(g, v)])

    if staged:
        step = tf.function(step)
    for g in grads:
        step(tf.constant(g))
    assert v.dtype == tf.float64
    np.testing.assert_allclose(v.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_nadam_follows_dozats_momentum_schedule():
    # keras.optimizers.Nadam (tf.keras 2.11+ / Keras 3): u_t = b1 (1 - 0.5 * 0.96^t), the product of the
    # u's so far, m_hat from u_{t+1} and v_hat bias-corrected, on two variables stepped together
    w0, w1 = RNG.standard_normal(3), RNG.standard_normal((2, 2))
    grads = [(RNG.standard_normal(3), RNG.standard_normal((2, 2))) for _ in range(6)]
    lr, b1, b2, eps = 0.02, 0.9, 0.999, 1e-7
    ws, ms, vs, u_prod = [w0.copy(), w1.copy()], [np.zeros(3), np.zeros((2, 2))], [np.zeros(3), np.zeros((2, 2))], 1.0
    for t, gs in enumerate(grads, 1):
        u_t, u_t1 = b1 * (1 - 0.5 * 0.96 ** t), b1 * (1 - 0.5 * 0.96 ** (t + 1))
        u_prod *= u_t
        for i, g in enumerate(gs):
            ms[i] = ms[i] + (g - ms[i]) * (1 - b1)
            vs[i] = vs[i] + (g * g - vs[i]) * (1 - b2)
            m_hat = u_t1 * ms[i] / (1 - u_prod * u_t1) + (1 - u_t) * g / (1 - u_prod)
            v_hat = vs[i] / (1 - b2 ** t)
            ws[i] = ws[i] - lr * m_hat / (np.sqrt(v_hat) + eps)
    opt = keras.optimizers.Nadam(learning_rate=lr)
    a, b = tf.Variable(w0.astype(np.float32)), tf.Variable(w1.astype(np.float32))
    for g0, g1 in grads:
        opt.apply_gradients([(tf.constant(g0.astype(np.float32)), a), (tf.constant(g1.astype(np.float32)), b)])
    np.testing.assert_allclose(a.numpy(), ws[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), ws[1], rtol=1e-5, atol=1e-6)
    assert int(opt.iterations.numpy()) == 6
    assert isinstance(keras.optimizers.get("nadam"), keras.optimizers.Nadam)


def test_nadam_in_a_traced_train_step():
    opt = keras.optimizers.Nadam(0.01)
    w = tf.Variable([1.0, -2.0])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

    eager_opt, w_eager = keras.optimizers.Nadam(0.01), tf.Variable([1.0, -2.0])
    for _ in range(3):
        step()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w_eager * w_eager)
        eager_opt.apply_gradients(zip(tape.gradient(loss, [w_eager]), [w_eager]))
    np.testing.assert_allclose(w.numpy(), w_eager.numpy(), rtol=1e-6)
    assert float(w.numpy()[0]) < 1.0


def test_lion_and_ftrl_follow_keras_rules():
    w0 = RNG.standard_normal(4)
    grads = [RNG.standard_normal(4) for _ in range(5)]
    m, w = np.zeros(4), w0.copy()
    for g in grads:  # Lion: sign of the interpolated momentum, then the momentum update
        w = w - 0.01 * np.sign(0.9 * m + 0.1 * g)
        m = 0.99 * m + 0.01 * g
    np.testing.assert_allclose(_run(keras.optimizers.Lion(0.01), grads, w0), w, rtol=1e-5, atol=1e-6)

    lr, l1, l2, shrink, beta = 0.1, 0.05, 0.01, 0.02, 0.5
    acc, lin, w = np.full(4, 0.1), np.zeros(4), w0.copy()
    for g in grads:  # FTRL-proximal with Keras' l2 shrinkage and beta
        g_use = g + 2 * shrink * w
        new_acc = acc + g * g
        lin = lin + g_use - (new_acc ** 0.5 - acc ** 0.5) / lr * w
        quad = new_acc ** 0.5 / lr + 2 * (l2 + beta / (2 * lr))
        w = (np.clip(lin, -l1, l1) - lin) / quad
        acc = new_acc
    opt = keras.optimizers.Ftrl(lr, l1_regularization_strength=l1, l2_regularization_strength=l2,
                                l2_shrinkage_regularization_strength=shrink, beta=beta)
    np.testing.assert_allclose(_run(opt, grads, w0), w, rtol=1e-5, atol=1e-6)
    assert isinstance(keras.optimizers.get("lion"), keras.optimizers.Lion)
    assert isinstance(keras.optimizers.get("ftrl"), keras.optimizers.Ftrl)


def test_an_optimizer_gives_each_new_variable_fresh_slots_even_when_a_freed_variable_had_its_id():
    # a variable dropped after training must not lend its slots (by a reused
    # id()) to the next variable the optimizer sees: the shapes differ here
    import gc

    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    for trial in range(20):
        v = tf.Variable([1.0, 2.0] if trial % 2 else [1.0, 2.0, 3.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
        # a fresh (zero) momentum: the first step is plain SGD, v - 0.1 * 2v
        np.testing.assert_allclose(v.numpy(), 0.8 * np.arange(1.0, v.shape[0] + 1), rtol=1e-6)
        del v, tape, loss
        gc.collect()
