# "Introduction to tensors" mistakes and the error a user catches: eagerly the
# kernels raise InvalidArgumentError (shapes, indices, dtypes); the same
# mistakes while tracing are ValueError/TypeError; conversions and Variable
# assignments raise TypeError/ValueError; a Variable per call and bool() of a
# symbolic tensor are refused.
import autograph_cli.tf as tf


def kind(fn, *args):
    """The TensorFlow error class a user catches (most specific first)."""
    try:
        fn(*args)
    except tf.errors.InvalidArgumentError:
        return "InvalidArgumentError"
    except tf.errors.OperatorNotAllowedInGraphError:
        return "OperatorNotAllowedInGraphError"
    except TypeError:
        return "TypeError"
    except ValueError:
        return "ValueError"
    return "no error"


a23 = tf.ones([2, 3])
# eagerly, the kernels refuse bad operands: InvalidArgumentError
print("matmul", kind(tf.matmul, a23, a23))
print("index", kind(lambda: tf.range(3)[5]))
print("reshape", kind(tf.reshape, tf.range(6), [4, -1]))
print("broadcast", kind(lambda: tf.constant([1, 2, 3]) + tf.constant([1, 2])))
print("dtypes", kind(lambda: tf.constant(1) + tf.constant(1.0)))
print("gather", kind(tf.gather, tf.ones([3]), 5))
print("concat", kind(tf.concat, [tf.ones([2, 2]), tf.ones([2, 3])], 0))


# the same mistakes while tracing: ValueError (shapes) / TypeError (dtypes)
@tf.function
def bad_matmul(x):
    return tf.matmul(x, x)


@tf.function
def bad_index(x):
    return x[5]


@tf.function
def mixed(a, b):
    return a + b


print("traced matmul", kind(bad_matmul, a23))
print("traced index", kind(bad_index, tf.range(3)))
try:
    mixed(tf.constant(1), tf.constant(2.0))
except TypeError as e:  # TensorFlow: "Input 'y' of 'AddV2' Op has type float32 that does not match ..."
    print("traced dtypes TypeError", "float32" in str(e) and "int32" in str(e))


# errors raised when the graph runs (shapes unknown while tracing)
@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def run_time_gather(x):
    return tf.gather(x, 5)


print("run-time gather", kind(run_time_gather, tf.range(3)), int(run_time_gather(tf.range(10))))

# conversions
print("float into int32", kind(tf.constant, 3.7, tf.int32))
print("python float + int tensor", kind(lambda: tf.constant(1) + 1.5))
print("ragged list", kind(tf.constant, [[1, 2], [3]]))
print("cast truncates", int(tf.cast(tf.constant(3.7), tf.int32)), int(tf.cast(tf.constant(-3.7), tf.int32)))
print("assign dtype", kind(lambda: tf.Variable(1.0).assign(tf.constant(1, tf.int32))))
print("assign shape", kind(lambda: tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0])))


@tf.function
def make_var(x):
    v = tf.Variable(1.0)
    return v * x


print("variable per call", kind(make_var, tf.constant(1.0)))


@tf.function
def py_bool(x):
    return bool(x > 0)


print("bool of a tensor", kind(py_bool, tf.constant(1.0)))
try:
    tf.matmul(a23, a23)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "[Op:MatMul]" in str(e))
