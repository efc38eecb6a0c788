"""TextVectorization, StringLookup and IntegerLookup: vocabularies learned by
`adapt` (most frequent first, as Keras orders them), applied by a numpy
kernel (`tf.numpy_function`), so they run eagerly, inside tf.function and in
`Dataset.map`. A `standardize` function of the user's runs as ordinary
(staged) string ops before the lookup."""
from __future__ import annotations

import re

import numpy as np

from autograph_cli.runtime import dtypes as dt
from autograph_cli.runtime import ops
from autograph_cli.runtime.effects import numpy_function
from autograph_cli.runtime.tensor import SymbolicTensor, Tensor

from ._layer import Layer

__all__ = ["TextVectorization", "StringLookup", "IntegerLookup"]

# Keras' DEFAULT_STRIP_REGEX
_PUNCTUATION = re.compile(r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')
_OUTPUT_MODES = ("int", "multi_hot", "count", "one_hot")


def _text(v):
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _values(data):
    """The elements of `data` (an array, a list, a tensor or a Dataset) as a flat numpy array."""
    from autograph_cli.runtime.data import Dataset

    if isinstance(data, Dataset):
        parts = [np.asarray(b.numpy() if hasattr(b, "numpy") else b).reshape(-1) for b in data]
        return np.concatenate(parts) if parts else np.array([], object)
    if hasattr(data, "numpy"):
        data = data.numpy()
    return np.asarray(data).reshape(-1)


def _rank_tokens(counts, max_size):
    """Tokens by count (descending), ties as Keras breaks them (np.lexsort, reversed)."""
    tokens = list(counts)
    if not tokens:
        return []
    keys = np.array(tokens)
    freq = np.array([counts[t] for t in tokens])
    order = np.lexsort((keys, freq))[::-1]
    ranked = [tokens[i] for i in order]
    return ranked if max_size is None else ranked[:max(max_size, 0)]


class _Lookup(Layer):
    """What the three share: a vocabulary (padding '' / 0 first when mask_token
    is used, then the OOV token, then the learned tokens) and the output modes."""

    _oov_default: object = "[UNK]"
    _mask_default: object = ""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None, vocabulary=None,
                 output_mode="int", invert=False, pad_to_max_tokens=False, sparse=False, **kwargs):
        kwargs.pop("vocabulary_dtype", None)
        kwargs.pop("idf_weights", None)
        kwargs.pop("encoding", None)
        super().__init__(**kwargs)
        if output_mode not in _OUTPUT_MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {_OUTPUT_MODES} (or "
                             f"'tf_idf', not supported by this runtime). Received: output_mode={output_mode}")
        if sparse:
            raise NotImplementedError(f"{type(self).__name__}(sparse=True) is not supported by this runtime")
        if num_oov_indices != 1:
            raise NotImplementedError(f"{type(self).__name__}: num_oov_indices other than 1 is not supported")
        self.max_tokens = max_tokens
        self.mask_token = mask_token
        self.oov_token = self._oov_default if oov_token is None else oov_token
        self.output_mode = output_mode
        self.invert = bool(invert)
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self._vocab: list = []
        self._index: dict = {}
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    # vocabulary -----------------------------------------------------------------------------
    def _special(self):
        """The mask token takes index 0 in "int" mode only (other modes drop it)."""
        masked = self.mask_token is not None and self.output_mode == "int"
        return ([self.mask_token] if masked else []) + [self.oov_token]

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use the given tokens (without the mask and OOV tokens, or with them first) as the vocabulary."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        tokens = [self._token(v) for v in _values(vocabulary)]
        special = self._special()
        if tokens[:len(special)] == special:
            tokens = tokens[len(special):]
        self._set(tokens)

    def _token(self, v):
        return _text(v)

    def _set(self, tokens):
        vocab = self._special() + list(tokens)
        self._vocab = vocab
        self._index = {t: i for i, t in enumerate(vocab)}

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary, index by index (the mask and OOV tokens first)."""
        return list(self._vocab if include_special_tokens else self._vocab[len(self._special()):])

    def vocabulary_size(self):
        """The number of indices: the vocabulary's tokens and the special ones."""
        return len(self._vocab)

    def _tokens_of(self, values):
        return [self._token(v) for v in values]

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary: the most frequent tokens of `data` (an array, a tensor or a Dataset)."""
        counts: dict = {}
        for t in self._tokens_of(_values(data)):
            if t != self.mask_token:
                counts[t] = counts.get(t, 0) + 1
        size = None if self.max_tokens is None else self.max_tokens - len(self._special())
        self._set(_rank_tokens(counts, size))

    # lookup ---------------------------------------------------------------------------------
    def _ids(self, tokens):
        oov = len(self._special()) - 1
        if self.output_mode != "int" and self.mask_token is not None:
            tokens = [t for t in tokens if t != self.mask_token]
        return [self._index.get(t, oov) for t in tokens]

    def _depth(self):
        return self.max_tokens if self.pad_to_max_tokens and self.max_tokens else len(self._vocab)

    def _encode(self, rows):
        """rows: a list of lists of ids -> the output of output_mode."""
        if self.output_mode == "int":
            return rows
        depth = self._depth()
        out = np.zeros((len(rows), depth), np.float32)
        for i, r in enumerate(rows):
            for j in r:
                if self.output_mode == "count":
                    out[i, j] += 1
                else:
                    out[i, j] = 1
        return out

    def _run(self, x, kernel, out_dtype, static_shape):
        if not self._vocab:
            raise ValueError(f"{type(self).__name__} has no vocabulary: call `adapt` or give `vocabulary=` first")
        y = numpy_function(kernel, [x], out_dtype, stateful=False)
        if isinstance(y, SymbolicTensor):
            y.set_shape(static_shape)
        return y


class StringLookup(_Lookup):
    """Maps strings to integer indices of a vocabulary (index 0: '[UNK]' unless mask_token is set)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 output_mode="int", invert=False, **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, output_mode, invert,
                         **kwargs)

    def call(self, inputs):
        x = inputs if isinstance(inputs, Tensor) else ops.convert_to_tensor(inputs)
        rank = x.shape.rank
        if self.invert:
            vocab = self._vocab

            def inverse(a):
                flat = [vocab[int(i)] if 0 <= int(i) < len(vocab) else self.oov_token for i in a.reshape(-1)]
                return np.array([t.encode("utf-8") for t in flat], object).reshape(a.shape)

            return self._run(x, inverse, dt.string, x.shape)

        def lookup(a):
            ids = self._ids(self._tokens_of(a.reshape(-1)))
            if self.output_mode == "int":
                return np.array(ids, np.int64).reshape(a.shape)
            rows = [self._ids(self._tokens_of(np.atleast_1d(r).reshape(-1))) for r in
                    (a if a.ndim > 1 else a.reshape(-1, 1))]
            return self._encode(rows)

        if self.output_mode == "int":
            return self._run(x, lookup, dt.int64, x.shape)
        return self._run(x, lookup, dt.float32, [x.shape.dims[0] if rank else None, None])


class IntegerLookup(StringLookup):
    """Maps integers to indices of a vocabulary (index 0: the OOV value -1 unless mask_token is set)."""

    _oov_default = -1

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 output_mode="int", invert=False, **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, output_mode, invert,
                         **kwargs)

    def _token(self, v):
        return int(v)

    def call(self, inputs):
        x = inputs if isinstance(inputs, Tensor) else ops.convert_to_tensor(inputs)
        if self.invert:
            vocab = self._vocab

            def inverse(a):
                flat = [vocab[int(i)] if 0 <= int(i) < len(vocab) else self.oov_token for i in a.reshape(-1)]
                return np.array(flat, np.int64).reshape(a.shape)

            return self._run(x, inverse, dt.int64, x.shape)
        return super().call(inputs)


class TextVectorization(_Lookup):
    """Turns strings into sequences of token indices (0 padding, 1 '[UNK]') or into multi-hot/count vectors."""

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace", ngrams=None,
                 output_mode="int", output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 **kwargs):
        if ngrams is not None:
            raise NotImplementedError("TextVectorization(ngrams=...) is not supported by this runtime")
        if not (standardize is None or callable(standardize) or
                standardize in ("lower_and_strip_punctuation", "lower", "strip_punctuation")):
            raise ValueError(f"Invalid value for argument `standardize`: {standardize!r}")
        if not (split is None or split in ("whitespace", "character")):
            raise NotImplementedError("TextVectorization: split must be 'whitespace', 'character' or None here")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is not 'int'. "
                             f"Received output_sequence_length={output_sequence_length}.")
        super().__init__(max_tokens=max_tokens, mask_token="", oov_token="[UNK]", vocabulary=None,
                         output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens, **kwargs)
        self.standardize = standardize
        self.split = split
        self.output_sequence_length = None if output_sequence_length is None else int(output_sequence_length)
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    def _standardize_tensor(self, x):
        if callable(self.standardize):
            return self.standardize(x)
        return x

    def _words(self, text):
        text = _text(text)
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            text = text.lower()
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            text = _PUNCTUATION.sub("", text)
        if self.split == "whitespace":
            return text.split()
        if self.split == "character":
            return list(text)
        return [text]

    def _tokens_of(self, values):
        return [w for v in values for w in self._words(v)]

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary from strings (an array, a tensor or a Dataset of strings)."""
        from autograph_cli.runtime.data import Dataset

        if callable(self.standardize):
            if isinstance(data, Dataset):
                data = data.map(self.standardize)
            else:
                data = self.standardize(ops.convert_to_tensor(_values(data)))
        super().adapt(data)

    def call(self, inputs):
        x = inputs if isinstance(inputs, Tensor) else ops.convert_to_tensor(inputs)
        squeeze = x.shape.rank == 2 and x.shape.dims[1] == 1
        if squeeze:
            x = ops.squeeze(x, [1])
        scalar = x.shape.rank == 0
        if scalar:
            x = ops.expand_dims(x, 0)
        x = self._standardize_tensor(x)
        length = self.output_sequence_length

        def vectorize(a):
            rows = [self._ids(self._words(v)) for v in a.reshape(-1)]
            if self.output_mode != "int":
                return self._encode(rows)
            n = length if length is not None else max([len(r) for r in rows] + [0])
            out = np.zeros((len(rows), n), np.int64)
            for i, r in enumerate(rows):
                r = r[:n]
                out[i, :len(r)] = r
            return out

        batch = x.shape.dims[0] if x.shape.dims is not None else None
        if self.output_mode == "int":
            y = self._run(x, vectorize, dt.int64, [batch, length])
        else:
            y = self._run(x, vectorize, dt.float32, [batch, self._depth()])
        return ops.squeeze(y, [0]) if scalar else y

    def compute_mask(self, inputs, mask=None):
        return None
