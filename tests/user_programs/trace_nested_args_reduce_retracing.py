# "Better performance with tf.function" retracing rules for structured
# arguments: a dict of Python values is part of the cache key (a trace per
# value), a list of tensors by its length, reduce_retracing generalizes the
# shapes inside a dict (the relaxed trace serves every later size), and a
# plain Python object by identity (mutating it does not retrace).
import autograph_cli.tf as tf

@tf.function
def f(x, cfg):
    return x * cfg["scale"] + len(cfg["names"])

for cfg in ({"scale": 2.0, "names": ["a"]}, {"scale": 2.0, "names": ["a"]}, {"scale": 3.0, "names": ["a"]}, {"scale": 2.0, "names": ["a", "b"]}):
    f(tf.constant(1.0), cfg)
print(f.experimental_get_tracing_count())

@tf.function
def g(xs):
    return tf.add_n(xs)
g([tf.constant(1.0), tf.constant(2.0)]); g([tf.constant(3.0), tf.constant(4.0)]); g([tf.constant(1.0)] * 3)
print(g.experimental_get_tracing_count())

@tf.function(reduce_retracing=True)
def h(d):
    return tf.reduce_sum(d["a"]) + tf.reduce_sum(d["b"])
for n in (1, 2, 3, 4):
    h({"a": tf.ones([n]), "b": tf.ones([2, n])})
print(h.experimental_get_tracing_count())

class Cfg:
    def __init__(self, s): self.s = s
@tf.function
def k(x, c):
    return x * c.s
c1 = Cfg(2.0)
k(tf.constant(1.0), c1); k(tf.constant(1.0), c1); c1.s = 5.0
print(float(k(tf.constant(1.0), c1)), k.experimental_get_tracing_count())
k(tf.constant(1.0), Cfg(2.0))
print(k.experimental_get_tracing_count())
