# A tf.Module whose method counts in a Variable (assign_add in a staged loop)
# and keeps a Python history list appended once per call (outside the loop).
import numpy as np
import autograph_cli.tf as tf

class Stepper(tf.Module):
    def __init__(self):
        super().__init__()
        self.count = tf.Variable(0)
        self.total = tf.Variable(0.0)
        self.history = []

    @tf.function
    def __call__(self, xs):
        for x in xs:
            if x > 0:
                self.count.assign_add(1)
                self.total.assign_add(x)
        self.history.append("traced")
        return self.total / tf.cast(self.count, tf.float32)

s = Stepper()
batches = [np.array([1.0, -2.0, 3.0], np.float32), np.array([5.0, 0.0, -1.0], np.float32),
           np.array([2.0, 2.0, 2.0], np.float32)]
means = [float(s(tf.constant(b))) for b in batches]
pos = []
exp = []
for b in batches:
    pos += [v for v in b if v > 0]
    exp.append(sum(pos) / len(pos))
print(int(s.count.numpy()), len(pos))
print(np.allclose(means, exp))
print(s.history)
