# CheckpointManager options from the "Training checkpoints" guide and its API
# page: checkpoint_interval with a step_counter (save() returns None until
# enough steps passed), a custom checkpoint_name, max_to_keep=None keeping
# everything, restore_or_initialize calling init_fn on a fresh directory,
# Checkpoint.write/read without counters, and tf.Module variables restored
# into a differently-built object graph with the same attribute paths.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[0.0], [0.0]])
        self.b = tf.Variable([0.0])

    @tf.function
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


model = Linear()
step = tf.Variable(0, dtype=tf.int64)
ckpt = tf.train.Checkpoint(model=model, step=step)
root = tempfile.mkdtemp()
initialized = []
manager = tf.train.CheckpointManager(ckpt, os.path.join(root, "run"), max_to_keep=None, checkpoint_name="model",
                                     step_counter=step, checkpoint_interval=3,
                                     init_fn=lambda: initialized.append("init"))
print("restore_or_initialize:", manager.restore_or_initialize(), initialized)

X = np.array([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0]], np.float32)
Y = np.array([[5.0], [4.0], [2.0]], np.float32)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(X) - Y))
    grads = tape.gradient(loss, [model.w, model.b])
    model.w.assign_sub(0.1 * grads[0])
    model.b.assign_sub(0.1 * grads[1])
    step.assign_add(1)
    return loss


saved = []
for _ in range(8):
    train_step()
    path = manager.save()
    saved.append(None if path is None else os.path.basename(path))
print(saved)
print([os.path.basename(p) for p in manager.checkpoints], manager.checkpoint_interval)
print("forced:", os.path.basename(manager.save(check_interval=False)))

w_at_4 = tf.train.load_checkpoint(os.path.join(root, "run", "model-4")).get_tensor(
    "model/w/.ATTRIBUTES/VARIABLE_VALUE")

fresh = Linear()
fresh_step = tf.Variable(0, dtype=tf.int64)
manager2 = tf.train.CheckpointManager(tf.train.Checkpoint(model=fresh, step=fresh_step), os.path.join(root, "run"),
                                      max_to_keep=None, checkpoint_name="model")
print("restored:", os.path.basename(manager2.restore_or_initialize()), int(fresh_step.numpy()))
print("same weights:", np.allclose(fresh.w.numpy(), model.w.numpy()), np.allclose(fresh(X), model(X)))

# a different object graph with the same paths restores the same values
holder = tf.Module()
holder.w = tf.Variable(tf.zeros([2, 1]))
partial = tf.train.Checkpoint(model=holder)
partial.read(os.path.join(root, "run", "model-4")).expect_partial()
print("w from model-4:", np.allclose(holder.w.numpy(), w_at_4))

prefix = ckpt.write(os.path.join(root, "plain", "weights"))
model.w.assign(tf.ones([2, 1]))
ckpt.read(prefix).assert_consumed()
print("write/read roundtrip:", np.allclose(model.w.numpy(), fresh.w.numpy()), os.path.basename(prefix),
      tf.train.latest_checkpoint(os.path.join(root, "plain")))
