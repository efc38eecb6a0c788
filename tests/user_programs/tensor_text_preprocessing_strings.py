# String tensors for text preprocessing ("Tensors" / "Load text" guides):
# lower-casing, regex cleanup, splitting into ragged tokens, bigrams with
# tf.strings.ngrams (plain and padded), tf.strings.reduce_join back into
# sentences (dense axes and ragged rows), lengths in bytes and characters,
# numbers parsed and formatted, all inside a tf.data map and a tf.function,
# and bigram counts through a lookup table.
import collections

import autograph_cli.tf as tf

print(tf.strings.reduce_join([["abc", "123"], ["def", "456"]]))
print(tf.strings.reduce_join([["abc", "123"], ["def", "456"]], axis=-1))
print(tf.strings.reduce_join([["abc", "123"], ["def", "456"]], axis=-1, separator="."))
print(tf.strings.ngrams(["A", "B", "C", "D"], 2))
print(tf.strings.ngrams(["TF", "and", "keras"], 1))
print(tf.strings.ngrams(["A", "B", "C"], 2, pad_values=("LP", "RP")))

raw = tf.constant(["  Hello, World!  ", "TensorFlow's strings: fun & fast", "3 apples + 4.5 pears"])


def clean(text):
    text = tf.strings.lower(tf.strings.strip(text))
    return tf.strings.regex_replace(text, r"[^a-z0-9.' ]", "")


@tf.function
def bigram_sentences(texts):
    tokens = tf.strings.split(clean(texts))
    bigrams = tf.strings.ngrams(tokens, 2, separator="_")
    return tokens.row_lengths(), tf.strings.reduce_join(bigrams, axis=-1, separator=" | ")


lengths, joined = bigram_sentences(raw)
print(lengths.numpy().tolist())
for s in joined.numpy():
    print(s)
print(tf.strings.length(raw).numpy().tolist(), tf.strings.length("héllo", unit="UTF8_CHAR").numpy())

numbers = tf.strings.regex_replace(clean(raw[2:]), "[a-z+]", "")
parsed = tf.strings.to_number(tf.strings.split(tf.strings.strip(numbers)))
print(parsed, tf.strings.as_string(tf.reduce_sum(parsed.values), precision=2))
print(tf.strings.join([tf.strings.as_string(tf.range(3)), ["a", "b", "c"]], separator=":"))

ds = tf.data.Dataset.from_tensor_slices(raw).map(clean).map(lambda t: tf.strings.reduce_join(
    tf.strings.ngrams(tf.strings.split(t), 2, separator="+"), separator=" "))
for line in ds:
    print(line.numpy())

counts = collections.Counter()
for line in tf.data.Dataset.from_tensor_slices(raw).map(clean):
    counts.update(tf.strings.ngrams(tf.strings.split(line), 2).numpy().tolist())
vocab = sorted(counts)
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(vocab, list(range(1, len(vocab) + 1)),
                                                                       value_dtype=tf.int64), default_value=0)
ids = table.lookup(tf.strings.ngrams(tf.strings.split(clean(tf.constant(["hello world again"]))), 2))
print(len(vocab), ids.to_list())
