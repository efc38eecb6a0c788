"""The implementation of tf.keras. Each public module (tf.keras.layers,
tf.keras.optimizers ...) re-exports its implementation's ``__all__`` and
nothing else, so a user's ``dir(tf.keras.layers)`` lists Keras' names only."""
