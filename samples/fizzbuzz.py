"""FizzBuzz over a tensor range (seed 001, "Conditionals").

The loop runs over ``tf.range``, so under ``tf.function`` with a tensor ``n``
it becomes one staged loop whose body holds a staged ``if``/``elif`` chain:
each Python ``print`` runs once while tracing, each ``tf.print`` on every
iteration. Called directly with a Python int it is ordinary FizzBuzz.
"""
import autograph_cli.tf as tf


def fizzbuzz(n):
  for i in tf.range(1, n + 1):
    print('Tracing for loop')
    if i % 15 == 0:
      print('Tracing fizzbuzz branch')
      tf.print('fizzbuzz')
    elif i % 3 == 0:
      print('Tracing fizz branch')
      tf.print('fizz')
    elif i % 5 == 0:
      print('Tracing buzz branch')
      tf.print('buzz')
    else:
      print('Tracing default branch')
      tf.print(i)


if __name__ == '__main__':
  staged_fizzbuzz = tf.function(fizzbuzz)
  staged_fizzbuzz(tf.constant(5))
  staged_fizzbuzz(tf.constant(20))
