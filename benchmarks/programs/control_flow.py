"""Control-flow-heavy programs on plain Python values, for
benchmarks/bench_python_values.py. Ordinary code, written the way people write
it; each function is converted and timed against itself."""


def classify(values):
    """if/elif chain inside a loop."""
    counts = [0, 0, 0, 0]
    for v in values:
        if v < 0:
            counts[0] += 1
        elif v == 0:
            counts[1] += 1
        elif v < 100:
            counts[2] += 1
        else:
            counts[3] += 1
    return counts


def first_duplicate(items):
    """Nested loops with an early return from the inner one."""
    for i in range(len(items)):
        for j in range(i):
            if items[i] == items[j]:
                return i
    return -1


def sum_odd_until_negative(values):
    """break and continue."""
    total = 0
    for v in values:
        if v < 0:
            break
        if v % 2 == 0:
            continue
        total += v
    return total


def parse_ints(tokens):
    """try/except inside a loop."""
    total = 0
    bad = 0
    for token in tokens:
        try:
            total += int(token)
        except ValueError:
            bad += 1
    return total, bad


def smallest_factor(n):
    """while/else with a break; return from the else clause."""
    d = 2
    while d * d <= n:
        if n % d == 0:
            break
        d += 1
    else:
        return n
    return d


def collatz(x):
    """while with an if/else inside."""
    count = 0
    while x != 1:
        count += 1
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
    return count


def running_mean(values, window):
    """List accumulation with enumerate and two ifs."""
    out = []
    acc = 0
    for i, v in enumerate(values):
        acc += v
        if i >= window:
            acc -= values[i - window]
        if i + 1 >= window:
            out.append(acc / window)
    return out


def bubble_sort(xs):
    """A while loop around a for loop, with a flag and tuple assignment."""
    xs = list(xs)
    n = len(xs)
    swapped = True
    while swapped:
        swapped = False
        for i in range(1, n):
            if xs[i - 1] > xs[i]:
                xs[i - 1], xs[i] = xs[i], xs[i - 1]
                swapped = True
        n -= 1
    return xs


def binary_search(xs, target):
    """Returns from inside a while loop."""
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return -1


def word_stats(words):
    """and/or/not and conditional expressions in a loop over dict.items()."""
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    longest = ""
    singles = 0
    for word, n in counts.items():
        if n == 1 and not word.startswith("_"):
            singles += 1
        if len(word) > len(longest) or (len(word) == len(longest) and word < longest):
            longest = word
    kind = "rich" if singles > len(counts) // 2 else "plain"
    return longest, singles, kind
