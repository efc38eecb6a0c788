"""tf.distribute for one machine and one replica, and the device listing of
tf.config.

A strategy here runs its function once, on the whole input: a distributed
dataset yields the dataset's own elements (one replica holds the global
batch), ``strategy.reduce(op, value, axis)`` reduces over that one replica
and, with ``axis``, along it, so results agree with TensorFlow's for any
number of replicas when a reduction names the batch axis. Virtual devices
may be configured (``tf.config.set_logical_device_configuration``) and are
listed, but do not add replicas.
"""
from __future__ import annotations

import contextlib
import types

from . import dtypes as dt
from . import ops
from .tensor import Tensor, convert_to_tensor

__all__ = ["Strategy", "MirroredStrategy", "OneDeviceStrategy", "ReduceOp", "get_strategy", "has_strategy",
           "PhysicalDevice", "LogicalDeviceConfiguration", "list_physical_devices", "list_logical_devices",
           "set_logical_device_configuration", "get_logical_device_configuration", "device"]


class ReduceOp:
    """How ``Strategy.reduce`` combines values: SUM or MEAN."""

    SUM = "SUM"
    MEAN = "MEAN"


class Strategy:
    """One replica on this machine (TensorFlow's default strategy)."""

    num_replicas_in_sync = 1

    def __init__(self, devices=None, cross_device_ops=None):
        self._devices = tuple(devices) if devices else ("/cpu:0",)

    @property
    def extended(self):
        return self

    def scope(self):
        return contextlib.nullcontext(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis=None):
        """Across the replicas (one here) and, given ``axis``, along it."""
        op = getattr(reduce_op, "value", reduce_op)
        op = str(op).upper().rpartition(".")[2]
        if op not in ("SUM", "MEAN"):
            raise ValueError(f"reduce_op must be 'SUM' or 'MEAN', got {reduce_op!r}")
        if axis is None:
            return value if isinstance(value, Tensor) else convert_to_tensor(value)
        if op == "SUM":
            return ops.reduce_sum(value, axis=axis)
        value = convert_to_tensor(value)
        if value.dtype.is_integer:
            return ops.reduce_sum(value, axis=axis) // ops.cast(ops.shape(value)[axis], value.dtype)
        return ops.reduce_mean(value, axis=axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset itself: its elements are the one replica's values."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(InputContext())

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        return value


class MirroredStrategy(Strategy):
    """tf.distribute.MirroredStrategy with one replica (see the module)."""


class OneDeviceStrategy(Strategy):
    """tf.distribute.OneDeviceStrategy: one replica on one device."""

    def __init__(self, device="/cpu:0"):
        super().__init__([device])


class InputContext:
    """What a dataset function of ``distribute_datasets_from_function`` is told: one pipeline, one replica."""

    num_input_pipelines = 1
    input_pipeline_id = 0
    num_replicas_in_sync = 1

    def get_per_replica_batch_size(self, global_batch_size):
        return global_batch_size


_DEFAULT = Strategy()


def get_strategy():
    """The strategy in scope: the default one-replica strategy."""
    return _DEFAULT


def has_strategy():
    """Whether a non-default strategy is in scope (never, here)."""
    return False


# --------------------------------------------------------------- tf.config devices
class PhysicalDevice(types.SimpleNamespace):
    """A device of this machine: ``name`` and ``device_type``."""

    def __init__(self, name, device_type):
        super().__init__(name=name, device_type=device_type)


class LogicalDeviceConfiguration(types.SimpleNamespace):
    """The configuration of one virtual device (its memory limit is recorded, not enforced)."""

    def __init__(self, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        super().__init__(memory_limit=memory_limit)


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_logical: dict = {}


@contextlib.contextmanager
def device(device_name):
    """tf.device: ops in the block run on the one CPU (TensorFlow places them
    there too when the named device does not exist: soft placement)."""
    if device_name is not None and not isinstance(device_name, str) and not callable(device_name):
        raise TypeError(f"tf.device expects a device name (str), got {device_name!r}")
    yield


def list_physical_devices(device_type=None):
    """This machine's one CPU (no accelerators)."""
    return [_CPU] if device_type in (None, "CPU") else []


def set_logical_device_configuration(device, logical_devices):
    """Splits a physical device into virtual ones (listed; they add no replicas here)."""
    _logical[device.name] = list(logical_devices)


def get_logical_device_configuration(device):
    """The virtual devices configured for ``device``, or None."""
    return _logical.get(device.name)


def list_logical_devices(device_type=None):
    """The logical devices: one per configured virtual CPU, else one."""
    if device_type not in (None, "CPU"):
        return []
    n = max(1, len(_logical.get(_CPU.name) or ()))
    return [types.SimpleNamespace(name=f"/device:CPU:{i}", device_type="CPU") for i in range(n)]


_ = dt
