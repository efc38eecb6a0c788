# "Better performance with tf.function", the Python-state sections: a free
# Python variable read at trace time (not seen when it changes), a tf.Module
# whose Python attributes change (same object: no retrace, stale values; a
# new object: a new trace), a tf.Variable in the same role (always current),
# the guide's Count module creating its variable on the first call, a
# Python list appended to while tracing, and run_functions_eagerly for
# debugging.
import autograph_cli.tf as tf

y = 1


@tf.function
def add_free(x):
    return x + y


print(add_free(tf.constant(1)))
y = 2
print(add_free(tf.constant(1)), "(still the traced value)")
print(add_free(tf.constant(1.5) if False else tf.constant(1)).numpy())


class SimpleModel(tf.Module):
    def __init__(self):
        super().__init__()
        self.bias = 0.
        self.weight = 2.


@tf.function
def evaluate(model, x):
    return model.weight * x + model.bias


simple_model = SimpleModel()
x = tf.constant(10.)
print(evaluate(simple_model, x))
simple_model.bias += 5.0
print(evaluate(simple_model, x), "(the same object: no retrace)")
new_model = SimpleModel()
new_model.bias += 5.0
print(evaluate(new_model, x), "(a new object: traced again)")
print("traces:", evaluate.experimental_get_tracing_count())


class BetterModel(tf.Module):
    def __init__(self):
        super().__init__()
        self.bias = tf.Variable(0.)
        self.weight = tf.Variable(2.)


@tf.function
def evaluate_better(model, x):
    return model.weight * x + model.bias


better_model = BetterModel()
print(evaluate_better(better_model, x))
better_model.bias.assign_add(5.0)
print(evaluate_better(better_model, x), "traces:", evaluate_better.experimental_get_tracing_count())


class Count(tf.Module):
    def __init__(self):
        super().__init__()
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Count()
print(c(), c(), c.count.numpy())

external_list = []


@tf.function
def side_effect(x):
    print("Python side effect")
    external_list.append(x)
    tf.print("graph side effect", x)
    return x * 2


side_effect(1)
side_effect(1)
side_effect(2)
print("external list:", external_list)

tf.config.run_functions_eagerly(True)
side_effect(1)
print("eager list:", external_list[-1])
tf.config.run_functions_eagerly(False)
print(tf.config.functions_run_eagerly())

v = tf.Variable(1.0)


@tf.function
def scale(x):
    return x * v


print(scale(tf.constant(3.0)))
v.assign(5.0)
print(scale(tf.constant(3.0)), "traces:", scale.experimental_get_tracing_count())
