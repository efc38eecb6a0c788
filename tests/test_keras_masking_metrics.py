"""The "Understanding masking & padding" and "Making new layers and models via subclassing"
guides' APIs: `tensor._keras_mask` (eager and on Keras tensors), compute_mask returning one
mask per output, masks through symbolic calls, layer.metrics (attribute metrics and
add_metric) reported by fit and reset each epoch; tf.nn.embedding_lookup."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
layers = keras.layers
PADDED = keras.utils.pad_sequences([[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]],
                                   padding="post")
EXPECTED_MASK = PADDED != 0


def test_keras_mask_attribute_of_embedding_and_masking_outputs():
    out = layers.Embedding(input_dim=5000, output_dim=16, mask_zero=True)(PADDED)
    np.testing.assert_array_equal(out._keras_mask.numpy(), EXPECTED_MASK)
    dense = tf.cast(tf.tile(tf.expand_dims(PADDED, axis=-1), [1, 1, 10]), tf.float32)
    np.testing.assert_array_equal(layers.Masking()(dense)._keras_mask.numpy(), EXPECTED_MASK)
    assert tf.constant([1.0])._keras_mask is None
    t = tf.constant([[1.0, 2.0]])
    t._keras_mask = tf.constant([[True, False]])
    np.testing.assert_array_equal(t._keras_mask.numpy(), [[True, False]])
    t._keras_mask = None
    assert t._keras_mask is None


def test_compute_mask_with_one_mask_per_output():
    class TemporalSplit(keras.layers.Layer):
        def call(self, inputs):
            return tf.split(inputs, 2, axis=1)

        def compute_mask(self, inputs, mask=None):
            return None if mask is None else tf.split(mask, 2, axis=1)

    masked = layers.Masking()(tf.cast(tf.expand_dims(PADDED, -1), tf.float32))
    first, second = TemporalSplit()(masked)
    np.testing.assert_array_equal(first._keras_mask.numpy(), EXPECTED_MASK[:, :3])
    np.testing.assert_array_equal(second._keras_mask.numpy(), EXPECTED_MASK[:, 3:])


def test_masks_on_keras_tensors_and_a_mask_consuming_layer():
    class MyActivation(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.supports_masking = True

        def call(self, inputs):
            return tf.nn.relu(inputs)

    class TemporalSoftmax(keras.layers.Layer):
        def call(self, inputs, mask=None):
            assert mask is not None
            m = tf.expand_dims(tf.cast(mask, "float32"), -1)
            e = tf.exp(inputs) * m
            return e / tf.reduce_sum(e, axis=1, keepdims=True)

    inputs = keras.Input(shape=(None,), dtype="int32")
    x = layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)(inputs)
    assert x._keras_mask is not None and x._keras_mask.dtype == tf.bool
    x = MyActivation()(x)
    assert x._keras_mask is not None and x._keras_mask.shape.as_list() == [None, None]
    outputs = TemporalSoftmax()(layers.Dense(1)(x))
    model = keras.Model(inputs, outputs)
    ids = np.array([[3, 4, 0, 0], [1, 2, 5, 0]])
    y = model(ids).numpy()[..., 0]
    np.testing.assert_allclose(y.sum(axis=1), [1.0, 1.0], rtol=1e-6)
    assert (y[ids == 0] == 0).all()


def test_layer_metrics_attribute_and_add_metric_in_fit():
    class LogisticEndpoint(keras.layers.Layer):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
            self.accuracy_fn = keras.metrics.BinaryAccuracy()

        def call(self, targets, logits, sample_weights=None):
            self.add_loss(self.loss_fn(targets, logits, sample_weights))
            self.add_metric(self.accuracy_fn(targets, logits, sample_weights), name="accuracy")
            return tf.nn.softmax(logits)

    layer = LogisticEndpoint()
    layer(tf.ones((2, 2)), tf.ones((2, 2)))
    assert [m.name for m in layer.metrics] == ["accuracy", "binary_accuracy"]
    assert float(layer.metrics[0].result()) == 1.0
    with pytest.raises(ValueError, match="provide a name"):
        layer.add_metric(tf.constant(1.0))

    inputs, targets = keras.Input(shape=(3,), name="inputs"), keras.Input(shape=(10,), name="targets")
    predictions = LogisticEndpoint(name="predictions")(targets, keras.layers.Dense(10)(inputs))
    model = keras.Model(inputs=[inputs, targets], outputs=predictions)
    model.compile(optimizer="adam")
    rng = np.random.default_rng(0)
    data = {"inputs": rng.random((8, 3)), "targets": (rng.random((8, 10)) > 0.5).astype("float32")}
    history = model.fit(data, epochs=2, batch_size=4, verbose=0)
    assert sorted(history.history) == ["accuracy", "binary_accuracy", "loss"]
    assert all(0.0 <= a <= 1.0 for a in history.history["binary_accuracy"])


def test_attribute_trackers_of_a_model_reset_each_epoch():
    class Tracked(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)
            self.seen = keras.metrics.Sum(name="seen")

        def train_step(self, data):
            x, _ = data
            self.seen.update_state(tf.cast(tf.shape(x)[0], tf.float32))
            return {"seen": self.seen.result()}

        def call(self, x):
            return self.dense(x)

    model = Tracked()
    model.compile("sgd")
    history = model.fit(np.ones((10, 2), np.float32), np.ones((10, 1), np.float32), batch_size=4, epochs=2,
                        verbose=0)
    assert history.history["seen"] == [10.0, 10.0]  # reset at each epoch, as Keras 3 does
    assert "seen" in model.metrics_names


def test_embedding_lookup():
    params = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    np.testing.assert_array_equal(tf.nn.embedding_lookup(params, [[3, 0], [1, 1]]).numpy(),
                                  np.arange(12).reshape(4, 3)[[[3, 0], [1, 1]]])
    v = tf.Variable(params)
    with tf.GradientTape() as tape:
        s = tf.reduce_sum(tf.nn.embedding_lookup(v, [1, 1, 2]))
    np.testing.assert_array_equal(tf.convert_to_tensor(tape.gradient(s, v)).numpy(),
                                  [[0, 0, 0], [2, 2, 2], [1, 1, 1], [0, 0, 0]])
