"""tf.keras.utils, tf.keras.backend and tf.keras.preprocessing: what older
and newer Keras programs call around their models."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras


def test_pad_sequences_pre_and_post():
    seqs = [[1, 2, 3], [4], []]
    np.testing.assert_array_equal(keras.utils.pad_sequences(seqs), [[1, 2, 3], [0, 0, 4], [0, 0, 0]])
    np.testing.assert_array_equal(keras.utils.pad_sequences(seqs, maxlen=2), [[2, 3], [0, 4], [0, 0]])
    np.testing.assert_array_equal(keras.preprocessing.sequence.pad_sequences(
        seqs, maxlen=2, padding="post", truncating="post", value=-1), [[1, 2], [4, -1], [-1, -1]])
    assert keras.utils.pad_sequences(seqs).dtype == np.int32
    with pytest.raises(ValueError, match="Padding type"):
        keras.utils.pad_sequences(seqs, padding="middle")


def test_to_categorical_keeps_the_label_shape():
    np.testing.assert_array_equal(keras.utils.to_categorical([2, 0]), [[0, 0, 1], [1, 0, 0]])
    assert keras.utils.to_categorical([[1], [0]], 3).shape == (2, 3)
    assert keras.utils.to_categorical(np.zeros((2, 4), int), 5).shape == (2, 4, 5)
    np.testing.assert_allclose(keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])), [[0.6, 0.8], [0, 0]])


def test_tokenizer_indexes_by_frequency():
    tok = keras.preprocessing.text.Tokenizer(num_words=4, oov_token="<OOV>")
    tok.fit_on_texts(["The cat sat.", "the dog sat on the mat!"])
    assert tok.word_index == {"<OOV>": 1, "the": 2, "sat": 3, "cat": 4, "dog": 5, "on": 6, "mat": 7}
    assert tok.texts_to_sequences(["the cat ran"]) == [[2, 1, 1]]
    assert tok.sequences_to_texts([[2, 3]]) == ["the sat"]
    assert tok.document_count == 2 and tok.word_counts["the"] == 3


def test_backend_settings_and_clear_session():
    assert keras.backend.epsilon() == 1e-7 and keras.backend.image_data_format() == "channels_last"
    keras.backend.clear_session()
    assert keras.layers.Dense(2).name == "dense"
    assert keras.layers.Dense(2).name == "dense_1"
    keras.backend.clear_session()
    assert keras.layers.Dense(2).name == "dense"
    keras.backend.set_floatx("float64")
    try:
        layer = keras.layers.Dense(2)
        assert layer(np.ones((1, 3))).dtype == tf.float64 and layer.kernel.dtype == tf.float64
    finally:
        keras.backend.set_floatx("float32")
    assert keras.layers.Dense(2).dtype == tf.float32


def test_experimental_preprocessing_names():
    pre = keras.layers.experimental.preprocessing
    assert pre.TextVectorization is keras.layers.TextVectorization
    assert pre.Normalization is keras.layers.Normalization and pre.Rescaling is keras.layers.Rescaling


def test_backend_functions_in_a_vae_sampling_layer():
    K = keras.backend

    class Sampling(keras.layers.Layer):
        def call(self, inputs):
            z_mean, z_log_var = inputs
            batch, dim = tf.shape(z_mean)[0], tf.shape(z_mean)[1]
            epsilon = K.random_normal(shape=(batch, dim))
            return z_mean + tf.exp(0.5 * z_log_var) * epsilon

    keras.utils.set_random_seed(0)
    mean = np.zeros((4000, 2), np.float32)
    log_var = np.full((4000, 2), np.log(4.0), np.float32)
    z = Sampling()([mean, log_var]).numpy()
    assert abs(z.std() - 2.0) < 0.1 and abs(z.mean()) < 0.1
    staged = tf.function(lambda a, b: Sampling()([a, b]))
    assert staged(mean[:3], log_var[:3]).shape == (3, 2)
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    assert float(K.mean(K.square(x))) == 7.5 and K.int_shape(x) == (2, 2)
    np.testing.assert_allclose(K.sum(K.abs(x), axis=1).numpy(), [3.0, 7.0])
    np.testing.assert_allclose(K.clip(x, 0.0, 3.5).numpy(), [[1.0, 0.0], [3.0, 3.5]])
    v = K.variable(np.ones(2))
    K.set_value(v, [2.0, 3.0])
    np.testing.assert_allclose(K.get_value(v), [2.0, 3.0])
