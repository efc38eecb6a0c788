# Dicts, namedtuples and nested tuples carried through staged while/for loops
# and returned from tf.cond.
import collections
import autograph_cli.tf as tf

Stats = collections.namedtuple("Stats", ["n", "mean", "m2"])

@tf.function
def welford(xs):
    s = Stats(tf.constant(0.0), tf.constant(0.0), tf.constant(0.0))
    for x in xs:
        n = s.n + 1
        delta = x - s.mean
        mean = s.mean + delta / n
        s = Stats(n, mean, s.m2 + delta * (x - mean))
    return s

@tf.function
def dict_state(n):
    state = {"a": tf.constant(1), "b": tf.constant(0), "hist": (tf.constant(0), tf.constant(0))}
    i = 0
    while i < n:
        state["a"], state["b"] = state["a"] + state["b"], state["a"]
        state["hist"] = (state["hist"][1], state["a"])
        i += 1
    return state

@tf.function
def pick(flag, x):
    out = tf.cond(flag,
                  lambda: {"v": x * 2, "pair": (x, x + 1)},
                  lambda: {"v": -x, "pair": (x - 1, x)})
    return out["v"] + out["pair"][0] * out["pair"][1]

xs = [2.0, 4.0, 4.0, 5.0, 7.0]
s = welford(tf.constant(xs))
mean = sum(xs) / len(xs)
var = sum((x - mean) ** 2 for x in xs) / len(xs)
print(type(s).__name__, float(s.n), abs(float(s.mean) - mean) < 1e-5, abs(float(s.m2) / float(s.n) - var) < 1e-5)
d = dict_state(tf.constant(10))
a, b, h = 1, 0, (0, 0)
for _ in range(10):
    a, b = a + b, a
    h = (h[1], a)
print(sorted(d.keys()), (int(d["a"]), int(d["b"])) == (a, b), tuple(int(v) for v in d["hist"]) == h)
print(int(pick(tf.constant(True), tf.constant(3))), 3 * 2 + 3 * 4)
print(int(pick(tf.constant(False), tf.constant(3))), -3 + 2 * 3)
