"""The Functional API guide: an encoder/decoder autoencoder whose models nest as layers,
an ensemble averaged with layers.average, a toy ResNet with layers.add (the guide's
parameter count), shared embeddings, feature extraction from layer outputs, get_layer."""
import numpy as np

import autograph_cli.tf as tf
from autograph_cli.tf import keras
from autograph_cli.tf.keras import layers

inputs = keras.Input(shape=(784,))
print("input:", inputs.shape, inputs.dtype == tf.float32)
dense = layers.Dense(64, activation="relu")
x = dense(inputs)
x = layers.Dense(64, activation="relu")(x)
outputs = layers.Dense(10)(x)
model = keras.Model(inputs=inputs, outputs=outputs, name="mnist_model")
print(model.name, "params:", model.count_params(), "layers:", len(model.layers))

encoder_input = keras.Input(shape=(28, 28, 1), name="img")
x = layers.Conv2D(16, 3, activation="relu")(encoder_input)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.MaxPooling2D(3)(x)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.Conv2D(16, 3, activation="relu")(x)
encoder_output = layers.GlobalMaxPooling2D()(x)
encoder = keras.Model(encoder_input, encoder_output, name="encoder")
print("encoder:", encoder.output_shape, encoder.count_params())

decoder_input = keras.Input(shape=(16,), name="encoded_img")
x = layers.Reshape((4, 4, 1))(decoder_input)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
x = layers.Conv2DTranspose(32, 3, activation="relu")(x)
x = layers.UpSampling2D(3)(x)
x = layers.Conv2DTranspose(16, 3, activation="relu")(x)
decoder_output = layers.Conv2DTranspose(1, 3, activation="relu")(x)
decoder = keras.Model(decoder_input, decoder_output, name="decoder")
print("decoder:", decoder.output_shape, decoder.count_params())

autoencoder_input = keras.Input(shape=(28, 28, 1), name="img")
encoded_img = encoder(autoencoder_input)
decoded_img = decoder(encoded_img)
autoencoder = keras.Model(autoencoder_input, decoded_img, name="autoencoder")
print("autoencoder:", [l.name for l in autoencoder.layers], autoencoder.count_params())
imgs = np.random.default_rng(0).random((2, 28, 28, 1)).astype("float32")
whole = autoencoder(imgs).numpy()
parts = decoder(encoder(imgs)).numpy()
print("nested model = composition:", whole.shape, bool(np.allclose(whole, parts, atol=1e-6)))
print("get_layer is the nested model:", autoencoder.get_layer("encoder") is encoder)


def get_model():
    inputs = keras.Input(shape=(128,))
    outputs = layers.Dense(1)(inputs)
    return keras.Model(inputs, outputs)


model1, model2, model3 = get_model(), get_model(), get_model()
inputs = keras.Input(shape=(128,))
y1, y2, y3 = model1(inputs), model2(inputs), model3(inputs)
outputs = layers.average([y1, y2, y3])
ensemble_model = keras.Model(inputs=inputs, outputs=outputs)
v = np.random.default_rng(1).normal(size=(4, 128)).astype("float32")
ref = sum(v @ m.layers[-1].kernel.numpy() + m.layers[-1].bias.numpy() for m in (model1, model2, model3)) / 3
print("ensemble averages:", bool(np.allclose(ensemble_model(v).numpy(), ref, atol=1e-5)))

inputs = keras.Input(shape=(32, 32, 3), name="img")
x = layers.Conv2D(32, 3, activation="relu")(inputs)
x = layers.Conv2D(64, 3, activation="relu")(x)
block_1_output = layers.MaxPooling2D(3)(x)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_1_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_2_output = layers.add([x, block_1_output])
x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_2_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_3_output = layers.add([x, block_2_output])
x = layers.Conv2D(64, 3, activation="relu")(block_3_output)
x = layers.GlobalAveragePooling2D()(x)
x = layers.Dense(256, activation="relu")(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(10)(x)
resnet = keras.Model(inputs, outputs, name="toy_resnet")
print("toy resnet:", resnet.count_params(), block_1_output.shape, block_3_output.shape)
resnet.compile(optimizer=keras.optimizers.RMSprop(1e-3),
               loss=keras.losses.CategoricalCrossentropy(from_logits=True), metrics=["acc"])
xt = np.random.default_rng(2).random((8, 32, 32, 3)).astype("float32")
yt = keras.utils.to_categorical(np.arange(8) % 10, 10)
hist = resnet.fit(xt, yt, batch_size=4, epochs=1, validation_split=0.25, verbose=0)
print("resnet history:", sorted(hist.history))

shared_embedding = layers.Embedding(1000, 8)
text_input_a = keras.Input(shape=(None,), dtype="int32")
text_input_b = keras.Input(shape=(None,), dtype="int32")
encoded_input_a = shared_embedding(text_input_a)
encoded_input_b = shared_embedding(text_input_b)
two = keras.Model([text_input_a, text_input_b], [encoded_input_a, encoded_input_b])
ea, eb = two([np.array([[1, 2, 3]]), np.array([[3, 2]])])
print("shared embedding:", len(two.weights), ea.shape, eb.shape, bool(np.allclose(ea.numpy()[0, 2], eb.numpy()[0, 0])))

base = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(3, name="d1"), layers.Dense(2, name="d2")])
features_list = [layer.output for layer in base.layers]
feat_extraction_model = keras.Model(inputs=base.input, outputs=features_list)
feats = feat_extraction_model(np.ones((1, 4), "float32"))
print("features:", [tuple(f.shape) for f in feats])
print("last feature = model output:", bool(np.allclose(feats[-1].numpy(), base(np.ones((1, 4), "float32")).numpy())))
mid = keras.Model(base.input, base.get_layer("d1").output)
print("intermediate:", mid.output_shape, bool(np.allclose(mid(np.ones((1, 4), "float32")).numpy(), feats[0].numpy())))
