"""Recurrent Keras layers against hand-written numpy of the same math:
SimpleRNN, LSTM (gates [i, f, c, o]), GRU (reset_after both ways), masks,
go_backwards, initial_state, return_state, Bidirectional, TimeDistributed;
eagerly, inside tf.function (a staged while loop over an unknown time
dimension) and in fit, with gradients through the staged loop."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(7)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _run(step, x, states, mask=None, backwards=False, zero_masked=False):
    """numpy reference of Keras' loop: (outputs over time, final states)."""
    b, t = x.shape[:2]
    prev = np.zeros_like(step(x[:, 0], states)[0])
    outs = []
    for i in (range(t - 1, -1, -1) if backwards else range(t)):
        out, new = step(x[:, i], states)
        if mask is not None:
            m = mask[:, i:i + 1]
            new = [np.where(m, n, s) for n, s in zip(new, states)]
            out = np.where(m, out, 0 if zero_masked else prev)
        states, prev = new, out
        outs.append(out)
    return np.stack(outs, 1), states


def _simple(k, rk, bias):
    def step(x, s):
        h = np.tanh(x @ k + s[0] @ rk + bias)
        return h, [h]
    return step


def _lstm(k, rk, bias):
    def step(x, s):
        h, c = s
        i, f, g, o = np.split(x @ k + h @ rk + bias, 4, axis=1)
        c = _sig(f) * c + _sig(i) * np.tanh(g)
        h = _sig(o) * np.tanh(c)
        return h, [h, c]
    return step


def _gru(k, rk, bias, reset_after=True):
    u = rk.shape[0]

    def step(x, s):
        h = s[0]
        if reset_after:
            xz, xr, xh = np.split(x @ k + bias[0], 3, axis=1)
            rz, rr, rh = np.split(h @ rk + bias[1], 3, axis=1)
            z, r = _sig(xz + rz), _sig(xr + rr)
            hh = np.tanh(xh + r * rh)
        else:
            xz, xr, xh = np.split(x @ k + bias, 3, axis=1)
            z = _sig(xz + h @ rk[:, :u])
            r = _sig(xr + h @ rk[:, u:2 * u])
            hh = np.tanh(xh + (r * h) @ rk[:, 2 * u:])
        h = z * h + (1 - z) * hh
        return h, [h]
    return step


def _ref(layer, x, **kw):
    w = [v.numpy().astype(np.float64) for v in layer.weights]
    x = x.astype(np.float64)
    zeros = np.zeros((x.shape[0], layer.units))
    if isinstance(layer, keras.layers.LSTM):
        return _run(_lstm(*w), x, [zeros, zeros], **kw)
    if isinstance(layer, keras.layers.GRU):
        return _run(_gru(*w, reset_after=layer.reset_after), x, [zeros], **kw)
    return _run(_simple(*w), x, [zeros], **kw)


LAYERS = [
    ("SimpleRNN", lambda **kw: keras.layers.SimpleRNN(5, **kw)),
    ("LSTM", lambda **kw: keras.layers.LSTM(5, **kw)),
    ("GRU", lambda **kw: keras.layers.GRU(5, **kw)),
    ("GRU-reset-before", lambda **kw: keras.layers.GRU(5, reset_after=False, **kw)),
]


@pytest.mark.parametrize("name,make", LAYERS, ids=[n for n, _ in LAYERS])
def test_recurrent_layers_match_numpy_eagerly_and_staged(name, make):
    layer = make(return_sequences=True, return_state=True)
    x = _x(3, 6, 4)
    out = layer(x)
    seq, states = _ref(layer, x)
    assert len(out) == 1 + len(states)
    np.testing.assert_allclose(out[0].numpy(), seq, atol=1e-5)
    for got, want in zip(out[1:], states):
        np.testing.assert_allclose(got.numpy(), want, atol=1e-5)
    staged = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([None, None, 4], tf.float32)])
    for shape in ((3, 6, 4), (2, 1, 4), (1, 9, 4)):
        x = _x(*shape)
        got = staged(x)
        seq, states = _ref(layer, x)
        np.testing.assert_allclose(got[0].numpy(), seq, atol=1e-5)
        np.testing.assert_allclose(got[-1].numpy(), states[-1], atol=1e-5)
    # the time dimension stays unknown: one trace serves every length
    assert staged.experimental_get_tracing_count() == 1


def test_keras_default_weights_shapes_and_initializers():
    lstm, gru, simple = keras.layers.LSTM(3), keras.layers.GRU(3), keras.layers.SimpleRNN(3)
    x = _x(2, 4, 5)
    for layer in (lstm, gru, simple):
        assert layer(x).shape == (2, 3)
    assert [tuple(w.shape) for w in lstm.weights] == [(5, 12), (3, 12), (12,)]
    assert [tuple(w.shape) for w in gru.weights] == [(5, 9), (3, 9), (2, 9)]
    assert [tuple(w.shape) for w in simple.weights] == [(5, 3), (3, 3), (3,)]
    # unit_forget_bias: the forget gate's bias starts at one, the others at zero
    np.testing.assert_array_equal(lstm.weights[2].numpy(), [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    # orthogonal recurrent kernels
    for layer in (lstm, gru):
        rk = layer.weights[1].numpy()
        np.testing.assert_allclose(rk @ rk.T, np.eye(3), atol=1e-5)
    rk = simple.weights[1].numpy()
    np.testing.assert_allclose(rk @ rk.T, np.eye(3), atol=1e-5)
    assert lstm.units == 3 and gru.reset_after and lstm.cell.recurrent_activation is keras.activations.sigmoid


@pytest.mark.parametrize("name,make", LAYERS[:3], ids=[n for n, _ in LAYERS[:3]])
def test_mask_keeps_state_through_padding(name, make):
    layer = make(return_sequences=True)
    x = _x(3, 5, 2)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], bool)
    seq, _ = _ref(layer if layer.built else (layer(x), layer)[1], x, mask=mask)
    np.testing.assert_allclose(layer(x, mask=mask).numpy(), seq, atol=1e-5)
    staged = tf.function(lambda v, m: layer(v, mask=m))
    np.testing.assert_allclose(staged(x, mask).numpy(), seq, atol=1e-5)


def test_embedding_mask_reaches_the_lstm_in_sequential_and_functional_models():
    ids = np.array([[3, 4, 5, 0, 0], [2, 0, 0, 0, 0], [1, 2, 3, 4, 6]], np.int32)
    emb = keras.layers.Embedding(8, 3, mask_zero=True)
    lstm = keras.layers.LSTM(4)
    model = keras.Sequential([emb, lstm])
    got = model(ids).numpy()
    e = emb.embeddings.numpy()[ids]
    _, states = _ref(lstm, e, mask=ids != 0)
    np.testing.assert_allclose(got, states[0], atol=1e-5)
    # the last step seen is each row's last token: trailing padding changes nothing
    longer = np.concatenate([ids, np.zeros((3, 3), np.int32)], 1)
    np.testing.assert_allclose(model(longer).numpy(), got, atol=1e-5)
    inp = keras.Input(shape=(None,), dtype="int32")
    functional = keras.Model(inp, lstm(emb(inp)))
    np.testing.assert_allclose(functional(ids).numpy(), got, atol=1e-5)


def test_masking_layer_masks_the_steps_equal_to_mask_value():
    x = _x(2, 4, 3)
    x[0, 2:] = 0.0
    masking = keras.layers.Masking(mask_value=0.0)
    rnn = keras.layers.SimpleRNN(2)
    model = keras.Sequential([masking, rnn])
    got = model(x).numpy()
    _, states = _ref(rnn, x, mask=np.abs(x).sum(-1) != 0)
    np.testing.assert_allclose(got, states[0], atol=1e-5)
    np.testing.assert_array_equal(masking.compute_mask(x).numpy(), [[1, 1, 0, 0], [1, 1, 1, 1]])


def test_go_backwards_and_initial_state():
    layer = keras.layers.GRU(3, go_backwards=True, return_sequences=True)
    x = _x(2, 4, 2)
    h0 = _x(2, 3)
    out = layer(x, initial_state=h0)
    w = [v.numpy().astype(np.float64) for v in layer.weights]
    seq, _ = _run(_gru(*w), x.astype(np.float64), [h0.astype(np.float64)], backwards=True)
    np.testing.assert_allclose(out.numpy(), seq, atol=1e-5)
    staged = tf.function(lambda v, s: layer(v, initial_state=[s]))
    np.testing.assert_allclose(staged(x, h0).numpy(), seq, atol=1e-5)
    lstm = keras.layers.LSTM(3, return_state=True)
    with pytest.raises(ValueError, match="expects 2 state"):
        lstm(x, initial_state=[h0])


def test_gradient_through_the_staged_loop_matches_eager_and_finite_differences():
    layer = keras.layers.LSTM(3)
    x = _x(2, 5, 2)
    layer(x)

    def loss_of():
        return tf.reduce_sum(layer(x) ** 2)

    with tf.GradientTape() as tape:
        loss = loss_of()
    eager = [g.numpy() for g in tape.gradient(loss, layer.trainable_weights)]

    @tf.function(input_signature=[tf.TensorSpec([None, None, 2], tf.float32)])
    def grads(v):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(layer(v) ** 2)
        return tape.gradient(y, layer.trainable_weights)

    staged = [g.numpy() for g in grads(x)]
    for a, b in zip(eager, staged):
        np.testing.assert_allclose(a, b, atol=1e-5)
    w = [v.numpy().astype(np.float64) for v in layer.weights]
    eps = 1e-4

    def f(k):
        _, (h, _) = _run(_lstm(k, w[1], w[2]), x.astype(np.float64), [np.zeros((2, 3))] * 2)
        return (h ** 2).sum()

    k = w[0].copy()
    for idx in [(0, 0), (1, 5), (0, 11)]:
        kp, km = k.copy(), k.copy()
        kp[idx] += eps
        km[idx] -= eps
        assert abs((f(kp) - f(km)) / (2 * eps) - staged[0][idx]) < 1e-3


def test_rnn_of_a_custom_cell_and_of_stacked_cells():
    class MinimalRNNCell(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            prev = states[0]
            h = tf.matmul(inputs, self.kernel)
            output = h + tf.matmul(prev, self.recurrent_kernel)
            if tf.reduce_sum(output) > 1e9:  # a tensor-dependent branch inside the staged loop
                output = output * 0.0
            return output, [output]

    cell = MinimalRNNCell(3)
    layer = keras.layers.RNN(cell, return_sequences=True)
    x = _x(2, 4, 2)
    k, rk = (v.numpy() for v in (layer(x), *layer.weights)[1:])

    def step(v, s):
        out = v @ k + s[0] @ rk
        return out, [out]

    seq, _ = _run(step, x, [np.zeros((2, 3))])
    np.testing.assert_allclose(layer(x).numpy(), seq, atol=1e-5)
    np.testing.assert_allclose(tf.function(layer)(x).numpy(), seq, atol=1e-5)

    stacked = keras.layers.RNN([keras.layers.SimpleRNNCell(4), keras.layers.LSTMCell(2)], return_state=True)
    out, h1, h2, c2 = stacked(x)
    c1, c2cell = stacked.cell.cells
    w1 = [v.numpy() for v in c1.weights]
    w2 = [v.numpy() for v in c2cell.weights]
    s1, s2 = _simple(*w1), _lstm(*w2)

    def both(v, s):
        y, a = s1(v, s[:1])
        y, b = s2(y, s[1:])
        return y, a + b

    _, states = _run(both, x, [np.zeros((2, 4)), np.zeros((2, 2)), np.zeros((2, 2))])
    np.testing.assert_allclose(out.numpy(), states[1], atol=1e-5)
    np.testing.assert_allclose(h1.numpy(), states[0], atol=1e-5)
    np.testing.assert_allclose(c2.numpy(), states[2], atol=1e-5)


@pytest.mark.parametrize("merge_mode", ["concat", "sum", "ave", "mul", None])
def test_bidirectional_merges_a_forward_and_a_backward_copy(merge_mode):
    bi = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True), merge_mode=merge_mode)
    x = _x(2, 4, 2)
    mask = np.array([[1, 1, 1, 0], [1, 1, 1, 1]], bool)
    out = bi(x, mask=mask)
    assert bi.forward_layer.name.startswith("forward_lstm") and bi.backward_layer.name.startswith("backward_lstm")
    assert bi.backward_layer.go_backwards and len(bi.trainable_weights) == 6
    fw, _ = _ref(bi.forward_layer, x, mask=mask, zero_masked=True)
    bw, _ = _ref(bi.backward_layer, x, mask=mask, backwards=True, zero_masked=True)
    bw = bw[:, ::-1]
    want = {"concat": np.concatenate([fw, bw], -1), "sum": fw + bw, "ave": (fw + bw) / 2, "mul": fw * bw,
            None: [fw, bw]}[merge_mode]
    if merge_mode is None:
        for a, b in zip(out, want):
            np.testing.assert_allclose(a.numpy(), b, atol=1e-5)
    else:
        np.testing.assert_allclose(out.numpy(), want, atol=1e-5)
        staged = tf.function(lambda v, m: bi(v, mask=m))
        np.testing.assert_allclose(staged(x, mask).numpy(), want, atol=1e-5)


def test_bidirectional_last_outputs_and_states():
    bi = keras.layers.Bidirectional(keras.layers.GRU(2, return_state=True))
    x = _x(3, 5, 2)
    out, hf, hb = bi(x)
    _, (f,) = _ref(bi.forward_layer, x)
    _, (b,) = _ref(bi.backward_layer, x, backwards=True)
    np.testing.assert_allclose(out.numpy(), np.concatenate([f, b], -1), atol=1e-5)
    np.testing.assert_allclose(hb.numpy(), b, atol=1e-5)


def test_time_distributed_applies_a_layer_at_every_step():
    td = keras.layers.TimeDistributed(keras.layers.Dense(3))
    x = _x(2, 4, 5)
    y = td(x)
    k, b = (v.numpy() for v in td.weights)
    np.testing.assert_allclose(y.numpy(), x @ k + b, atol=1e-5)
    staged = tf.function(lambda v: td(v), input_signature=[tf.TensorSpec([None, None, 5], tf.float32)])
    np.testing.assert_allclose(staged(x).numpy(), x @ k + b, atol=1e-5)
    inp = keras.Input(shape=(None, 5))
    assert keras.Model(inp, td(inp)).output_shape == (None, None, 3)


def test_sequence_model_trains_with_fit_and_predicts():
    keras.utils.set_random_seed(3)
    x = _x(32, 6, 1)
    y = x.sum(1)  # the sum of the sequence
    inp = keras.Input(shape=(None, 1))
    h = keras.layers.Bidirectional(keras.layers.LSTM(8, return_sequences=True))(inp)
    h = keras.layers.GRU(8)(h)
    model = keras.Model(inp, keras.layers.Dense(1)(h))
    assert model.output_shape == (None, 1)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    hist = model.fit(x, y, epochs=15, batch_size=16, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0] / 3
    eager = model(x[:4]).numpy()
    np.testing.assert_allclose(model.predict(x[:4], verbose=0), eager, atol=1e-5)


def test_dropout_in_cells_only_when_training():
    layer = keras.layers.LSTM(4, dropout=0.5, recurrent_dropout=0.5, return_sequences=True)
    x = _x(2, 3, 3)
    a = layer(x).numpy()
    np.testing.assert_allclose(layer(x, training=False).numpy(), a)
    assert not np.allclose(layer(x, training=True).numpy(), a)
    staged = tf.function(lambda v: layer(v, training=True))
    assert staged(x).shape == (2, 3, 4)


def test_recurrent_errors():
    with pytest.raises(ValueError, match="expected ndim=3"):
        keras.layers.LSTM(2)(_x(2, 3))
    with pytest.raises(ValueError, match="merge mode"):
        keras.layers.Bidirectional(keras.layers.LSTM(2), merge_mode="max")
    with pytest.raises(ValueError, match="state_size"):
        keras.layers.RNN(object())


def test_stateful_lstm_carries_its_states_across_calls():
    p1, p2, p3 = _x(4, 3, 5), _x(4, 2, 5), _x(4, 6, 5)
    layer = keras.layers.LSTM(6, stateful=True)
    layer(p1)
    out = layer(p2).numpy()
    # the same as one call over the two paragraphs joined
    _, (h, c) = _ref(layer, np.concatenate([p1, p2], 1))
    np.testing.assert_allclose(out, h, atol=1e-5)
    np.testing.assert_allclose(layer.states[1].numpy(), c, atol=1e-5)
    assert layer.weights == layer.cell.weights  # the states are not weights
    # the guide's state reuse: a new layer starts from another's states
    fresh = keras.layers.LSTM(6)
    fresh(p3)
    fresh.set_weights(layer.get_weights())
    reused = fresh(p3, initial_state=layer.states).numpy()
    np.testing.assert_allclose(reused, layer(p3).numpy(), atol=1e-5)
    layer.reset_states()
    assert not layer.states[0].numpy().any()
    np.testing.assert_allclose(layer(p1).numpy(), _ref(layer, p1)[1][0], atol=1e-5)
    staged = tf.function(lambda v: layer(v))
    layer.reset_states()
    staged(p1)
    np.testing.assert_allclose(staged(p2).numpy(), h, atol=1e-5)
    with pytest.raises(AttributeError, match="must be stateful"):
        fresh.reset_states()
