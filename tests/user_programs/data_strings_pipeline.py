# String tensors in a tf.data pipeline: parse "label,value" lines with
# tf.strings, filter, batch, and sum per label inside a tf.function.
import autograph_cli.tf as tf

lines = ["a,1.5", "b,2", "a,-0.5", "c,4", "b,3.25", "a,10"]

def parse(line):
    parts = tf.strings.split(line, ",")
    return parts[0], tf.strings.to_number(parts[1])

ds = (tf.data.Dataset.from_tensor_slices(lines)
      .map(parse)
      .filter(lambda label, v: tf.not_equal(label, "c"))
      .batch(2))

@tf.function
def totals(ds):
    a = tf.constant(0.0)
    b = tf.constant(0.0)
    n = tf.constant(0)
    for labels, values in ds:
        a += tf.reduce_sum(tf.where(tf.equal(labels, "a"), values, 0.0))
        b += tf.reduce_sum(tf.where(labels == "b", values, 0.0))
        n += tf.size(labels)
    return a, b, n

a, b, n = totals(ds)
pairs = [(l.split(",")[0], float(l.split(",")[1])) for l in lines]
print(float(a) == sum(v for l, v in pairs if l == "a"), float(b) == sum(v for l, v in pairs if l == "b"), int(n))
print([x.decode() for x, _ in ds.unbatch().as_numpy_iterator()])
upper = tf.data.Dataset.from_tensor_slices(["Hello", "World"]).map(lambda s: tf.strings.join([tf.strings.upper(s), "!"]))
print([s.decode() for s in upper.as_numpy_iterator()])
print(tf.strings.length(tf.constant(["ab", "", "xyz"])).numpy().tolist())
print(tf.strings.as_string(tf.constant([1, 22])).numpy().tolist())
