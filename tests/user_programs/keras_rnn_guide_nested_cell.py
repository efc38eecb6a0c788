""""Working with RNNs": the guide's NestedCell (nested inputs and states of different ranks)
wrapped in keras.layers.RNN and trained with fit on two inputs and two targets; its last
outputs and final states checked against numpy; a custom cell with return_sequences."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras


class NestedCell(keras.layers.Layer):
    def __init__(self, unit_1, unit_2, unit_3, **kwargs):
        self.unit_1 = unit_1
        self.unit_2 = unit_2
        self.unit_3 = unit_3
        self.state_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        self.output_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        super().__init__(**kwargs)

    def build(self, input_shapes):
        # expect input_shape to contain 2 items, [(batch, i1), (batch, i2, i3)]
        i1 = input_shapes[0][1]
        i2 = input_shapes[1][1]
        i3 = input_shapes[1][2]
        self.kernel_1 = self.add_weight(shape=(i1, self.unit_1), initializer="uniform", name="kernel_1")
        self.kernel_2_3 = self.add_weight(shape=(i2, i3, self.unit_2, self.unit_3), initializer="uniform",
                                          name="kernel_2_3")

    def call(self, inputs, states):
        input_1, input_2 = tf.nest.flatten(inputs)
        s1, s2 = states
        output_1 = tf.matmul(input_1, self.kernel_1)
        output_2_3 = tf.einsum("bij,ijkl->bkl", input_2, self.kernel_2_3)
        state_1 = s1 + output_1
        state_2_3 = s2 + output_2_3
        output = (output_1, output_2_3)
        new_states = (state_1, state_2_3)
        return output, new_states

    def get_config(self):
        return {"unit_1": self.unit_1, "unit_2": self.unit_2, "unit_3": self.unit_3}


unit_1, unit_2, unit_3 = 3, 4, 5
i1, i2, i3 = 6, 2, 3
batch_size, num_batches, timestep = 8, 2, 5

cell = NestedCell(unit_1, unit_2, unit_3)
rnn = keras.layers.RNN(cell)
input_1 = keras.Input((None, i1))
input_2 = keras.Input((None, i2, i3))
outputs = rnn((input_1, input_2))
print("symbolic outputs:", [tuple(o.shape) for o in outputs])
model = keras.models.Model([input_1, input_2], outputs)
model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])

rng = np.random.default_rng(0)
input_1_data = rng.random((batch_size * num_batches, timestep, i1))
input_2_data = rng.random((batch_size * num_batches, timestep, i2, i3))
target_1_data = rng.random((batch_size * num_batches, unit_1))
target_2_data = rng.random((batch_size * num_batches, unit_2, unit_3))
input_data = [input_1_data, input_2_data]
target_data = [target_1_data, target_2_data]

o1, o23 = model.predict(input_data, verbose=0)
k1, k23 = cell.kernel_1.numpy(), cell.kernel_2_3.numpy()
print("kernels:", k1.shape, k23.shape, "in [-0.05, 0.05]:", bool(np.abs(k1).max() <= 0.05))
print("last outputs match numpy:", o1.shape, o23.shape,
      bool(np.allclose(o1, input_1_data[:, -1] @ k1, atol=1e-5)),
      bool(np.allclose(o23, np.einsum("bij,ijkl->bkl", input_2_data[:, -1], k23), atol=1e-5)))

history = model.fit(input_data, target_data, batch_size=batch_size, verbose=0)
print("history:", sorted(history.history))

state_rnn = keras.layers.RNN(cell, return_state=True, return_sequences=True)
seq, (s_1, s_23) = state_rnn((tf.constant(input_1_data[:2], tf.float32), tf.constant(input_2_data[:2], tf.float32)))[0], \
    state_rnn((tf.constant(input_1_data[:2], tf.float32), tf.constant(input_2_data[:2], tf.float32)))[1:]
k1, k23 = cell.kernel_1.numpy(), cell.kernel_2_3.numpy()
print("sequences:", [tuple(s.shape) for s in tf.nest.flatten(seq)])
print("final states are sums over time:",
      bool(np.allclose(s_1.numpy(), (input_1_data[:2] @ k1).sum(axis=1), atol=1e-4)),
      bool(np.allclose(s_23.numpy(), np.einsum("btij,ijkl->bkl", input_2_data[:2], k23), atol=1e-4)))


class MinimalRNNCell(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                name="recurrent_kernel")

    def call(self, inputs, states):
        prev_output = states[0]
        h = tf.matmul(inputs, self.kernel)
        output = h + tf.matmul(prev_output, self.recurrent_kernel)
        return output, [output]


cells = [MinimalRNNCell(8), MinimalRNNCell(4)]
x = keras.Input((None, 5))
layer = keras.layers.RNN(cells, return_sequences=True)
y = layer(x)
print("stacked cells:", tuple(y.shape))
data = rng.random((2, 3, 5)).astype("float32")
out = keras.Model(x, y)(data).numpy()
h1, h2 = np.zeros((2, 8)), np.zeros((2, 4))
ref = []
for t in range(3):
    h1 = data[:, t] @ cells[0].kernel.numpy() + h1 @ cells[0].recurrent_kernel.numpy()
    h2 = h1 @ cells[1].kernel.numpy() + h2 @ cells[1].recurrent_kernel.numpy()
    ref.append(h2)
print("stacked matches numpy:", out.shape, bool(np.allclose(out, np.stack(ref, 1), atol=1e-5)))
