# "Introduction to modules, layers, and models": tf.Module with submodules,
# deferred variable creation, name scopes, variables/trainable_variables,
# a checkpoint round trip, a Keras layer subclass with build/call and a
# Keras model holding it; all numbers checked against numpy.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


class Dense(tf.Module):
    def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features

    def __call__(self, x):
        if not self.is_built:
            self.w = tf.Variable(tf.random.normal([x.shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
            self.is_built = True
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(out_features=3)
        self.dense_2 = Dense(out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


tf.random.set_seed(1)
my_model = MySequentialModule(name="the_model")
x = tf.constant([[2.0, 2.0, 2.0]])
out = my_model(x)
w1, b1, w2, b2 = (v.numpy() for v in (my_model.dense_1.w, my_model.dense_1.b, my_model.dense_2.w, my_model.dense_2.b))
ref = np.maximum(np.maximum(np.array([[2.0, 2.0, 2.0]]) @ w1 + b1, 0) @ w2 + b2, 0)
print(out.shape, np.allclose(out.numpy(), ref, atol=1e-6))
print(len(my_model.submodules), len(my_model.variables), len(my_model.trainable_variables))
print(sorted(v.name for v in my_model.variables))
print(my_model.name, my_model.dense_1.name)
print(len(my_model.__call__.get_concrete_function(tf.TensorSpec([None, 3], tf.float32)).structured_outputs.shape))

# checkpoint round trip
chkp_path = os.path.join(tempfile.mkdtemp(), "my_checkpoint")
checkpoint = tf.train.Checkpoint(model=my_model)
save_path = checkpoint.write(chkp_path)
saved = [v.numpy().copy() for v in my_model.variables]
for v in my_model.variables:
    v.assign(tf.zeros_like(v))
print(float(tf.reduce_sum(my_model(x))))
checkpoint.restore(save_path)
print(all(np.array_equal(a, v.numpy()) for a, v in zip(saved, my_model.variables)), np.allclose(my_model(x).numpy(), ref))


# Keras layers: build on first call, call with training flag
class FlexibleDense(tf.keras.layers.Layer):
    def __init__(self, out_features, **kwargs):
        super().__init__(**kwargs)
        self.out_features = out_features

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.out_features), initializer="ones", name="w")
        self.b = self.add_weight(shape=(self.out_features,), initializer="zeros", name="b")
        self.scale = self.add_weight(shape=(), initializer="ones", trainable=False, name="scale")

    def call(self, inputs, training=False):
        y = tf.matmul(inputs, self.w) + self.b
        if training:
            y = y * 0.5
        return y * self.scale

    def get_config(self):
        return {"out_features": self.out_features}


flexible = FlexibleDense(out_features=3)
print(flexible.built, len(flexible.weights))
y = flexible(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
print(flexible.built, y.numpy().tolist(), flexible(tf.constant([[1.0, 1.0, 1.0]]), training=True).numpy().tolist())
print(len(flexible.trainable_weights), len(flexible.non_trainable_weights), flexible.get_config())


class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = FlexibleDense(4)
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x, training=False):
        return self.out(tf.nn.relu(self.hidden(x, training=training)))


model = MyModel()
xs = np.array([[1.0, -2.0], [0.5, 0.5]], np.float32)
print(model(xs).numpy().tolist(), model(xs, training=True).numpy().tolist())
print(len(model.trainable_variables), len(model.variables), [type(l).__name__ for l in model.layers])
h = np.maximum(xs @ np.ones((2, 4)), 0)
print(np.allclose(model(xs).numpy(), h @ np.ones((4, 1))))
