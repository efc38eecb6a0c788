# "Training checkpoints" / "Effective TensorFlow 2": a Keras model and an
# optimizer saved with tf.train.Checkpoint through a CheckpointManager every
# few steps; a second program-like run builds everything again, restores the
# latest checkpoint BEFORE the first step (the layers and the Adam slots do
# not exist yet: restoration is deferred) and continues. Both runs end with
# the same losses and weights as one uninterrupted run.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5, activation="tanh")
        self.l2 = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.l2(self.l1(x))


def toy_dataset():
    inputs = tf.range(10.0)[:, None]
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


def make():
    tf.random.set_seed(42)
    net = Net()
    opt = tf.keras.optimizers.Adam(0.1)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
    return net, opt, ckpt


def train_step(net, example, optimizer):
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


compiled_steps = {}


def compiled_step(net, example, optimizer):
    # one tf.function per model: a function may create variables on its first trace only
    if id(net) not in compiled_steps:
        compiled_steps[id(net)] = tf.function(train_step)
    return compiled_steps[id(net)](net, example, optimizer)


def train_and_checkpoint(net, opt, ckpt, manager, steps):
    status = ckpt.restore(manager.latest_checkpoint)
    print("Restored from {}".format(os.path.basename(manager.latest_checkpoint)) if manager.latest_checkpoint
          else "Initializing from scratch.")
    iterator = iter(toy_dataset())
    for _ in range(int(ckpt.step) - 1):
        next(iterator)  # the data position follows the restored step
    losses = []
    for _ in range(steps):
        example = next(iterator)
        loss = compiled_step(net, example, opt)
        ckpt.step.assign_add(1)
        losses.append(float(loss))
        if int(ckpt.step) % 5 == 0:
            save_path = manager.save()
            print("Saved checkpoint for step {}: {}".format(int(ckpt.step), os.path.basename(save_path)))
    return status, losses


# one uninterrupted run of 19 steps
net_a, opt_a, ckpt_a = make()
it = iter(toy_dataset())
straight = [float(compiled_step(net_a, next(it), opt_a)) for _ in range(19)]

# 12 steps, a "restart", 8 more
directory = tempfile.mkdtemp()
net_b, opt_b, ckpt_b = make()
manager_b = tf.train.CheckpointManager(ckpt_b, directory, max_to_keep=3)
_, first = train_and_checkpoint(net_b, opt_b, ckpt_b, manager_b, 12)
print([os.path.basename(p) for p in manager_b.checkpoints])

net_c, opt_c, ckpt_c = make()
manager_c = tf.train.CheckpointManager(ckpt_c, directory, max_to_keep=3)
status, second = train_and_checkpoint(net_c, opt_c, ckpt_c, manager_c, 6)
status.assert_existing_objects_matched()
print(int(ckpt_c.step), int(opt_c.iterations), tf.train.latest_checkpoint(directory) == manager_c.latest_checkpoint)
# the restart resumed at step 10 (the last save): it repeats steps 10-11, then 12-15
print(np.allclose(first, straight[:12], rtol=1e-5), np.allclose(second, straight[9:15], rtol=1e-5))
# restarting again goes back to the step-15 save: steps 15-19 once more
_, more = train_and_checkpoint(net_c, opt_c, ckpt_c, manager_c, 5)
print(np.allclose(more, straight[14:19], rtol=1e-5), [os.path.basename(p) for p in manager_c.checkpoints])
print(all(np.allclose(a.numpy(), c.numpy(), rtol=1e-5) for a, c in zip(net_a.trainable_variables,
                                                                     net_c.trainable_variables)))
