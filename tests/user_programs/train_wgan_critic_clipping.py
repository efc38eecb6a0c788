# A WGAN-style step inside one tf.function: N_CRITIC critic updates in a
# staged loop over tf.range (each with its own tape), weight clipping by
# assigning tf.clip_by_value to every critic variable, then one generator
# update through the critic with a second tape; two Keras optimizers (SGD
# with momentum for the critic, Adam for the generator), their slots created
# on the first call; checked against a numpy replay.
import numpy as np
import autograph_cli.tf as tf

N_CRITIC, CLIP = 3, 0.3
gen_w = tf.Variable([[0.5]], name="gen_w")
gen_b = tf.Variable([0.0], name="gen_b")
crit_w = tf.Variable([[0.2]], name="crit_w")
crit_b = tf.Variable([0.1], name="crit_b")
critic_vars = [crit_w, crit_b]
gen_vars = [gen_w, gen_b]
c_opt = tf.keras.optimizers.SGD(0.05, momentum=0.5)
g_opt = tf.keras.optimizers.Adam(0.01)


def generator(z):
    return tf.matmul(z, gen_w) + gen_b


def critic(x):
    return tf.matmul(x, crit_w) + crit_b


@tf.function
def train_step(real, noise):
    c_losses = tf.TensorArray(tf.float32, size=N_CRITIC)
    for i in tf.range(N_CRITIC):
        with tf.GradientTape() as tape:
            fake = generator(noise)
            c_loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real))
        grads = tape.gradient(c_loss, critic_vars)
        c_opt.apply_gradients(zip(grads, critic_vars))
        for v in critic_vars:
            v.assign(tf.clip_by_value(v, -CLIP, CLIP))
        c_losses = c_losses.write(i, c_loss)
    with tf.GradientTape() as tape:
        g_loss = -tf.reduce_mean(critic(generator(noise)))
    grads = tape.gradient(g_loss, gen_vars)
    g_opt.apply_gradients(zip(grads, gen_vars))
    return c_losses.stack(), g_loss


real = np.array([[2.0], [3.0]], np.float32)
noise = np.array([[1.0], [-1.0]], np.float32)
history = []
for step in range(3):
    c, g = train_step(real, noise)
    history.append((c.numpy(), float(g)))
    print("step", step, "critic", np.round(c.numpy().astype(np.float64), 5).tolist(), "gen %.5f" % float(g))
print("iterations:", int(c_opt.iterations.numpy()), int(g_opt.iterations.numpy()),
      "traces:", train_step.experimental_get_tracing_count())

# numpy replay
gw, gb, cw, cb = 0.5, 0.0, 0.2, 0.1
mw = mb = 0.0
am, av = np.zeros(2), np.zeros(2)
t = 0
ok = True
for step in range(3):
    cl = []
    for _ in range(N_CRITIC):
        fake = noise[:, 0] * gw + gb
        cl.append(np.mean(fake * cw + cb) - np.mean(real[:, 0] * cw + cb))
        dcw, dcb = np.mean(fake) - np.mean(real[:, 0]), 0.0
        mw, mb = 0.5 * mw - 0.05 * dcw, 0.5 * mb - 0.05 * dcb
        cw, cb = np.clip(cw + mw, -CLIP, CLIP), np.clip(cb + mb, -CLIP, CLIP)
    fake = noise[:, 0] * gw + gb
    gl = -np.mean(fake * cw + cb)
    g = np.array([-cw * np.mean(noise[:, 0]), -cw])
    t += 1
    am = 0.9 * am + 0.1 * g
    av = 0.999 * av + 0.001 * g ** 2
    lr = 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
    gw, gb = np.array([gw, gb]) - lr * am / (np.sqrt(av) + 1e-7)
    ok &= np.allclose(history[step][0], cl, atol=1e-5) and np.isclose(history[step][1], gl, atol=1e-5)
print("matches numpy:", ok, np.allclose([gen_w.numpy()[0, 0], gen_b.numpy()[0]], [gw, gb], atol=1e-5),
      np.allclose([crit_w.numpy()[0, 0], crit_b.numpy()[0]], [cw, cb], atol=1e-6))
