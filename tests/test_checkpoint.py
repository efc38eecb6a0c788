"""tf.train.Checkpoint / CheckpointManager / latest_checkpoint (runtime/checkpoint.py):
variables keyed by their attribute paths, so a checkpoint restores into a
second, separately built copy of the same structure (as another program would
build it), optimizer slots included."""
from __future__ import annotations

import os

import numpy as np
import pytest

import autograph_cli.tf as tf


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)]
        self.scale = tf.Variable(2.0, name="scale")

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x * self.scale


def _trained(steps):
    tf.random.set_seed(0)
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(net(x) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
    return net, opt, x


def test_restore_into_a_fresh_structure_with_optimizer_slots(tmp_path):
    net, opt, x = _trained(3)
    ckpt = tf.train.Checkpoint(model=net, optimizer=opt)
    path = ckpt.save(os.path.join(tmp_path, "ckpt"))
    assert path.endswith("ckpt-1") and tf.train.latest_checkpoint(tmp_path) == path
    # a second copy, built (and stepped once, creating its slots) differently
    tf.random.set_seed(5)
    net2, opt2, _ = _trained(1)
    status = tf.train.Checkpoint(model=net2, optimizer=opt2).restore(path)
    status.assert_consumed()
    for a, b in zip(net.variables, net2.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert int(opt2.iterations) == 3
    # the same next step from the same state: the slots were restored too
    for n, o in ((net, opt), (net2, opt2)):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(n(x) ** 2)
        o.apply_gradients(zip(tape.gradient(loss, n.trainable_variables), n.trainable_variables))
    for a, b in zip(net.variables, net2.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_write_read_partial_and_errors(tmp_path):
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v, step=tf.Variable(7))
    prefix = ckpt.write(os.path.join(tmp_path, "plain"))
    assert os.path.exists(prefix + ".index") and tf.train.latest_checkpoint(tmp_path) is None
    v.assign([0.0, 0.0])
    ckpt.read(prefix).assert_consumed()
    assert v.numpy().tolist() == [1.0, 2.0]
    only_v = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]))
    status = only_v.read(prefix)
    with pytest.raises(AssertionError):
        status.assert_consumed()
    status.expect_partial().assert_existing_objects_matched()
    assert only_v.v.numpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="trackable"):
        tf.train.Checkpoint(x=3)
    with pytest.raises(tf.errors.NotFoundError):
        ckpt.read(os.path.join(tmp_path, "missing"))
    assert tf.train.Checkpoint(v=v).restore(None) is not None


def test_manager_keeps_the_newest_and_resumes(tmp_path):
    step = tf.Variable(0)
    ckpt = tf.train.Checkpoint(step=step)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None
    for _ in range(4):
        step.assign_add(10)
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3", "ckpt-4"]
    assert not os.path.exists(os.path.join(tmp_path, "ckpt-1.index"))
    step.assign(0)
    again = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), str(tmp_path), max_to_keep=2)
    assert again.restore_or_initialize() == manager.latest_checkpoint
    assert int(step) == 40 and int(again.checkpoint.save_counter) == 4


def test_restore_before_layers_and_slots_exist_is_deferred(tmp_path):
    net, opt, x = _trained(3)
    path = tf.train.Checkpoint(model=net, optimizer=opt).save(os.path.join(tmp_path, "ckpt"))
    fresh, fresh_opt = Net(), tf.keras.optimizers.Adam(0.1)  # unbuilt layers, no slots
    status = tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path)
    with pytest.raises(AssertionError):
        status.assert_consumed()

    @tf.function
    def step(n, o):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(n(x) ** 2)
        o.apply_gradients(zip(tape.gradient(loss, n.trainable_variables), n.trainable_variables))

    step(net, opt)
    step(fresh, fresh_opt)  # builds the layers, then the slots: both take the saved values
    status.assert_consumed()
    for a, b in zip(net.variables, fresh.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    assert int(fresh_opt.iterations) == 4
