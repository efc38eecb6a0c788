""""Working with RNNs": LSTM/GRU/SimpleRNN in a Sequential, return_sequences and
return_state, an encoder-decoder handing its states over (initial_state), stacked and
Bidirectional layers (the guide's parameter counts), cross-batch statefulness and state
reuse, and masking from Embedding(mask_zero=True): an LSTM over padded sequences equals
the LSTM over the unpadded ones. LSTM numbers are checked against numpy."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

model = keras.Sequential()
model.add(layers.Embedding(input_dim=1000, output_dim=64))
model.add(layers.LSTM(128))
model.add(layers.Dense(10))
out = model(np.array([[1, 2, 3]]))
print("embedding+lstm:", out.shape, model.count_params())

model = keras.Sequential()
model.add(layers.Embedding(input_dim=1000, output_dim=64))
model.add(layers.GRU(256, return_sequences=True))
model.add(layers.SimpleRNN(128))
model.add(layers.Dense(10))
model(np.array([[1, 2, 3]]))
print("gru+simplernn params:", [l.count_params() for l in model.layers])

encoder_vocab, decoder_vocab = 1000, 2000
encoder_input = layers.Input(shape=(None,))
encoder_embedded = layers.Embedding(input_dim=encoder_vocab, output_dim=64)(encoder_input)
output, state_h, state_c = layers.LSTM(64, return_state=True, name="encoder")(encoder_embedded)
encoder_state = [state_h, state_c]
decoder_input = layers.Input(shape=(None,))
decoder_embedded = layers.Embedding(input_dim=decoder_vocab, output_dim=64)(decoder_input)
decoder_output = layers.LSTM(64, name="decoder")(decoder_embedded, initial_state=encoder_state)
output = layers.Dense(10)(decoder_output)
seq2seq = keras.Model([encoder_input, decoder_input], output)
print("seq2seq:", [tuple(t.shape) for t in encoder_state], seq2seq.output_shape, seq2seq.count_params())

# an LSTM against numpy (gates i, f, c, o; sigmoid recurrent activation)
lstm = layers.LSTM(3, return_sequences=True, return_state=True)
x = np.random.default_rng(0).normal(size=(2, 4, 5)).astype("float32")
seq, h, c = lstm(x)
k, rk, b = (w.numpy().astype(np.float64) for w in lstm.weights)
sig = lambda v: 1 / (1 + np.exp(-v))
hh, cc, ref = np.zeros((2, 3)), np.zeros((2, 3)), []
for t in range(4):
    z = x[:, t] @ k + hh @ rk + b
    i, f, g, o = sig(z[:, :3]), sig(z[:, 3:6]), np.tanh(z[:, 6:9]), sig(z[:, 9:])
    cc = f * cc + i * g
    hh = o * np.tanh(cc)
    ref.append(hh)
print("lstm weights:", [tuple(w.shape) for w in lstm.weights], "forget bias ones:", bool(np.all(b[3:6] == 1)))
print("lstm matches numpy:", bool(np.allclose(seq.numpy(), np.stack(ref, 1), atol=1e-5)),
      bool(np.allclose(h.numpy(), hh, atol=1e-5)), bool(np.allclose(c.numpy(), cc, atol=1e-5)))

model = keras.Sequential()
model.add(layers.Bidirectional(layers.LSTM(64, return_sequences=True), input_shape=(5, 10)))
model.add(layers.Bidirectional(layers.LSTM(32)))
model.add(layers.Dense(10))
print("bidirectional:", [l.output_shape for l in model.layers], model.count_params())

forward_layer = layers.LSTM(10, return_sequences=True)
backward_layer = layers.LSTM(10, activation="relu", return_sequences=True, go_backwards=True)
bi = layers.Bidirectional(forward_layer, backward_layer=backward_layer, merge_mode="sum")
y = bi(x)
print("custom backward layer:", y.shape)

paragraph1 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph2 = np.random.random((20, 10, 50)).astype(np.float32)
paragraph3 = np.random.random((20, 10, 50)).astype(np.float32)
lstm_layer = layers.LSTM(64, stateful=True)
output = lstm_layer(paragraph1)
output = lstm_layer(paragraph2)
output = lstm_layer(paragraph3)
whole = layers.LSTM(64)
whole(paragraph1[:1])
whole.set_weights(lstm_layer.get_weights())
together = whole(np.concatenate([paragraph1, paragraph2, paragraph3], axis=1)).numpy()
print("stateful = one long sequence:", bool(np.allclose(output.numpy(), together, atol=1e-5)))
existing_state = lstm_layer.states
new_lstm_layer = layers.LSTM(64)
new_lstm_layer(paragraph1[:1])
new_lstm_layer.set_weights(lstm_layer.get_weights())
new_output = new_lstm_layer(paragraph3, initial_state=existing_state)
lstm_layer.reset_states()
print("states reset:", [float(np.abs(s.numpy()).max()) for s in lstm_layer.states])
again = whole(paragraph3).numpy()
print("reset = fresh start:", bool(np.allclose(lstm_layer(paragraph3).numpy(), again, atol=1e-5)))
print("state reuse:", new_output.shape)

embedding = layers.Embedding(input_dim=50, output_dim=4, mask_zero=True)
padded = np.array([[7, 3, 9, 0, 0], [5, 0, 0, 0, 0], [1, 2, 3, 4, 6]])
masked_output = embedding(padded)
print("mask:", masked_output._keras_mask.numpy().tolist())
masking_layer = layers.Masking()
unmasked_embedding = tf.cast(tf.tile(tf.expand_dims(padded, axis=-1), [1, 1, 10]), tf.float32)
print("masking layer:", masking_layer(unmasked_embedding)._keras_mask.numpy().tolist()[1])

inputs = keras.Input(shape=(None,), dtype="int32")
x_ = embedding(inputs)
rnn_out = layers.LSTM(6)(x_)
gru_seq = layers.GRU(5, return_sequences=True)(x_)
masked_model = keras.Model(inputs, [rnn_out, gru_seq])
o, s = masked_model(padded)
for row, n in ((0, 3), (1, 1), (2, 5)):
    oo, ss = masked_model(padded[row:row + 1, :n])
    print(f"row {row}: last output ignores padding:", bool(np.allclose(o.numpy()[row], oo.numpy()[0], atol=1e-5)),
          "sequence carries the last valid output:",
          bool(np.allclose(s.numpy()[row, n - 1:], np.repeat(ss.numpy()[0, -1:], 5 - n + 1, 0), atol=1e-5)))

model = keras.Sequential([layers.Embedding(input_dim=50, output_dim=4, mask_zero=True), layers.LSTM(8),
                          layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
h = model.fit(padded, np.ones((3, 1)), epochs=3, verbose=0)
print("masked fit:", len(h.history["loss"]), h.history["loss"][-1] < h.history["loss"][0])
