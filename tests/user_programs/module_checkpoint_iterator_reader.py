# "Training checkpoints", the guide's own layout: the Checkpoint holds a
# step counter, the optimizer, the model AND the dataset iterator; a
# CheckpointManager keeps the newest two; the checkpoint is inspected with
# tf.train.list_variables / tf.train.load_checkpoint; a hand-built object
# graph restores one bias (partial restore, expect_partial); a fresh model,
# optimizer and iterator restored from the manager continue exactly where
# the saved run was, the iterator included.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5, kernel_initializer=tf.keras.initializers.Constant(0.1))

    def call(self, x):
        return self.l1(x)


def toy_dataset():
    inputs = tf.range(10.0)[:, None]
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


def train_step_fn(net, example, optimizer):
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


train_step = tf.function(train_step_fn)


def build():
    net = Net()
    opt = tf.keras.optimizers.SGD(0.01, momentum=0.5)
    iterator = iter(toy_dataset())
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
    return net, opt, iterator, ckpt


def train(ckpt, manager, steps, log):
    for _ in range(steps):
        example = next(ckpt.iterator)
        loss = train_step(ckpt.net, example, ckpt.optimizer)
        log.append(round(float(loss), 4))
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 3 == 0:
            save_path = manager.save()
            print("Saved checkpoint for step {}: {}".format(int(ckpt.step), os.path.basename(save_path)))


tmp = tempfile.mkdtemp()
net, opt, iterator, ckpt = build()
manager = tf.train.CheckpointManager(ckpt, os.path.join(tmp, "tf_ckpts"), max_to_keep=2)
print("initializing:", manager.restore_or_initialize())
first = []
train(ckpt, manager, 8, first)
print("kept:", [os.path.basename(p) for p in manager.checkpoints])
print("latest:", os.path.basename(tf.train.latest_checkpoint(os.path.join(tmp, "tf_ckpts"))))

listed = dict(tf.train.list_variables(manager.latest_checkpoint))
for key in ["_CHECKPOINTABLE_OBJECT_GRAPH", "iterator/.ATTRIBUTES/ITERATOR_STATE", "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
            "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
            "step/.ATTRIBUTES/VARIABLE_VALUE"]:
    print(key, listed.get(key))
reader = tf.train.load_checkpoint(os.path.join(tmp, "tf_ckpts"))
shape_from_key = reader.get_variable_to_shape_map()
dtype_from_key = reader.get_variable_to_dtype_map()
key = "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"
print("Shape:", shape_from_key[key], "Dtype:", dtype_from_key[key].name)
print("step saved:", reader.get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE"),
      "save_counter:", reader.get_tensor("save_counter/.ATTRIBUTES/VARIABLE_VALUE"))
saved_bias = reader.get_tensor("net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE")

# partial restore through a hand-built graph of Checkpoint objects
to_restore = tf.Variable(tf.zeros([5]))
fake_layer = tf.train.Checkpoint(bias=to_restore)
fake_net = tf.train.Checkpoint(l1=fake_layer)
new_root = tf.train.Checkpoint(net=fake_net)
status = new_root.restore(manager.latest_checkpoint)
print("partial restore equals the saved bias:", np.array_equal(to_restore.numpy(), saved_bias))
status.expect_partial()
try:
    status.assert_consumed()
except AssertionError:
    print("assert_consumed: AssertionError (the rest of the checkpoint was not used)")
status.assert_existing_objects_matched()

# keep training the original for 4 more steps: the reference
reference = list(first)
train(ckpt, manager, 4, reference)

# a fresh program state resumes from step 9's checkpoint
net2, opt2, iterator2, ckpt2 = build()
manager2 = tf.train.CheckpointManager(ckpt2, os.path.join(tmp, "tf_ckpts"), max_to_keep=2)
manager2_path = manager2.checkpoints[-2]   # ckpt-3: saved at step 9, before the 4 reference steps
ckpt2.restore(manager2_path)
print("resumed at step", int(ckpt2.step), "from", os.path.basename(manager2_path))
resumed = list(first[:8])
try:   # the same tf.function for a second model: its layer would be built in a second trace
    train_step(Net(), next(iter(toy_dataset())), tf.keras.optimizers.SGD(0.1))
except ValueError as e:
    print("one tf.function for two models:", type(e).__name__, "singleton" in str(e))
train_step = tf.function(train_step_fn)
train(ckpt2, manager2, 4, resumed)
print("resumed losses:", resumed[8:])
print("reference losses:", reference[8:])
print("same weights:", all(np.allclose(a.numpy(), b.numpy(), atol=1e-6)
                           for a, b in zip(net.trainable_variables, net2.trainable_variables)))

# numpy replay of the 12 steps: out = x k + b, loss mean|out - y|, SGD momentum 0.5
k, b = np.full((1, 5), 0.1), np.zeros(5)
mk, mb = np.zeros_like(k), np.zeros_like(b)
xs = np.arange(10.0)[:, None]
ys = xs * 5.0 + np.arange(5.0)[None, :]
ref = []
for i in range(12):
    x, y = xs[2 * (i % 5): 2 * (i % 5) + 2], ys[2 * (i % 5): 2 * (i % 5) + 2]
    r = x @ k + b - y
    ref.append(np.mean(np.abs(r)))
    g = np.sign(r) / r.size
    mk, mb = 0.5 * mk - 0.01 * (x.T @ g), 0.5 * mb - 0.01 * g.sum(0)
    k, b = k + mk, b + mb
print("numpy replay matches:", np.allclose(reference, ref, atol=1e-4), np.allclose(net2.l1.kernel.numpy(), k, atol=1e-5))
