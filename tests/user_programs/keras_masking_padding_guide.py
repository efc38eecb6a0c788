""""Understanding masking & padding": pad_sequences (pre/post), Embedding(mask_zero=True)
and Masking producing masks, masks propagated through a functional model, a custom layer
that supports_masking, one that makes its own mask (compute_mask), one that consumes it
(TemporalSoftmax with a mask argument), and a layer that changes the time axis
(compute_mask returning None)."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

raw_inputs = [[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]]
padded_inputs = keras.preprocessing.sequence.pad_sequences(raw_inputs, padding="post")
print(padded_inputs.tolist())
print(keras.utils.pad_sequences(raw_inputs, maxlen=4).tolist())
print(keras.utils.pad_sequences(raw_inputs, maxlen=4, truncating="post", value=-1).tolist())

embedding = layers.Embedding(input_dim=5000, output_dim=16, mask_zero=True)
masked_output = embedding(padded_inputs)
print(masked_output._keras_mask.numpy().tolist())
masking_layer = layers.Masking()
unmasked_embedding = tf.cast(tf.tile(tf.expand_dims(padded_inputs, axis=-1), [1, 1, 10]), tf.float32)
masked_embedding = masking_layer(unmasked_embedding)
print(masked_embedding._keras_mask.numpy().tolist())
print("compute_mask:", embedding.compute_mask(padded_inputs).numpy().tolist()[0])

inputs = keras.Input(shape=(None,), dtype="int32")
x = layers.Embedding(input_dim=5000, output_dim=16, mask_zero=True)(inputs)
outputs = layers.LSTM(32)(x)
model = keras.Model(inputs, outputs)
print("functional with mask:", model(padded_inputs).shape)


class MyLayer(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.embedding = layers.Embedding(input_dim=5000, output_dim=16, mask_zero=True)
        self.lstm = layers.LSTM(32)

    def call(self, inputs):
        x = self.embedding(inputs)
        mask = self.embedding.compute_mask(inputs)
        output = self.lstm(x, mask=mask)
        return output


layer = MyLayer()
full = layer(padded_inputs)
alone = layer(padded_inputs[:1, :3])
print("subclassed layer passes the mask:", full.shape, bool(np.allclose(full.numpy()[0], alone.numpy()[0], atol=1e-5)))


class TemporalSplit(keras.layers.Layer):
    """Split the input tensor into 2 tensors along the time dimension."""

    def call(self, inputs):
        return tf.split(inputs, 2, axis=1)

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        return tf.split(mask, 2, axis=1)


first_half, second_half = TemporalSplit()(masked_embedding)
print("split masks:", first_half._keras_mask.numpy().tolist(), second_half._keras_mask.numpy().tolist())


class CustomEmbedding(keras.layers.Layer):
    def __init__(self, input_dim, output_dim, mask_zero=False, **kwargs):
        super().__init__(**kwargs)
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.mask_zero = mask_zero

    def build(self, input_shape):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim), initializer="random_normal",
                                          dtype="float32")

    def call(self, inputs):
        inputs = tf.cast(inputs, "int32")
        return tf.nn.embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return tf.not_equal(inputs, 0)


layer = CustomEmbedding(10, 32, mask_zero=True)
x = np.random.default_rng(0).integers(0, 10, size=(3, 10))
y = layer(x)
mask = layer.compute_mask(x)
print("custom mask:", mask.numpy().tolist() == (x != 0).tolist(), y.shape)


class MyActivation(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return tf.nn.relu(inputs)


inputs = keras.Input(shape=(None,), dtype="int32")
x = layers.Embedding(input_dim=5000, output_dim=16, mask_zero=True)(inputs)
x = MyActivation()(x)
print("mask propagated through supports_masking:", x._keras_mask is not None, tuple(x._keras_mask.shape))
outputs = layers.LSTM(32)(x)
model = keras.Model(inputs, outputs)
print("model output:", model(padded_inputs).shape)


class TemporalSoftmax(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        assert mask is not None
        broadcast_float_mask = tf.expand_dims(tf.cast(mask, "float32"), -1)
        inputs_exp = tf.exp(inputs) * broadcast_float_mask
        inputs_sum = tf.reduce_sum(inputs_exp * broadcast_float_mask, axis=-1, keepdims=True)
        return inputs_exp / inputs_sum


inputs = keras.Input(shape=(None,), dtype="int32")
x = layers.Embedding(input_dim=10, output_dim=32, mask_zero=True)(inputs)
x = layers.Dense(1)(x)
outputs = TemporalSoftmax()(x)
model = keras.Model(inputs, outputs)
y = model(np.array([[1, 2, 3, 0, 0]]))
# (the guide's softmax sums over the last axis, of size 1: 1 at kept steps, 0/0 = nan at padded ones)
print("temporal softmax:", y.shape, "kept steps:", y.numpy()[0, :3, 0].tolist(), "padded steps nan:",
      bool(np.isnan(y.numpy()[0, 3:]).all()))
dense_mask = layers.Dense(4)(masked_embedding)
print("Dense keeps the mask:", dense_mask._keras_mask.numpy().tolist()[0])
pooled = layers.GlobalAveragePooling1D()(masked_embedding)
manual = unmasked_embedding.numpy()[1, :5].mean(axis=0)
print("masked average pooling:", tuple(pooled.shape), bool(np.allclose(pooled.numpy()[1], manual)),
      getattr(pooled, "_keras_mask", None) is None)
