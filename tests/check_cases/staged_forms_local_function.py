"""`function` bound by the code itself (a parameter, a local): calling it does
not stage anything, even though the module never imports a `function`."""


def apply(function, xs):
    def cb(x):
        if x > 0:
            z = 1
        return z
    return function(cb)


def loop(items, tf):
    out = []
    for f in items:
        function = f
        out.append(function(lambda v: v))
    return tf.function(out)


def helper(tf):
    # this `tf` is a parameter: no TensorFlow here ...
    return tf.function(lambda: 1)


@tf.function
def still_staged(x):
    # ... while the module-level bare `tf` still means TensorFlow's
    if x > 0:
        y = 1
    return y  # expect: AG101
