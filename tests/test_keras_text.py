"""TextVectorization, StringLookup and IntegerLookup: vocabularies as Keras
orders them, lookups eagerly, in tf.function and in Dataset.map, and the
text-classification guide's pipeline trained end to end."""
import re
import string

import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
L = keras.layers

TEXTS = ["The movie was great!", "Terrible movie<br />, terrible acting.", "great great acting", "meh"]


def _standardize(s):
    s = tf.strings.lower(s)
    s = tf.strings.regex_replace(s, "<br />", " ")
    return tf.strings.regex_replace(s, "[%s]" % re.escape(string.punctuation), "")


def test_vocabulary_is_ordered_by_count_then_as_keras_breaks_ties():
    layer = L.TextVectorization(standardize=_standardize, max_tokens=20, output_sequence_length=6)
    layer.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    # great x3; movie, terrible, acting x2; the, was, meh x1 (ties: reverse order of the token)
    assert layer.get_vocabulary() == ["", "[UNK]", "great", "terrible", "movie", "acting", "was", "the", "meh"]
    assert layer.vocabulary_size() == 9
    small = L.TextVectorization(max_tokens=4)
    small.adapt(np.array(TEXTS))
    assert small.get_vocabulary() == ["", "[UNK]", "great", "terrible"]


def test_int_output_pads_truncates_and_maps_unknown_words():
    layer = L.TextVectorization(output_sequence_length=4)
    layer.adapt(["a b c", "a b", "a"])
    vocab = layer.get_vocabulary()
    assert vocab == ["", "[UNK]", "a", "b", "c"]
    want = np.array([[2, 3, 1, 0], [4, 4, 4, 4]])
    np.testing.assert_array_equal(layer(["A, b zz!", "c c c c c c"]).numpy(), want)
    staged = tf.function(lambda s: layer(s), input_signature=[tf.TensorSpec([None], tf.string)])
    out = staged(tf.constant(["A, b zz!", "c c c c c c"]))
    assert out.dtype == tf.int64 and out.shape == (2, 4)
    np.testing.assert_array_equal(out.numpy(), want)
    ragged = L.TextVectorization(vocabulary=["a", "b"])
    np.testing.assert_array_equal(ragged([["a"], ["b a b"]]).numpy(), [[2, 0, 0], [3, 2, 3]])


def test_multi_hot_and_count_modes():
    layer = L.TextVectorization(output_mode="multi_hot")
    layer.adapt(["a b c a", "b a d"])
    assert layer.get_vocabulary() == ["[UNK]", "a", "b", "d", "c"]
    np.testing.assert_array_equal(layer(["a d z", "c"]).numpy(), [[1, 1, 0, 1, 0], [0, 0, 0, 0, 1]])
    count = L.TextVectorization(output_mode="count", vocabulary=["a", "b"])
    np.testing.assert_array_equal(count(["a a b q q q"]).numpy(), [[3, 2, 1]])
    with pytest.raises(ValueError, match="output_sequence_length"):
        L.TextVectorization(output_mode="multi_hot", output_sequence_length=3)


def test_string_and_integer_lookup():
    sl = L.StringLookup()
    sl.adapt(["x", "y", "x", "z", "x", "y"])
    assert sl.get_vocabulary() == ["[UNK]", "x", "y", "z"]
    np.testing.assert_array_equal(sl(tf.constant([["x", "q"], ["z", "y"]])).numpy(), [[1, 0], [3, 2]])
    inv = L.StringLookup(vocabulary=["a", "b"], invert=True)
    assert inv(tf.constant([0, 1, 2])).numpy().tolist() == [b"[UNK]", b"a", b"b"]
    il = L.IntegerLookup(output_mode="one_hot")
    il.adapt([5, 5, 7, 9])
    assert il.get_vocabulary() == [-1, 5, 9, 7]
    np.testing.assert_array_equal(il(tf.constant([5, 8])).numpy(), [[0, 1, 0, 0], [1, 0, 0, 0]])
    masked = L.StringLookup(vocabulary=["a"], mask_token="")
    np.testing.assert_array_equal(masked(tf.constant(["", "a", "b"])).numpy(), [0, 2, 1])
    with pytest.raises(ValueError, match="no vocabulary"):
        L.StringLookup()(tf.constant(["a"]))


def test_text_classification_pipeline_trains_and_exports():
    keras.utils.set_random_seed(0)
    labels = np.array([1, 0, 1, 0], np.int64)
    raw = tf.data.Dataset.from_tensor_slices((TEXTS, labels)).batch(2)
    vectorize = L.TextVectorization(standardize=_standardize, max_tokens=20, output_sequence_length=6)
    vectorize.adapt(raw.map(lambda x, y: x))

    def vectorize_text(text, label):
        return vectorize(tf.expand_dims(text, -1)), label

    train = raw.map(vectorize_text)
    x0, _ = next(iter(train))
    assert x0.shape == (2, 6) and x0.dtype == tf.int64
    model = keras.Sequential([L.Embedding(20, 8), L.Dropout(0.2), L.GlobalAveragePooling1D(), L.Dense(1)])
    model.compile(loss=keras.losses.BinaryCrossentropy(from_logits=True), optimizer=keras.optimizers.Adam(0.05),
                  metrics=[tf.metrics.BinaryAccuracy(threshold=0.0)])
    hist = model.fit(train, validation_data=train, epochs=20, verbose=0)
    assert sorted(hist.history) == ["binary_accuracy", "loss", "val_binary_accuracy", "val_loss"]
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    export = keras.Sequential([vectorize, model, L.Activation("sigmoid")])
    probs = export.predict(tf.constant(TEXTS), verbose=0)
    assert probs.shape == (4, 1)
    np.testing.assert_allclose(probs, 1 / (1 + np.exp(-model.predict(vectorize(tf.constant(TEXTS)), verbose=0))),
                               atol=1e-5)
