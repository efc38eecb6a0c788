"""Accumulating values in a loop with tf.TensorArray (seeds 000 and 001).

The loop runs over ``tf.range``, so under ``tf.function`` it is staged and
the TensorArray ``states`` is carried through it as loop state.
"""
import autograph_cli.tf as tf

batch_size = 2
seq_len = 3
feature_size = 4


def rnn_step(inp, state):
  return inp + state


def dynamic_rnn(rnn_step, input_data, initial_state):
  # [batch, time, features] -> [time, batch, features]
  input_data = tf.transpose(input_data, [1, 0, 2])
  max_seq_len = input_data.shape[0]

  states = tf.TensorArray(tf.float32, size=max_seq_len)
  state = initial_state
  for i in tf.range(max_seq_len):
    state = rnn_step(input_data[i], state)
    states = states.write(i, state)
  return tf.transpose(states.stack(), [1, 0, 2])


if __name__ == '__main__':
  print(tf.function(dynamic_rnn)(
      rnn_step,
      tf.random.uniform([batch_size, seq_len, feature_size]),
      tf.zeros([batch_size, feature_size])))
