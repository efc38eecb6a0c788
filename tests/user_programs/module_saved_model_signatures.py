# "Using the SavedModel format": a tf.Module with variables and several
# tf.function methods (one with an input_signature, one polymorphic traced
# for two dtypes before saving), exported with explicit signatures
# (serving_default and a second named one), loaded back: the restored
# functions, the signatures' keyword calls and dict outputs, variables
# restored, a loaded module fine-tuned with a tape, and the checkpoint it
# carries.
import os
import tempfile

import numpy as np
import autograph_cli.tf as tf


class CustomModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.)

    @tf.function
    def __call__(self, x):
        print("Tracing with", x)
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v):
        self.v.assign(new_v)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="values")])
    def normalize(self, values):
        return {"centered": values - tf.reduce_mean(values), "scaled": values * self.v}


module = CustomModule()
module(tf.constant(0.))
print("Saving model...")
path = os.path.join(tempfile.mkdtemp(), "module_with_signatures")
call = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
tf.saved_model.save(module, path, signatures={"serving_default": call,
                                              "normalize": module.normalize.get_concrete_function()})

imported = tf.saved_model.load(path)
print(sorted(imported.signatures.keys()))
assert imported(tf.constant(3.)).numpy() == 3
imported.mutate(tf.constant(2.))
print(imported(tf.constant(3.)).numpy(), imported.v.numpy())

serve = imported.signatures["serving_default"]
out = serve(x=tf.constant([1.0, 2.0]))
print(sorted(out), out["output_0"].numpy().tolist())
norm = imported.signatures["normalize"](values=tf.constant([1.0, 2.0, 6.0]))
print(sorted(norm), norm["centered"].numpy().tolist(), norm["scaled"].numpy().tolist())
print(imported.normalize(tf.constant([0.0, 4.0]))["centered"].numpy().tolist())

# fine-tune the restored variable with a tape
target = tf.constant([2.0, 4.0])
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(imported(tf.constant([1.0, 2.0])) - target * 1.5))
    g = tape.gradient(loss, imported.v)
    imported.v.assign_sub(0.1 * g)
v = 2.0
for _ in range(3):
    r = np.array([1.0, 2.0]) * v - np.array([3.0, 6.0])
    v -= 0.1 * np.mean(2 * r * np.array([1.0, 2.0]))
print("fine-tuned v %.5f" % imported.v.numpy(), np.isclose(imported.v.numpy(), v, atol=1e-5))
