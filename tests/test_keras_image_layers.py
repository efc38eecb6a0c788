"""Image preprocessing and augmentation layers ("Transfer learning", "Working with
preprocessing layers" guides): Resizing against tf.image.resize's half-pixel
bilinear rule in numpy, the affine augmentations against exact rotations/shifts,
the fill modes, training-only randomness, and a model that trains with them."""
import numpy as np
import pytest

import autograph_cli.tf as tf

keras = tf.keras
RNG = np.random.default_rng(3)
IMG = RNG.uniform(0, 255, size=(2, 5, 7, 3)).astype("float32")
SQ = RNG.uniform(size=(3, 6, 6, 2)).astype("float32")


def _ref_bilinear(x, out_h, out_w):
    n, h, w, c = x.shape
    out = np.zeros((n, out_h, out_w, c), np.float64)
    for i in range(out_h):
        sy = (i + 0.5) * h / out_h - 0.5
        y0 = int(np.floor(sy))
        fy = sy - y0
        ya, yb = min(max(y0, 0), h - 1), min(max(y0 + 1, 0), h - 1)
        for j in range(out_w):
            sx = (j + 0.5) * w / out_w - 0.5
            x0 = int(np.floor(sx))
            fx = sx - x0
            xa, xb = min(max(x0, 0), w - 1), min(max(x0 + 1, 0), w - 1)
            top = x[:, ya, xa] * (1 - fx) + x[:, ya, xb] * fx
            bottom = x[:, yb, xa] * (1 - fx) + x[:, yb, xb] * fx
            out[:, i, j] = top * (1 - fy) + bottom * fy
    return out


@pytest.mark.parametrize("size", [(3, 4), (8, 11), (10, 3), (5, 7)])
def test_resizing_bilinear_is_tf_image_resize(size):
    got = keras.layers.Resizing(*size)(IMG).numpy()
    np.testing.assert_allclose(got, _ref_bilinear(IMG.astype(np.float64), *size), rtol=1e-5, atol=1e-4)


def test_resizing_nearest_crop_to_aspect_ratio_and_one_image():
    got = keras.layers.Resizing(10, 14, interpolation="nearest")(IMG).numpy()
    np.testing.assert_array_equal(got, IMG.repeat(2, axis=1).repeat(2, axis=2))
    # crop_to_aspect_ratio: the centered 5x5 box of a 5x7 image, then resized to 2x2
    got = keras.layers.Resizing(2, 2, crop_to_aspect_ratio=True)(IMG).numpy()
    np.testing.assert_allclose(got, _ref_bilinear(IMG[:, :, 1:6].astype(np.float64), 2, 2), rtol=1e-5)
    single = keras.layers.Resizing(3, 3)(IMG[0]).numpy()
    assert single.shape == (3, 3, 3)
    np.testing.assert_allclose(single, _ref_bilinear(IMG[:1].astype(np.float64), 3, 3)[0], rtol=1e-5)
    with pytest.raises(ValueError, match="rank 3 or 4"):
        keras.layers.Resizing(2, 2)(IMG[0, 0])


def test_center_crop():
    np.testing.assert_array_equal(keras.layers.CenterCrop(3, 4)(IMG).numpy(), IMG[:, 1:4, 1:5])
    assert keras.layers.CenterCrop(8, 8)(IMG).shape == (2, 8, 8, 3)  # smaller images: cropped to 1:1, resized


def test_rotation_by_a_quarter_turn_is_rot90():
    for interpolation in ("nearest", "bilinear"):
        got = keras.layers.RandomRotation((0.25, 0.25), interpolation=interpolation)(SQ).numpy()
        np.testing.assert_allclose(got, np.rot90(SQ, axes=(1, 2)), atol=1e-5)


@pytest.mark.parametrize("mode,first_cols", [("reflect", [1, 0]), ("wrap", [4, 5]), ("nearest", [0, 0]),
                                             ("constant", None)])
def test_translation_fill_modes(mode, first_cols):
    layer = keras.layers.RandomTranslation((0, 0), (2 / 6, 2 / 6), fill_mode=mode, interpolation="nearest",
                                           fill_value=-1.0)
    got = layer(SQ).numpy()
    np.testing.assert_array_equal(got[:, :, 2:], SQ[:, :, :4])  # shifted right by two columns
    if first_cols is None:
        assert (got[:, :, :2] == -1.0).all()
    else:
        np.testing.assert_array_equal(got[:, :, :2], SQ[:, :, first_cols])


def test_zoom_and_identity_at_inference():
    np.testing.assert_allclose(keras.layers.RandomZoom((0.0, 0.0))(SQ).numpy(), SQ, atol=1e-6)
    zoomed_in = keras.layers.RandomZoom((-0.5, -0.5), interpolation="nearest")(SQ).numpy()
    # zoom 0.5 about the center (2.5, 2.5): output (2, 2) reads input (2.25, 2.25) -> pixel (2, 2)
    np.testing.assert_array_equal(zoomed_in[:, 2, 2], SQ[:, 2, 2])
    for layer in (keras.layers.RandomFlip(), keras.layers.RandomRotation(0.2), keras.layers.RandomZoom(0.3),
                  keras.layers.RandomTranslation(0.2, 0.2), keras.layers.RandomContrast(0.5),
                  keras.layers.RandomBrightness(0.3)):
        np.testing.assert_array_equal(layer(IMG, training=False).numpy(), IMG)
        assert layer(IMG).shape == IMG.shape


def test_flip_and_crop_draw_per_call():
    flipped = keras.layers.RandomFlip("horizontal", seed=5)
    seen = set()
    for _ in range(6):
        out = flipped(SQ).numpy()
        for i in range(len(SQ)):
            same, mirror = np.array_equal(out[i], SQ[i]), np.array_equal(out[i], SQ[i, :, ::-1])
            assert same or mirror
            seen.add(mirror)
    assert seen == {True, False}
    crop = keras.layers.RandomCrop(3, 4)
    windows = set()
    for _ in range(8):
        out = crop(IMG).numpy()
        (hit,) = [(a, b) for a in range(3) for b in range(4) if np.array_equal(out, IMG[:, a:a + 3, b:b + 4])]
        windows.add(hit)
    assert len(windows) > 1
    np.testing.assert_allclose(crop(IMG, training=False).numpy(), keras.layers.Resizing(
        3, 4, crop_to_aspect_ratio=True)(IMG).numpy())


def test_contrast_and_brightness_rules():
    c = keras.layers.RandomContrast((0.5, 0.5))  # factor uniform in [0.5, 1.5]
    out = c(IMG).numpy()
    mean = IMG.mean(axis=(1, 2), keepdims=True)
    factors = (out - mean) / (IMG - mean)
    inside = (out > 0) & (out < 255)
    for i in range(len(IMG)):
        f = factors[i][inside[i]]
        assert 0.5 <= f.min() and f.max() <= 1.5 and np.ptp(f) < 1e-3
    b = keras.layers.RandomBrightness((0.1, 0.1))(IMG).numpy()
    np.testing.assert_allclose(b, np.clip(IMG + 25.5, 0, 255), rtol=1e-5)


def test_augmentation_in_a_model_trains_and_predicts_deterministically():
    model = keras.Sequential([
        keras.Input((5, 7, 3)), keras.layers.Rescaling(1 / 255.0), keras.layers.RandomFlip("horizontal"),
        keras.layers.RandomRotation(0.1), keras.layers.RandomZoom(0.1), keras.layers.RandomContrast(0.2),
        keras.layers.Flatten(), keras.layers.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(np.concatenate([IMG] * 8), np.arange(16) % 2, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    np.testing.assert_array_equal(model.predict(IMG, verbose=0), model.predict(IMG, verbose=0))
    ds = tf.data.Dataset.from_tensor_slices(IMG).batch(2).map(lambda x: keras.layers.RandomFlip()(x))
    assert [tuple(b.shape) for b in ds] == [(2, 5, 7, 3)]
