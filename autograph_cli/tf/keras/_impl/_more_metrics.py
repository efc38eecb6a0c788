"""More tf.keras metrics: errors and cross-entropies as streaming means,
RootMeanSquaredError, top-k accuracies, and the confusion-matrix metrics
(TruePositives ..., Precision, Recall, AUC with tf.keras 2's thresholds and
interpolation), their counts kept in non-trainable variables."""
from __future__ import annotations

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.ops import math as math_ops

from . import _more_losses as _ml
from . import losses as _losses
from .metrics import Mean, MeanMetricWrapper, Metric, _t

__all__: list[str] = [
    "RootMeanSquaredError", "MeanSquaredLogarithmicError", "MeanAbsolutePercentageError", "CosineSimilarity",
    "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "LogCoshError", "BinaryCrossentropy",
    "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "TopKCategoricalAccuracy",
    "SparseTopKCategoricalAccuracy", "TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives",
    "Precision", "Recall", "AUC", "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
]


class RootMeanSquaredError(Mean):
    """The square root of the (weighted) mean squared error over everything seen."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.cast(_losses._pred(y_pred), self.dtype)
        y_true = _losses._true_like(y_true, y_pred)
        err = ops.square(y_pred - y_true)
        if sample_weight is not None:
            w = ops.cast(_t(sample_weight), self.dtype)
            if w.shape.rank is not None and err.shape.rank is not None and w.shape.rank < err.shape.rank:
                w = ops.reshape(w, ops.concat([ops.shape(w), ops.ones([err.shape.rank - w.shape.rank],
                                                                      dt.int32)], 0))
            sample_weight = w * ops.ones_like(err)
        super().update_state(err, sample_weight)

    def result(self):
        return ops.sqrt(super().result())


def _wrapper(cls_name, fn, default_name, doc, **defaults):
    def __init__(self, name=default_name, dtype=None, **kwargs):
        MeanMetricWrapper.__init__(self, fn, name, dtype, **{**defaults, **kwargs})

    return type(cls_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


def _positive_cosine(y_true, y_pred, axis=-1):
    return -_ml.cosine_similarity(y_true, y_pred, axis=axis)


MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", _ml.mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error", "The mean of (log(1 + y_pred) - "
                                       "log(1 + y_true)) ** 2 over everything seen.")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", _ml.mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error",
                                       "The mean absolute error relative to y_true, in percent.")
CosineSimilarity = _wrapper("CosineSimilarity", _positive_cosine, "cosine_similarity",
                            "The mean cosine similarity of y_true and y_pred.")
KLDivergence = _wrapper("KLDivergence", _ml.kl_divergence, "kl_divergence",
                        "The mean Kullback-Leibler divergence of y_pred from y_true.")
Poisson = _wrapper("Poisson", _ml.poisson, "poisson", "The mean Poisson loss.")
Hinge = _wrapper("Hinge", _ml.hinge, "hinge", "The mean hinge loss.")
SquaredHinge = _wrapper("SquaredHinge", _ml.squared_hinge, "squared_hinge", "The mean squared hinge loss.")
LogCoshError = _wrapper("LogCoshError", _ml.log_cosh, "logcosh", "The mean log-cosh error.")


class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary cross-entropy."""

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0.0):
        super().__init__(_losses.binary_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical cross-entropy (one-hot labels)."""

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False, label_smoothing=0.0):
        super().__init__(_losses.categorical_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean sparse categorical cross-entropy (integer labels)."""

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False, axis=-1):
        super().__init__(_losses.sparse_categorical_crossentropy, name, dtype, from_logits=from_logits)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Per example, 1.0 where the integer label is among the k highest scores."""
    y_pred = _losses._pred(y_pred)
    labels = ops.cast(_losses._sparse_labels(y_true, y_pred), dt.int32)
    depth = y_pred.shape.dims[-1]
    true_score = ops.reduce_sum(ops.one_hot(labels, depth, dtype=y_pred.dtype) * y_pred, axis=-1, keepdims=True)
    above = ops.reduce_sum(ops.cast(ops.greater(y_pred, true_score), dt.int32), axis=-1)
    return ops.cast(ops.less(above, int(k)), dt.float32)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Per example, 1.0 where the one-hot label's class is among the k highest scores."""
    return sparse_top_k_categorical_accuracy(ops.argmax(_t(y_true), axis=-1), y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label is among the k highest predictions."""

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the k highest predictions."""

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k)


def _flat_pairs(y_true, y_pred, class_id, sample_weight):
    """(labels, predictions, weights) as flat float vectors."""
    y_pred = ops.cast(_losses._pred(y_pred), dt.float32)
    y_true = ops.cast(_losses._same_rank(_t(y_true), y_pred), dt.float32)
    if class_id is not None:
        y_pred, y_true = y_pred[..., class_id], y_true[..., class_id]
    y_pred = ops.reshape(y_pred, [-1])
    y_true = ops.reshape(y_true, [-1])
    if sample_weight is None:
        w = ops.ones_like(y_pred)
    else:
        w = ops.cast(_t(sample_weight), dt.float32)
        n = ops.size(y_pred) // ops.maximum(ops.size(w), 1)
        w = ops.reshape(ops.reshape(w, [-1, 1]) * ops.ones(ops.stack([1, n]), dt.float32), [-1])
    return y_true, y_pred, w


class _Confusion(Metric):
    """Weighted counts of true/false positives/negatives at one or more thresholds."""

    _counts = ("true_positives", "false_positives", "true_negatives", "false_negatives")

    def __init__(self, thresholds=None, name=None, dtype=None, class_id=None, default=0.5):
        super().__init__(name, dtype)
        single = thresholds is None or isinstance(thresholds, (int, float))
        self._single = single
        self.thresholds = [default if thresholds is None else float(thresholds)] if single else \
            [float(t) for t in thresholds]
        self.class_id = class_id
        n = len(self.thresholds)
        for c in self._counts:
            setattr(self, c, self.add_variable((n,), name=c))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred, w = _flat_pairs(y_true, y_pred, self.class_id, sample_weight)
        th = ops.convert_to_tensor(self.thresholds, dtype=dt.float32)
        pred_pos = ops.cast(ops.greater(ops.expand_dims(y_pred, 1), ops.expand_dims(th, 0)), dt.float32)
        true_pos = ops.expand_dims(ops.cast(ops.greater(y_true, 0.5), dt.float32), 1)
        wc = ops.expand_dims(w, 1)
        parts = {"true_positives": pred_pos * true_pos, "false_positives": pred_pos * (1.0 - true_pos),
                 "true_negatives": (1.0 - pred_pos) * (1.0 - true_pos), "false_negatives": (1.0 - pred_pos) * true_pos}
        for c in self._counts:
            getattr(self, c).assign_add(ops.cast(ops.reduce_sum(parts[c] * wc, axis=0), self.dtype))

    def _out(self, value):
        return value[0] if self._single else value


def _count_metric(cls_name, count, doc):
    def __init__(self, thresholds=None, name=None, dtype=None):
        _Confusion.__init__(self, thresholds, name, dtype)

    def result(self):
        return self._out(getattr(self, count)._as_tensor())

    return type(cls_name, (_Confusion,), {"__init__": __init__, "result": result, "__doc__": doc,
                                           "__module__": __name__})


TruePositives = _count_metric("TruePositives", "true_positives", "The weighted number of true positives.")
FalsePositives = _count_metric("FalsePositives", "false_positives", "The weighted number of false positives.")
TrueNegatives = _count_metric("TrueNegatives", "true_negatives", "The weighted number of true negatives.")
FalseNegatives = _count_metric("FalseNegatives", "false_negatives", "The weighted number of false negatives.")


class Precision(_Confusion):
    """true positives / (true positives + false positives), predictions above the threshold (0.5) positive."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        if top_k is not None:
            raise NotImplementedError("Precision(top_k=...) is not supported by this runtime")
        super().__init__(thresholds, name, dtype, class_id)

    def result(self):
        tp, fp = self.true_positives._as_tensor(), self.false_positives._as_tensor()
        return self._out(math_ops.divide_no_nan(tp, tp + fp))


class Recall(_Confusion):
    """true positives / (true positives + false negatives), predictions above the threshold (0.5) positive."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        if top_k is not None:
            raise NotImplementedError("Recall(top_k=...) is not supported by this runtime")
        super().__init__(thresholds, name, dtype, class_id)

    def result(self):
        tp, fn = self.true_positives._as_tensor(), self.false_negatives._as_tensor()
        return self._out(math_ops.divide_no_nan(tp, tp + fn))


class AUC(_Confusion):
    """Area under the ROC (or precision-recall) curve, from confusion counts at num_thresholds
    thresholds evenly spaced in [0, 1], summed as tf.keras 2 sums them."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        if multi_label:
            raise NotImplementedError("AUC(multi_label=True) is not supported by this runtime")
        curve = curve.upper()
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["ROC", "PR"]')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f"Invalid AUC summation method value: {summation_method!r}")
        eps = 1e-7
        if thresholds is None:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        else:
            inner = sorted(float(t) for t in thresholds)
        self.num_thresholds = len(inner) + 2
        self.curve, self.summation_method, self.from_logits = curve, summation_method, from_logits
        super().__init__([0.0 - eps] + inner + [1.0 + eps], name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.from_logits:
            y_pred = ops.sigmoid(_losses._pred(y_pred))
        super().update_state(y_true, y_pred, sample_weight)

    def result(self):
        tp, fp = self.true_positives._as_tensor(), self.false_positives._as_tensor()
        tn, fn = self.true_negatives._as_tensor(), self.false_negatives._as_tensor()
        if self.curve == "PR" and self.summation_method == "interpolation":
            dtp = tp[:-1] - tp[1:]
            p = tp + fp
            dp = p[:-1] - p[1:]
            slope = math_ops.divide_no_nan(dtp, ops.maximum(dp, 0.0))
            intercept = tp[1:] - slope * p[1:]
            both = ops.logical_and(ops.greater(p[:-1], 0.0), ops.greater(p[1:], 0.0))
            ratio = ops.where(both, math_ops.divide_no_nan(p[:-1], ops.maximum(p[1:], 0.0)), ops.ones_like(p[1:]))
            return ops.reduce_sum(math_ops.divide_no_nan(slope * (dtp + intercept * ops.log(ratio)),
                                                         ops.maximum(tp[1:] + fn[1:], 0.0)))
        recall = math_ops.divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = math_ops.divide_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, math_ops.divide_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = ops.minimum(y[:-1], y[1:])
        else:
            heights = ops.maximum(y[:-1], y[1:])
        return ops.reduce_sum((x[:-1] - x[1:]) * heights)


BY_NAME: dict[str, type] = {
    "rmse": RootMeanSquaredError, "root_mean_squared_error": RootMeanSquaredError,
    "msle": MeanSquaredLogarithmicError, "mean_squared_logarithmic_error": MeanSquaredLogarithmicError,
    "mape": MeanAbsolutePercentageError, "mean_absolute_percentage_error": MeanAbsolutePercentageError,
    "cosine_similarity": CosineSimilarity, "kl_divergence": KLDivergence, "kld": KLDivergence,
    "poisson": Poisson, "hinge": Hinge, "squared_hinge": SquaredHinge, "logcosh": LogCoshError,
    "binary_crossentropy": BinaryCrossentropy, "categorical_crossentropy": CategoricalCrossentropy,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
    "top_k_categorical_accuracy": TopKCategoricalAccuracy,
    "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy,
    "precision": Precision, "recall": Recall, "auc": AUC, "true_positives": TruePositives,
    "false_positives": FalsePositives, "true_negatives": TrueNegatives, "false_negatives": FalseNegatives,
}
