"""The Functional API guide's ticket classifier: three inputs (title and body token ids,
binary tags), two named outputs, losses and loss weights given per output by name and as
lists, per-output metrics; fit with dicts, the history's per-output losses, evaluate's
order, predict's outputs. The total loss is checked against the per-output ones."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

num_tags = 12
num_words = 100
num_departments = 4

title_input = keras.Input(shape=(None,), name="title")
body_input = keras.Input(shape=(None,), name="body")
tags_input = keras.Input(shape=(num_tags,), name="tags")
title_features = layers.Embedding(num_words, 8)(title_input)
body_features = layers.Embedding(num_words, 8)(body_input)
title_features = layers.LSTM(16)(title_features)
body_features = layers.LSTM(4)(body_features)
x = layers.concatenate([title_features, body_features, tags_input])
priority_pred = layers.Dense(1, name="priority")(x)
department_pred = layers.Dense(num_departments, name="department")(x)
model = keras.Model(inputs=[title_input, body_input, tags_input], outputs=[priority_pred, department_pred])
print("outputs:", model.output_names if hasattr(model, "output_names") else None, model.output_shape)
print("concatenated:", x.shape)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
          "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
    loss_weights={"priority": 1.0, "department": 0.2},
)

rng = np.random.default_rng(0)
title_data = rng.integers(0, num_words, size=(32, 10))
body_data = rng.integers(0, num_words, size=(32, 20))
tags_data = rng.integers(0, 2, size=(32, num_tags)).astype("float32")
priority_targets = rng.random(size=(32, 1))
dept_targets = rng.integers(0, 2, size=(32, num_departments))
history = model.fit({"title": title_data, "body": body_data, "tags": tags_data},
                    {"priority": priority_targets, "department": dept_targets}, epochs=2, batch_size=8, verbose=0)
h = history.history
print("history:", sorted(h))
print("loss = priority + 0.2 department:",
      bool(np.allclose(h["loss"], np.add(h["priority_loss"], np.multiply(0.2, h["department_loss"])), rtol=1e-4)))

result = model.evaluate([title_data, body_data, tags_data], [priority_targets, dept_targets], verbose=0)
print("metrics_names:", model.metrics_names)
print("evaluate gives", len(result), "numbers")
p, d = model.predict({"title": title_data, "body": body_data, "tags": tags_data}, verbose=0)
bce = np.mean(np.maximum(p, 0) - p * priority_targets + np.log1p(np.exp(-np.abs(p))))
z = d - d.max(axis=1, keepdims=True)
logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
cce = np.mean(-(dept_targets * logp).sum(axis=1))
print("evaluate's per-output losses match numpy:", bool(np.allclose(result[1:], [bce, cce], rtol=1e-4)),
      bool(np.isclose(result[0], bce + 0.2 * cce, rtol=1e-4)))

model.compile(optimizer="rmsprop",
              loss=[keras.losses.BinaryCrossentropy(from_logits=True),
                    keras.losses.CategoricalCrossentropy(from_logits=True)],
              loss_weights=[1.0, 0.2],
              metrics={"department": ["accuracy"], "priority": [keras.metrics.MeanAbsoluteError(name="mae")]})
r = model.evaluate([title_data, body_data, tags_data], [priority_targets, dept_targets], verbose=0, return_dict=True)
print("with metrics:", sorted(r))
acc = np.mean(np.argmax(d, axis=1) == np.argmax(dept_targets, axis=1))
print("department accuracy matches numpy:", bool(np.isclose(r["department_accuracy"], acc)))
print("priority mae matches numpy:", bool(np.isclose(r["priority_mae"], np.abs(p - priority_targets).mean(), rtol=1e-4)))
