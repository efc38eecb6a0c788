# "Load text" / "Load CSV data" / "tf.data: Build TensorFlow input pipelines":
# TextLineDataset over several files (skip headers, filter comments, zip
# labels via interleave of enumerated files), a CSV parsed with
# tf.strings.split + to_number inside map, a vocabulary built with a Python
# dict from the dataset, tokens looked up with a StaticHashTable inside a
# tf.function, and a linear model trained on the parsed CSV rows.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf

tmp = tempfile.mkdtemp()
texts = {
    "cowper.txt": "# comment line\nThe man that hath no music\nnor is not moved with concord\n",
    "derby.txt": "# another comment\nof sweet sounds is fit\nfor treasons stratagems and spoils\nthe motions\n",
}
paths = []
for name, body in texts.items():
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(body)
    paths.append(path)

lines = tf.data.TextLineDataset(paths)
print(lines.element_spec)
for line in lines.take(3):
    print(repr(line.numpy()))


def labeler(example, index):
    return example, tf.cast(index, tf.int64)


labeled = [tf.data.TextLineDataset(p).skip(1).map(lambda ex, i=i: labeler(ex, i)) for i, p in enumerate(paths)]
all_labeled = labeled[0].concatenate(labeled[1])
for text, label in all_labeled.take(4):
    print("Sentence:", text.numpy(), "Label:", label.numpy())

no_comments = tf.data.TextLineDataset(paths).filter(lambda l: tf.logical_not(tf.strings.regex_full_match(l, "#.*")))
print(len(list(no_comments)), "lines without comments")

vocab = {}
for line in no_comments:
    for tok in tf.strings.split(tf.strings.lower(line)).numpy():
        vocab.setdefault(tok, len(vocab) + 1)
print("vocab size:", len(vocab))
keys = tf.constant(list(vocab.keys()))
values = tf.constant(list(vocab.values()), dtype=tf.int64)
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), default_value=0)


@tf.function
def encode(line):
    tokens = tf.strings.split(tf.strings.lower(line))
    return table.lookup(tokens)


print(encode(tf.constant("The man of SWEET sounds unknown")))
print(table.size())

csv = os.path.join(tmp, "abalone.csv")
rng = np.random.RandomState(0)
feats = rng.uniform(0, 1, size=(12, 3)).round(3)
target = (feats @ np.array([1.0, -2.0, 0.5]) + 0.25).round(4)
with open(csv, "w") as f:
    f.write("length,diameter,height,age\n")
    for row, t in zip(feats, target):
        f.write(",".join(str(v) for v in row) + f",{t}\n")


def parse(line):
    fields = tf.strings.to_number(tf.strings.split(line, ","), tf.float32)
    return fields[:3], fields[3]


ds = tf.data.TextLineDataset(csv).skip(1).map(parse).batch(4)
print(ds.element_spec)
w = tf.Variable(tf.zeros([3]))
b = tf.Variable(0.0)


@tf.function
def train_epoch(ds):
    total = tf.constant(0.0)
    for x, y in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) + b - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.3 * gw)
        b.assign_sub(0.3 * gb)
        total += loss
    return total


losses = [float(train_epoch(ds)) for _ in range(3)]
W, B = np.zeros(3), 0.0
ref = []
X, Y = feats.astype(np.float32).astype(np.float64), target.astype(np.float32).astype(np.float64)
for _ in range(3):
    tot = 0.0
    for i in range(0, 12, 4):
        r = X[i:i + 4] @ W + B - Y[i:i + 4]
        tot += np.mean(r ** 2)
        W, B = W - 0.3 * 2 * X[i:i + 4].T @ r / 4, B - 0.3 * 2 * r.mean()
    ref.append(tot)
print("csv training matches numpy:", np.allclose(losses, ref, rtol=1e-5), np.allclose(w.numpy(), W, atol=1e-5))
