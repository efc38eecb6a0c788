"""tf.keras.preprocessing: the legacy helpers older Keras programs use,
`sequence.pad_sequences` and `text.Tokenizer`."""
from __future__ import annotations

import types

from .utils import pad_sequences

__all__ = ["sequence", "text", "Tokenizer"]

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=_FILTERS, lower=True, split=" "):
    """The words of a text: lower-cased, `filters` characters replaced by `split`, split on it."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [w for w in input_text.split(split) if w]


class Tokenizer:
    """Word indices by frequency (1 = most frequent; 0 is never a word), learned by fit_on_texts;
    texts_to_sequences keeps the words with index < num_words (or maps others to oov_token)."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 **kwargs):
        self.num_words, self.filters, self.lower, self.split = num_words, filters, lower, split
        self.char_level, self.oov_token = char_level, oov_token
        self.word_counts: dict = {}
        self.word_docs: dict = {}
        self.word_index: dict = {}
        self.index_word: dict = {}
        self.document_count = 0

    def _words(self, text):
        if self.char_level:
            return list(text.lower() if self.lower else text)
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts):
        """Count the words of the texts and index them, most frequent first (ties: first seen first)."""
        for text in texts:
            self.document_count += 1
            words = self._words(text) if isinstance(text, str) else list(text)
            for w in words:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(words):
                self.word_docs[w] = self.word_docs.get(w, 0) + 1
        ranked = sorted(self.word_counts.items(), key=lambda kv: kv[1], reverse=True)  # stable: first seen first
        vocab = ([self.oov_token] if self.oov_token is not None else []) + [w for w, _ in ranked]
        self.word_index = {w: i for i, w in enumerate(vocab, 1)}
        self.index_word = {i: w for w, i in self.word_index.items()}

    def texts_to_sequences(self, texts):
        """Each text as the list of its words' indices."""
        out = []
        oov = self.word_index.get(self.oov_token) if self.oov_token is not None else None
        for text in texts:
            words = self._words(text) if isinstance(text, str) else list(text)
            seq = []
            for w in words:
                i = self.word_index.get(w)
                if i is not None and (not self.num_words or i < self.num_words):
                    seq.append(i)
                elif oov is not None:
                    seq.append(oov)
            out.append(seq)
        return out

    def sequences_to_texts(self, sequences):
        """Each sequence of indices as the text of its words, space-separated."""
        return [" ".join(self.index_word[i] for i in seq if i in self.index_word and
                         (not self.num_words or i < self.num_words)) for seq in sequences]


sequence = types.SimpleNamespace(pad_sequences=pad_sequences)
text = types.SimpleNamespace(Tokenizer=Tokenizer, text_to_word_sequence=text_to_word_sequence)
