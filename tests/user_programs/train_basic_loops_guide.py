# "Basic training loops" / "Customization basics": a tf.Module linear model
# y = W x + b fitted by hand-written gradient descent (assign_sub), first
# eagerly, then with the step in tf.function, then the same model as a Keras
# model with compile/fit; every number against numpy's closed-form gradient.
import numpy as np
import autograph_cli.tf as tf

TRUE_W, TRUE_B, NUM_EXAMPLES = 3.0, 2.0, 201
x = tf.linspace(-2.0, 2.0, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)


def f(x):
    return x * TRUE_W + TRUE_B


noise = tf.random.stateless_normal(shape=[NUM_EXAMPLES], seed=[1, 2])
y = f(x) + noise


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
    dw, db = t.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


xn, yn = x.numpy().astype(np.float64), y.numpy().astype(np.float64)


def numpy_fit(epochs, lr):
    w, b, hist = 5.0, 0.0, []
    for _ in range(epochs):
        err = w * xn + b - yn
        w, b = w - lr * (2 * err * xn).mean(), b - lr * (2 * err).mean()
        hist.append((w, b))
    return hist


model = MyModel()
print(model.variables[0].numpy(), model.variables[1].numpy(), float(loss(y, model(x))) > 5)
ref = numpy_fit(10, 0.1)
for epoch in range(10):
    train(model, x, y, learning_rate=0.1)
print(np.allclose([float(model.w), float(model.b)], ref[-1], rtol=1e-5))

# the same step, compiled
model2 = MyModel()
train_fn = tf.function(train)
for epoch in range(10):
    train_fn(model2, x, y, 0.1)
print(np.allclose([float(model2.w), float(model2.b)], ref[-1], rtol=1e-5), train_fn.experimental_get_tracing_count())


# the Keras way: same model, SGD, MSE, full-batch fit
class MyKerasModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


keras_model = MyKerasModel()
keras_model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                    loss=tf.keras.losses.mean_squared_error)
history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
print(len(history.history["loss"]), np.allclose([float(keras_model.w), float(keras_model.b)], ref[-1], rtol=1e-5))
ref_losses = [((5.0 * xn + 0.0 - yn) ** 2).mean()] + [((w * xn + b - yn) ** 2).mean() for w, b in ref[:-1]]
print(np.allclose(history.history["loss"], ref_losses, rtol=1e-4))
print(abs(float(keras_model.w) - TRUE_W) < 0.5, abs(float(keras_model.b) - TRUE_B) < 0.5)
