"""Conv1D, 1-D pooling, padding, up-sampling, parametric activations, merge
layers, RepeatVector/Permute/Rescaling, MultiHeadAttention and Normalization
against numpy of the same math; eagerly, staged, in functional models, with
gradients."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
L = keras.layers
RNG = np.random.default_rng(11)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _staged(layer, x, spec=None):
    f = tf.function(lambda v: layer(v), input_signature=None if spec is None else [spec])
    return f(x).numpy()


def _conv1d_ref(x, w, stride=1, dilation=1, pad=(0, 0)):
    x = np.pad(x, ((0, 0), pad, (0, 0)))
    k = w.shape[0]
    span = dilation * (k - 1) + 1
    steps = (x.shape[1] - span) // stride + 1
    out = np.zeros((x.shape[0], steps, w.shape[2]))
    for t in range(steps):
        for j in range(k):
            out[:, t] += x[:, t * stride + j * dilation] @ w[j]
    return out


@pytest.mark.parametrize("padding,strides,dilation", [("valid", 1, 1), ("valid", 2, 1), ("same", 1, 1),
                                                      ("causal", 1, 2), ("same", 1, 2)])
def test_conv1d_matches_numpy(padding, strides, dilation):
    layer = L.Conv1D(4, 3, strides=strides, padding=padding, dilation_rate=dilation, activation="relu")
    x = _x(2, 9, 3)
    y = layer(x).numpy()
    w, b = layer.kernel.numpy(), layer.bias.numpy()
    assert w.shape == (3, 3, 4)
    span = dilation * 2
    pad = {"valid": (0, 0), "causal": (span, 0), "same": (span // 2, span - span // 2)}[padding]
    ref = np.maximum(_conv1d_ref(x, w, strides, dilation, pad) + b, 0)
    np.testing.assert_allclose(y, ref, atol=1e-5)
    np.testing.assert_allclose(_staged(layer, x, tf.TensorSpec([None, None, 3], tf.float32)), ref, atol=1e-5)


def test_causal_conv1d_output_at_t_ignores_later_steps():
    layer = L.Conv1D(2, 3, padding="causal")
    x = _x(1, 6, 2)
    y = layer(x).numpy()
    x2 = x.copy()
    x2[:, 4:] += 5.0
    np.testing.assert_allclose(layer(x2).numpy()[:, :4], y[:, :4], atol=1e-6)


def test_pooling_1d():
    x = _x(2, 7, 3)
    np.testing.assert_allclose(L.MaxPooling1D(2)(x).numpy(), x[:, :6].reshape(2, 3, 2, 3).max(2), atol=1e-6)
    np.testing.assert_allclose(L.AveragePooling1D(3, strides=2)(x).numpy(),
                               np.stack([x[:, i:i + 3].mean(1) for i in (0, 2, 4)], 1), atol=1e-6)
    assert L.MaxPool1D(2, padding="same")(x).shape == (2, 4, 3)
    inp = keras.Input(shape=(None, 3))
    assert keras.Model(inp, L.MaxPooling1D(2)(inp)).output_shape == (None, None, 3)


def test_padding_and_upsampling():
    x = _x(2, 3, 2)
    np.testing.assert_array_equal(L.ZeroPadding1D((1, 2))(x).numpy(), np.pad(x, ((0, 0), (1, 2), (0, 0))))
    np.testing.assert_array_equal(L.UpSampling1D(3)(x).numpy(), np.repeat(x, 3, axis=1))
    img = _x(2, 3, 4, 2)
    np.testing.assert_array_equal(L.ZeroPadding2D(((1, 0), (2, 1)))(img).numpy(),
                                  np.pad(img, ((0, 0), (1, 0), (2, 1), (0, 0))))
    np.testing.assert_array_equal(L.UpSampling2D((2, 3))(img).numpy(), np.repeat(np.repeat(img, 2, 1), 3, 2))
    np.testing.assert_array_equal(
        _staged(L.UpSampling2D(), img, tf.TensorSpec([None, None, None, 2], tf.float32)),
        np.repeat(np.repeat(img, 2, 1), 2, 2))


def test_parametric_activations_and_their_gradients():
    x = _x(3, 4)
    np.testing.assert_allclose(L.LeakyReLU()(x).numpy(), np.where(x > 0, x, 0.3 * x), atol=1e-6)
    np.testing.assert_allclose(L.LeakyReLU(alpha=0.1)(x).numpy(), np.where(x > 0, x, 0.1 * x), atol=1e-6)
    np.testing.assert_allclose(L.ELU(0.5)(x).numpy(), np.where(x > 0, x, 0.5 * (np.exp(x) - 1)), atol=1e-6)
    p = L.PReLU(alpha_initializer=keras.initializers.Constant(0.25))
    np.testing.assert_allclose(p(x).numpy(), np.where(x > 0, x, 0.25 * x), atol=1e-6)
    assert p.alpha.shape == (4,) and p.trainable_weights == [p.alpha]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(p(x))
    np.testing.assert_allclose(tape.gradient(y, p.alpha).numpy(), np.minimum(x, 0).sum(0), atol=1e-5)
    assert L.PReLU(shared_axes=[1, 2])(_x(2, 3, 3, 5)).shape == (2, 3, 3, 5)


def test_merge_layers_and_functional_forms():
    a, b, c = _x(2, 3), _x(2, 3), _x(2, 3)
    np.testing.assert_allclose(L.Subtract()([a, b]).numpy(), a - b, atol=1e-6)
    np.testing.assert_allclose(L.Multiply()([a, b, c]).numpy(), a * b * c, atol=1e-6)
    np.testing.assert_allclose(L.Average()([a, b]).numpy(), (a + b) / 2, atol=1e-6)
    np.testing.assert_allclose(L.Maximum()([a, b, c]).numpy(), np.maximum(np.maximum(a, b), c), atol=1e-6)
    np.testing.assert_allclose(L.Minimum()([a, b]).numpy(), np.minimum(a, b), atol=1e-6)
    i1, i2 = keras.Input(shape=(3,)), keras.Input(shape=(3,))
    model = keras.Model([i1, i2], L.concatenate([L.add([i1, i2]), L.subtract([i1, i2]), L.multiply([i1, i2])]))
    assert model.output_shape == (None, 9)
    np.testing.assert_allclose(model([a, b]).numpy(), np.concatenate([a + b, a - b, a * b], -1), atol=1e-6)
    with pytest.raises(ValueError, match="exactly 2"):
        L.Subtract()([a, b, c])


def test_repeat_vector_permute_rescaling_identity():
    x = _x(2, 3)
    np.testing.assert_array_equal(L.RepeatVector(4)(x).numpy(), np.repeat(x[:, None], 4, 1))
    y = _x(2, 3, 4, 5)
    np.testing.assert_array_equal(L.Permute((3, 1, 2))(y).numpy(), y.transpose(0, 3, 1, 2))
    img = RNG.integers(0, 256, (2, 4, 4, 3)).astype(np.uint8)
    out = L.Rescaling(1 / 255.0, offset=-0.5)(img)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), img / 255.0 - 0.5, atol=1e-6)
    np.testing.assert_array_equal(L.Identity()(x).numpy(), x)


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _mha_ref(layer, q, v, k=None, mask=None, causal=False):
    k = v if k is None else k
    w = {x.name.split("/", 1)[1][:-2]: x.numpy().astype(np.float64) for x in layer.weights}
    proj = {n: np.einsum("btf,fhd->bthd", x, w[f"{n}/kernel"]) + w[f"{n}/bias"]
            for n, x in (("query", q), ("key", k), ("value", v))}
    s = np.einsum("bqhd,bkhd->bhqk", proj["query"] / np.sqrt(layer.key_dim), proj["key"])
    m = np.ones(s.shape, bool)
    if mask is not None:
        m = m & mask[:, None]
    if causal:
        m = m & np.tril(np.ones(s.shape[-2:], bool))
    p = _softmax(np.where(m, s, s - 1e9))
    ctx = np.einsum("bhqk,bkhd->bqhd", p, proj["value"])
    return np.einsum("bqhd,hdo->bqo", ctx, w["attention_output/kernel"]) + w["attention_output/bias"], p


def test_multi_head_attention_matches_numpy():
    mha = L.MultiHeadAttention(num_heads=2, key_dim=3)
    q, v = _x(2, 4, 5), _x(2, 6, 7)
    out, scores = mha(q, v, return_attention_scores=True)
    shapes = {x.name.split("/", 1)[1]: tuple(x.shape) for x in mha.weights}
    assert shapes == {"query/kernel:0": (5, 2, 3), "query/bias:0": (2, 3), "key/kernel:0": (7, 2, 3),
                      "key/bias:0": (2, 3), "value/kernel:0": (7, 2, 3), "value/bias:0": (2, 3),
                      "attention_output/kernel:0": (2, 3, 5), "attention_output/bias:0": (5,)}
    ref, p = _mha_ref(mha, q.astype(np.float64), v.astype(np.float64))
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-5)
    np.testing.assert_allclose(scores.numpy(), p, atol=1e-5)
    mask = RNG.random((2, 4, 6)) > 0.3
    mask[:, :, 0] = True
    ref, _ = _mha_ref(mha, q.astype(np.float64), v.astype(np.float64), mask=mask)
    np.testing.assert_allclose(mha(query=q, value=v, attention_mask=mask).numpy(), ref, atol=1e-5)
    f = tf.function(lambda a, b, m: mha(a, b, attention_mask=m))
    np.testing.assert_allclose(f(q, v, mask).numpy(), ref, atol=1e-5)


def test_self_attention_with_causal_mask_in_a_trained_functional_model():
    keras.utils.set_random_seed(5)
    inp = keras.Input(shape=(None, 4))
    mha = L.MultiHeadAttention(num_heads=2, key_dim=4)
    h = mha(inp, inp, use_causal_mask=True)
    h = L.LayerNormalization()(L.Add()([inp, h]))
    model = keras.Model(inp, L.Dense(1)(L.GlobalAveragePooling1D()(h)))
    assert model.output_shape == (None, 1)
    x = _x(3, 5, 4)
    ref, _ = _mha_ref(mha, x.astype(np.float64), x.astype(np.float64), causal=True)
    np.testing.assert_allclose(mha(x, x, use_causal_mask=True).numpy(), ref, atol=1e-5)
    # step t attends to steps <= t only
    x2 = x.copy()
    x2[:, 3:] += 1.0
    np.testing.assert_allclose(mha(x2, x2, use_causal_mask=True).numpy()[:, :3], ref[:, :3], atol=1e-5)
    xs, ys = _x(32, 5, 4), _x(32, 1)
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    hist = model.fit(xs, ys, epochs=10, batch_size=16, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]


def test_normalization_adapt_and_given_statistics():
    data = (_x(50, 3) * [1.0, 10.0, 0.1] + [0.0, 5.0, -2.0]).astype(np.float32)
    norm = L.Normalization()
    norm.adapt(data)
    np.testing.assert_allclose(norm.mean.numpy(), data.mean(0), rtol=1e-5)
    np.testing.assert_allclose(norm.variance.numpy(), data.var(0), rtol=1e-4)
    y = norm(data).numpy()
    np.testing.assert_allclose(y, (data - data.mean(0)) / data.std(0), atol=1e-4)
    assert norm.trainable_weights == [] and len(norm.non_trainable_weights) == 3
    np.testing.assert_allclose(_staged(norm, data[:4], tf.TensorSpec([None, 3], tf.float32)), y[:4], atol=1e-4)
    ds = tf.data.Dataset.from_tensor_slices(data).batch(8)
    n2 = L.Normalization()
    n2.adapt(ds)
    np.testing.assert_allclose(n2.mean.numpy(), data.mean(0), rtol=1e-4)
    given = L.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])
    np.testing.assert_allclose(given(np.array([[3.0, 8.0]], np.float32)).numpy(), [[1.0, 2.0]])
    inverse = L.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0], invert=True)
    np.testing.assert_allclose(inverse(np.array([[1.0, 2.0]], np.float32)).numpy(), [[3.0, 8.0]])
    model = keras.Sequential([keras.Input(shape=(3,)), norm, L.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(data, data[:, :1], epochs=2, verbose=0)
    np.testing.assert_allclose(norm.mean.numpy(), data.mean(0), rtol=1e-5)  # fit leaves the statistics alone


def test_dropout_noise_shape_and_spatial_dropout_drop_whole_slices():
    x = np.ones((4, 6, 5), np.float32)
    y = L.Dropout(0.5, noise_shape=(None, 1, None), seed=1)(x, training=True).numpy()
    assert (y == y[:, :1, :]).all() and set(np.unique(y)) <= {0.0, 2.0} and 0 < (y == 0).mean() < 1
    y = L.SpatialDropout1D(0.5)(x, training=True).numpy()
    assert (y == y[:, :1, :]).all()
    img = np.ones((2, 3, 3, 8), np.float32)
    y = tf.function(lambda v: L.SpatialDropout2D(0.5)(v, training=True),
                    input_signature=[tf.TensorSpec([None, 3, 3, 8], tf.float32)])(img).numpy()
    assert (y == y[:, :1, :1, :]).all() and set(np.unique(y)) <= {0.0, 2.0}
    np.testing.assert_array_equal(L.SpatialDropout1D(0.5)(x).numpy(), x)  # not training: the identity


def test_gaussian_noise_and_activity_regularization_layers():
    x = np.zeros((200, 50), np.float32)
    noisy = L.GaussianNoise(0.5)(x, training=True).numpy()
    assert abs(noisy.std() - 0.5) < 0.02 and abs(noisy.mean()) < 0.02
    np.testing.assert_array_equal(L.GaussianNoise(0.5)(x).numpy(), x)
    reg = L.ActivityRegularization(l1=0.1, l2=0.01)
    v = _x(4, 3)
    np.testing.assert_array_equal(reg(v).numpy(), v)
    assert np.isclose(float(reg.losses[0]), (0.1 * np.abs(v).sum() + 0.01 * (v ** 2).sum()) / 4, rtol=1e-5)


def test_masks_follow_tensors_into_layers_called_in_a_subclassed_model():
    class Model(keras.Model):
        def __init__(self):
            super().__init__()
            self.embedding = L.Embedding(input_dim=50, output_dim=4, mask_zero=True)
            self.lstm = L.LSTM(3, return_sequences=True)
            self.pool = L.GlobalAveragePooling1D()

        def call(self, inputs):
            return self.pool(self.lstm(self.embedding(inputs)))

    model = Model()
    ids = np.array([[3, 4, 5, 0, 0], [2, 0, 0, 0, 0]])
    out = model(ids).numpy()
    # trailing padding is masked all the way through: more of it changes nothing
    np.testing.assert_allclose(model(np.pad(ids, ((0, 0), (0, 4)))).numpy(), out, atol=1e-6)
    np.testing.assert_allclose(tf.function(lambda v: model(v))(ids).numpy(), out, atol=1e-6)
    seq = model.lstm(model.embedding(ids)).numpy()
    np.testing.assert_allclose(out, np.stack([seq[0, :3].mean(0), seq[1, :1].mean(0)]), atol=1e-6)


def test_from_config_rebuilds_a_custom_layer():
    class Linear(keras.layers.Layer):
        def __init__(self, units=32, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    layer = Linear(64, name="lin")
    config = layer.get_config()
    new = Linear.from_config(config)
    assert new.units == 64 and new.name == "lin" and new.get_config() == config


def test_python_operators_on_functional_tensors_become_layers():
    i, j = keras.Input(shape=(3,)), keras.Input(shape=(3,))
    dense = L.Dense(3)
    out = (dense(i) * 2 + j) / 4 - 1.5 * i + i[:, :1] ** 2 - (1 - j) + abs(-i)
    model = keras.Model([i, j], out)
    assert model.output_shape == (None, 3)
    assert [type(layer).__name__ for layer in model.layers].count("TFOpLambda") == 13
    a, b = _x(4, 3), _x(4, 3)
    k, bias = dense.kernel.numpy(), dense.bias.numpy()
    ref = ((a @ k + bias) * 2 + b) / 4 - 1.5 * a + a[:, :1] ** 2 - (1 - b) + np.abs(a)
    np.testing.assert_allclose(model([a, b]).numpy(), ref, atol=1e-5)
    np.testing.assert_allclose(model.predict([a, b], verbose=0), ref, atol=1e-5)
    with pytest.raises(TypeError, match="Lambda"):
        tf.concat([i, j], axis=1)


@pytest.mark.parametrize("padding,strides", [("valid", 1), ("valid", 2), ("same", 2), ("same", 1)])
def test_conv2d_transpose_is_the_adjoint_of_conv2d(padding, strides):
    layer = L.Conv2DTranspose(3, 3, strides=strides, padding=padding, use_bias=False)
    x = _x(2, 4, 5, 2)
    y = layer(x)
    w = layer.kernel.numpy()
    assert w.shape == (3, 3, 3, 2)
    out = {"valid": lambda n: n * strides + max(3 - strides, 0), "same": lambda n: n * strides}[padding]
    assert y.shape == (2, out(4), out(5), 3)
    # <conv2d(z, w), x> == <z, conv2d_transpose(x, w)> for every z: the transpose
    z = _x(*y.shape)
    lhs = (tf.nn.conv2d(z, w, strides, padding.upper()).numpy() * x).sum()
    assert np.isclose(lhs, (z * y.numpy()).sum(), rtol=1e-4)
    # by hand: each input pixel scatters kernel-weighted copies (valid, the definition)
    if padding == "valid":
        ref = np.zeros(y.shape)
        for i in range(4):
            for j in range(5):
                ref[:, i * strides:i * strides + 3, j * strides:j * strides + 3] += \
                    np.einsum("nc,hwfc->nhwf", x[:, i, j], w)
        np.testing.assert_allclose(y.numpy(), ref, atol=1e-5)
    staged = _staged(layer, x, tf.TensorSpec([None, None, None, 2], tf.float32))
    np.testing.assert_allclose(staged, y.numpy(), atol=1e-5)


def test_conv_autoencoder_trains():
    keras.utils.set_random_seed(2)
    inp = keras.Input(shape=(8, 8, 1))
    h = L.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inp)
    out = L.Conv2DTranspose(1, 3, strides=2, padding="same")(h)
    model = keras.Model(inp, out)
    assert model.output_shape == (None, 8, 8, 1)
    x = RNG.random((16, 8, 8, 1)).astype(np.float32)
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    hist = model.fit(x, x, epochs=10, batch_size=8, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0] / 2


def test_tf_nn_conv1d_is_conv1d_layer_math():
    x, w = _x(2, 7, 3), _x(3, 3, 2)
    np.testing.assert_allclose(tf.nn.conv1d(x, w, 2, "VALID").numpy(), _conv1d_ref(x, w, 2), atol=1e-5)


def test_dot_and_additive_attention_layers_match_numpy():
    q, v, k = _x(2, 3, 4), _x(2, 5, 4), _x(2, 5, 4)
    vmask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
    qmask = np.array([[1, 1, 0], [1, 1, 1]], bool)

    def ref(scores, causal=False):
        keep = np.broadcast_to(vmask[:, None, :], scores.shape).copy()
        if causal:
            keep &= np.tril(np.ones(scores.shape[1:], bool))
        w = _softmax(np.where(keep, scores, scores - 1e9))
        return (w @ v) * qmask[..., None], w

    att = L.Attention(use_scale=True)
    out, w = att([q, v, k], mask=[qmask, vmask], return_attention_scores=True)
    scale = float(att.scale.numpy())
    want, want_w = ref(scale * q @ k.transpose(0, 2, 1))
    np.testing.assert_allclose(out.numpy(), want, atol=1e-5)
    np.testing.assert_allclose(w.numpy(), want_w, atol=1e-5)
    causal = L.Attention()([q, v, k], mask=[qmask, vmask], use_causal_mask=True)
    np.testing.assert_allclose(causal.numpy(), ref(q @ k.transpose(0, 2, 1), causal=True)[0], atol=1e-5)
    add = L.AdditiveAttention()
    out = add([q, v, k], mask=[qmask, vmask])
    s = add.scale.numpy()
    scores = (s * np.tanh(q[:, :, None, :] + k[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out.numpy(), ref(scores)[0], atol=1e-5)
    f = tf.function(lambda a, b: L.Attention()([a, b]))
    np.testing.assert_allclose(f(q, v).numpy(), _softmax(q @ v.transpose(0, 2, 1)) @ v, atol=1e-5)
    assert L.GlobalAvgPool1D is L.GlobalAveragePooling1D and L.GlobalMaxPool2D is L.GlobalMaxPooling2D


def test_default_layer_names_follow_keras():
    from autograph_cli.tf.keras._impl._layer import _snake

    assert [_snake(n) for n in ("Conv2D", "MaxPooling2D", "SimpleRNN", "LSTMCell", "GRU", "BatchNormalization",
                                "GlobalAveragePooling1D", "TextVectorization", "Conv2DTranspose", "Dense")] == [
        "conv2d", "max_pooling2d", "simple_rnn", "lstm_cell", "gru", "batch_normalization",
        "global_average_pooling1d", "text_vectorization", "conv2d_transpose", "dense"]


def test_sequential_feature_extraction_through_layer_outputs():
    initial = keras.Sequential([keras.Input(shape=(16, 16, 3)), L.Conv2D(4, 5, strides=2, activation="relu"),
                                L.Conv2D(4, 3, activation="relu", name="my_intermediate_layer"),
                                L.Conv2D(4, 3, activation="relu")])
    assert initial.output_shape == (None, 2, 2, 4) and len(initial.inputs) == 1
    x = _x(2, 16, 16, 3)
    mid = keras.Model(inputs=initial.inputs, outputs=initial.get_layer(name="my_intermediate_layer").output)
    every = keras.Model(inputs=initial.inputs, outputs=[layer.output for layer in initial.layers])
    outs = every(x)
    assert [tuple(o.shape) for o in outs] == [(2, 6, 6, 4), (2, 4, 4, 4), (2, 2, 2, 4)]
    h = initial.layers[0](x)
    np.testing.assert_allclose(outs[0].numpy(), h.numpy(), atol=1e-6)
    np.testing.assert_allclose(mid(x).numpy(), initial.layers[1](h).numpy(), atol=1e-6)
    np.testing.assert_allclose(outs[-1].numpy(), initial(x).numpy(), atol=1e-6)
    with pytest.raises(AttributeError, match="not connected"):
        L.Dense(2).output
    shared = L.Dense(2)
    i = keras.Input(shape=(3,))
    shared(i), shared(i)
    with pytest.raises(AttributeError, match="multiple inbound nodes"):
        shared.output
    assert keras.Input(shape=(784)).shape.as_list() == [None, 784]


def test_builtin_layers_config_round_trip_and_clone_model():
    dense = L.Dense(3, activation="relu", use_bias=False, name="d")
    config = dense.get_config()
    assert config["units"] == 3 and config["use_bias"] is False and config["name"] == "d"
    again = L.Dense.from_config(config)
    assert again.units == 3 and again.use_bias is False and again.name == "d"
    model = keras.Sequential([keras.Input(shape=(5, 3)), L.LSTM(4, return_sequences=True), L.Dropout(0.2),
                              L.GRU(3, reset_after=False), L.Dense(2, kernel_regularizer="l2")])
    clone = keras.models.clone_model(model)
    assert [type(layer).__name__ for layer in clone.layers] == ["LSTM", "Dropout", "GRU", "Dense"]
    assert not clone.layers[2].reset_after and clone.layers[3].kernel_regularizer is not None
    x = _x(2, 5, 3)
    assert not np.allclose(clone(x).numpy(), model(x).numpy())  # fresh weights
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy(), atol=1e-6)
    i, j = keras.Input(shape=(4,)), keras.Input(shape=(4,))
    shared = L.Dense(3)
    functional = keras.Model([i, j], L.Concatenate()([shared(i), shared(j)]) * 2)
    copy = keras.models.clone_model(functional)
    assert len(copy.weights) == 2  # the shared layer is cloned once
    copy.set_weights(functional.get_weights())
    a, b = _x(2, 4), _x(2, 4)
    np.testing.assert_allclose(copy([a, b]).numpy(), functional([a, b]).numpy(), atol=1e-6)
