# "Customization basics" + "Custom layers": a Layer with build()/add_weight
# (lazy input size), layers composed into a ResnetIdentityBlock-style Model,
# layer.variables / trainable_variables names and shapes, a Sequential of
# custom layers, and a training step with the tape inside tf.function that
# builds the layers on its first call; checked against numpy.
import numpy as np
import autograph_cli.tf as tf

print(tf.math.add(1, 2))
print(tf.math.add([1, 2], [3, 4]))
print(tf.math.square(5))
print(tf.math.reduce_sum([1, 2, 3]))
print(tf.math.square(2) + tf.math.square(3))
x = tf.linalg.matmul([[1]], [[2, 3]])
print(x, x.shape, x.dtype)

ndarray = np.ones([3, 3])
tensor = tf.math.multiply(ndarray, 42)
print(tensor.dtype, np.add(tensor, 1)[0].tolist(), tensor.numpy().sum())


class MyDenseLayer(tf.keras.layers.Layer):
    def __init__(self, num_outputs):
        super(MyDenseLayer, self).__init__()
        self.num_outputs = num_outputs

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", shape=[int(input_shape[-1]), self.num_outputs],
                                      initializer=tf.keras.initializers.Constant(0.1))

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = MyDenseLayer(10)
_ = layer(tf.zeros([10, 5]))
print([var.name for var in layer.trainable_variables], layer.kernel.shape)


class ResnetIdentityBlock(tf.keras.Model):
    def __init__(self, units):
        super(ResnetIdentityBlock, self).__init__(name="")
        self.d1 = MyDenseLayer(units)
        self.n1 = tf.keras.layers.LayerNormalization()
        self.d2 = MyDenseLayer(units)

    def call(self, input_tensor, training=False):
        x = self.d1(input_tensor)
        x = self.n1(x, training=training)
        x = tf.nn.relu(x)
        x = self.d2(x)
        x += input_tensor
        return tf.nn.relu(x)


block = ResnetIdentityBlock(3)
_ = block(tf.zeros([1, 3]))
print(len(block.layers), len(block.variables), sorted(v.shape.as_list() == [3, 3] for v in block.trainable_variables))

my_seq = tf.keras.Sequential([MyDenseLayer(2), tf.keras.layers.Activation("tanh"), MyDenseLayer(1)])
opt = tf.keras.optimizers.SGD(0.2)
X = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32)
Y = np.array([[1.0], [-1.0]], np.float32)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(my_seq(x) - y))
    grads = tape.gradient(loss, my_seq.trainable_variables)
    opt.apply_gradients(zip(grads, my_seq.trainable_variables))
    return loss


losses = [float(train_step(X, Y)) for _ in range(3)]
print([v.shape.as_list() for v in my_seq.trainable_variables], "traces", train_step.experimental_get_tracing_count())
K1, K2 = np.full((3, 2), 0.1), np.full((2, 1), 0.1)
ref = []
for _ in range(3):
    h = np.tanh(X @ K1)
    p = h @ K2
    ref.append(np.mean((p - Y) ** 2))
    dp = 2 * (p - Y) / 2
    gK2 = h.T @ dp
    gK1 = X.T @ ((dp @ K2.T) * (1 - h ** 2))
    K1, K2 = K1 - 0.2 * gK1, K2 - 0.2 * gK2
print("matches numpy:", np.allclose(losses, ref, rtol=1e-5),
      np.allclose(my_seq.trainable_variables[0].numpy(), K1, atol=1e-6))
