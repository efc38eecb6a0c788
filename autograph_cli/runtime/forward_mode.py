"""tf.autodiff.ForwardAccumulator: Jacobian-vector products (forward mode).

The accumulator records its primals' computations on a persistent tape. A
jvp ``J t`` is the gradient, with respect to a dummy cotangent ``u``, of
``<J^T u, t>``: the vector-Jacobian product (reverse mode, linear in ``u``)
differentiated once more. That costs two backward passes instead of
TensorFlow's one forward pass, with the same values, eagerly and in traced
functions, for every op that has a (differentiable) gradient.
"""
from __future__ import annotations

from . import nest
from . import ops
from .gradients import GradientTape
from .tensor import convert_to_tensor

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """``with tf.autodiff.ForwardAccumulator(primals, tangents) as acc: y = f(primals)``
    then ``acc.jvp(y)``: the derivative of ``y`` along ``tangents``."""

    def __init__(self, primals, tangents):
        self._primals = nest.tf_flatten(primals)
        self._tangents = [convert_to_tensor(t) for t in nest.tf_flatten(tangents)]
        if len(self._primals) != len(self._tangents):
            raise ValueError(f"ForwardAccumulator: {len(self._primals)} primals but {len(self._tangents)} tangents")
        for p, t in zip(self._primals, self._tangents):
            if p.shape.rank is not None and t.shape.rank is not None and not p.shape.is_compatible_with(t.shape):
                raise ValueError(f"ForwardAccumulator: a tangent of shape {t.shape} for a primal of shape {p.shape}")
        self._tape = GradientTape(persistent=True)
        self._open = False

    def __enter__(self):
        self._tape.__enter__()
        self._open = True
        for p in self._primals:
            self._tape.watch(p)
        return self

    def __exit__(self, *exc):
        self._open = False
        return self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients="none"):
        """The Jacobian-vector product of each tensor in the structure ``primals``
        (None, or zeros with unconnected_gradients=ZERO, for one that does not
        depend on the accumulator's primals)."""
        return nest.tf_map_structure(lambda y: self._one(y, unconnected_gradients), primals)

    def _one(self, y, unconnected):
        y = convert_to_tensor(y)
        u = ops.zeros_like(y)
        with GradientTape() as outer:
            outer.watch(u)
            vjps = self._tape.gradient(y, self._primals, output_gradients=u)
            terms = [ops.reduce_sum(g * t) for g, t in zip(vjps, self._tangents) if g is not None]
            dot = ops.add_n(terms) if len(terms) > 1 else (terms[0] if terms else None)
        out = outer.gradient(dot, u) if dot is not None else None
        if out is None and str(getattr(unconnected, "value", unconnected)).lower() == "zero":
            return ops.zeros_like(y)
        return out
