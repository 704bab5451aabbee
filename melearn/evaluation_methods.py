r"""Evaluation methods: hold-out, k-fold cross-validation and the bootstrap, section 2.2 and formula (2.1).

Derived and demonstrated in the book page ``chapters/evaluation_methods.ipynb``.

Conventions
-----------
Each function returns *indices* into the data set, as sorted ``int64`` arrays (the bootstrap's in-bag draws
excepted, which keep the order they were drawn in). ``rng`` is an integer seed or a
:class:`numpy.random.Generator`; the same seed gives the same split.

Stratified sampling (分层采样) keeps each class's proportion. Both stratified splits first shuffle the samples
*within* each class and lay the classes out one after another (a single ``lexsort`` on (class, random key); no
loop over samples):

* :func:`holdout_split` puts the first :math:`n_c` samples of class :math:`c` into the test set, where the
  integers :math:`n_c` sum to the test-set size :math:`n` and each is :math:`\lfloor q_c \rfloor` or
  :math:`\lceil q_c \rceil` for the exact share :math:`q_c = n\,m_c/m` (the largest-remainder method, ties
  broken at random). So every class's count in the test set is within one sample of its share.
* :func:`kfold_split` deals the laid-out samples to the folds in turn (sample number ``r`` goes to fold
  ``r mod k``, then the fold numbers are permuted at random). Each class occupies a contiguous run, so its
  samples are spread over the k folds as evenly as possible (counts differ by at most one between folds), and
  so are all the samples (fold sizes differ by at most one).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from ._validation import _show_int, as_bool, as_labels, as_real, as_rng, check_positive_int

__all__ = ["bootstrap_sample", "expected_out_of_bag_fraction", "holdout_split", "kfold_split"]

#: The largest number of samples the stratified splits take: the largest-remainder shares n * m_c are exact int64
#: products below 2**63 (and an index array of 2**31 samples is 16 GiB already).
MAX_SAMPLES = 2**31
#: The most indices :func:`kfold_split` returns in all, k * m (8 bytes each: 800 MB); leave-one-out up to m = 10 000.
KFOLD_MAX_INDICES = 10**8
#: The largest m of :func:`bootstrap_sample`: the draws and their counts take 16 bytes per sample (1.6 GB).
BOOTSTRAP_MAX_M = 10**8
#: The largest m for which :func:`expected_out_of_bag_fraction` builds the exact fraction, whose numerator and
#: denominator have about m log2(m) bits (1.7 million bits and about 0.1 s at the limit).
EXACT_OOB_MAX_M = 10**5


def _classes_shuffled(y, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate labels; return the class code of every sample, the class sizes, and a layout order.

    ``order`` lists the sample indices grouped by class (classes in sorted label order), in random order within
    each class.
    """
    labels = as_labels(y, "y")
    if labels.size > MAX_SAMPLES:
        raise ValueError(f"y holds {labels.size} samples, more than MAX_SAMPLES = 2**31 that the splits support")
    _, codes, sizes = np.unique(labels, return_inverse=True, return_counts=True)
    codes = codes.reshape(-1)
    order = np.lexsort((rng.random(codes.size), codes))
    return codes, sizes, order


def _test_size_count(test_size, m: int) -> int:
    """The number of test samples: ``test_size`` as a fraction of m (rounded half up), or as a count."""
    if isinstance(test_size, np.ndarray) and test_size.ndim == 0:
        test_size = test_size[()]
    if isinstance(test_size, (bool, np.bool_, np.timedelta64, np.datetime64)) or not isinstance(
        test_size, numbers.Real
    ):
        raise ValueError(f"test_size must be a fraction in (0, 1) or an integer count, got {test_size!r}")
    if isinstance(test_size, numbers.Integral):
        n_test = check_positive_int(test_size, "test_size", minimum=-(2**63))
        if not 1 <= n_test <= m - 1:
            shown = n_test if abs(n_test) < 10**18 else ("a huge integer" if n_test > 0 else "a huge negative integer")
            raise ValueError(
                f"test_size as a count must lie between 1 and m - 1 = {m - 1} (m = {m} samples), got {shown}"
            )
        return n_test
    fraction = as_real(test_size, "test_size")
    if not (np.isfinite(fraction) and 0.0 < fraction < 1.0):
        raise ValueError(f"test_size as a fraction must lie strictly between 0 and 1, got {test_size!r}")
    n_test = int(np.floor(fraction * m + 0.5))
    if not 1 <= n_test <= m - 1:
        raise ValueError(
            f"test_size={fraction!r} of m = {m} samples gives {n_test} test samples; "
            "both the training and the test set need at least one"
        )
    return n_test


def _largest_remainder(sizes: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    r"""Integers :math:`n_c` summing to ``n``, each the floor or the ceiling of :math:`q_c = n\,m_c/m`.

    Computed in exact integer arithmetic: :math:`\lfloor q_c \rfloor` and the remainders :math:`n\,m_c \bmod m`;
    the ``n - sum(floor)`` classes with the largest remainders get one more (ties broken at random).
    """
    m = int(sizes.sum())
    scaled = n * sizes.astype(np.int64)
    floor, remainder = np.divmod(scaled, m)
    missing = n - int(floor.sum())
    # sort by remainder, largest first, random tie-break
    priority = np.lexsort((rng.random(sizes.size), -remainder))
    floor[priority[:missing]] += 1
    return floor


def holdout_split(y, test_size, rng) -> tuple[np.ndarray, np.ndarray]:
    r"""Split a data set once into a training and a test set by stratified sampling: the hold-out method (留出法).

    Section 2.2.1; demonstrated in ``chapters/evaluation_methods.ipynb``.

    Parameters
    ----------
    y : array-like of shape (m,)
        Class labels (integers, booleans, finite floats or strings); at least two samples.
    test_size : float or int
        A float in (0, 1) is the fraction of samples in the test set: :math:`n = \lfloor \mathtt{test\_size}
        \cdot m + 1/2 \rfloor`. An integer is the test-set size :math:`n` itself. Either way
        :math:`1 \le n \le m - 1`.
    rng : int or numpy.random.Generator
        Seed or generator for the random choice.

    Returns
    -------
    train_idx, test_idx : ndarray of int64
        Sorted indices of the training set (m - n of them) and of the test set (n); together they are
        0, ..., m - 1, each exactly once.

    Raises
    ------
    ValueError
        If ``y`` is empty, not 1-dimensional, holds NaN or an unsupported dtype; if ``test_size`` is not in
        (0, 1) (a float) or not in [1, m - 1] (an integer), or rounds to an empty training or test set; if
        ``rng`` is neither a non-negative integer nor a Generator.

    Notes
    -----
    Stratification guarantee: a class with :math:`m_c` samples has :math:`\lfloor q_c \rfloor` or
    :math:`\lceil q_c \rceil` samples in the test set, :math:`q_c = n\,m_c/m`, so its share of the test set is
    within one sample of its share of the data (and the same holds for the training set). Which classes get the
    ceiling is decided by the largest remainders, ties at random, so a class of a single sample may land in
    either set. Time O(m log m) (one sort).

    Limits: m up to ``MAX_SAMPLES`` = 2**31 samples (the shares are exact int64 products); memory a few arrays
    of m integers. Labels may be numbers, booleans or strings, including a pandas ``Series`` of strings and a
    ``Categorical``; a masked array with masked entries is refused.

    The book advises putting about 2/3 to 4/5 of the samples into the training set and repeating random splits,
    reporting the average.

    Examples
    --------
    >>> train, test = holdout_split([0, 0, 0, 0, 1, 1, 1, 1, 1, 1], test_size=0.5, rng=0)
    >>> len(train), len(test)
    (5, 5)
    >>> sorted(set(train.tolist()) | set(test.tolist())) == list(range(10))
    True
    """
    generator = as_rng(rng)
    codes, sizes, order = _classes_shuffled(y, generator)
    m = codes.size
    if m < 2:
        raise ValueError(f"y must hold at least two samples to split into a training and a test set, got {m}")
    n_test = _test_size_count(test_size, m)
    per_class = _largest_remainder(sizes, n_test, generator)
    # position of each laid-out sample within its class's run
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    laid_codes = codes[order]
    rank_in_class = np.arange(m) - starts[laid_codes]
    in_test = np.zeros(m, dtype=bool)
    in_test[order] = rank_in_class < per_class[laid_codes]
    return np.flatnonzero(~in_test), np.flatnonzero(in_test)


def kfold_split(y, k, rng) -> list[tuple[np.ndarray, np.ndarray]]:
    r"""Stratified k-fold cross-validation (k折交叉验证): k (training, test) splits whose test parts partition D.

    Section 2.2.2; demonstrated in ``chapters/evaluation_methods.ipynb``. With ``k = m`` it is leave-one-out
    (留一法).

    Parameters
    ----------
    y : array-like of shape (m,)
        Class labels (integers, booleans, finite floats or strings).
    k : int
        The number of folds, :math:`2 \le k \le m`.
    rng : int or numpy.random.Generator
        Seed or generator for the random assignment.

    Returns
    -------
    list of k tuples (train_idx, test_idx) of int64 ndarrays
        Sorted indices. The k test parts are disjoint and together are 0, ..., m - 1; each training part is the
        complement of its test part.

    Raises
    ------
    ValueError
        If ``y`` is empty, not 1-dimensional, holds NaN or an unsupported dtype; if ``k`` is not an integer or
        not in [2, m]; if ``k * m`` exceeds ``KFOLD_MAX_INDICES``; if ``rng`` is neither a non-negative integer
        nor a Generator.

    Notes
    -----
    Guarantees: fold sizes are :math:`\lfloor m/k \rfloor` or :math:`\lceil m/k \rceil`, and a class of
    :math:`m_c` samples has :math:`\lfloor m_c/k \rfloor` or :math:`\lceil m_c/k \rceil` samples in every test
    part. A class with fewer than k samples therefore appears in only :math:`m_c` of the test parts (one sample
    each) and is absent from the others: no split can do better, and no warning is given. Time O(m log m).

    Limits: the k pairs hold k * m indices in all, so k * m may be at most ``KFOLD_MAX_INDICES`` = 10**8 (800 MB
    of int64; leave-one-out up to m = 10 000); beyond, ``ValueError`` (iterate over the test parts of a smaller
    k, or build the training parts one at a time). Time O(m log m + k m).

    Examples
    --------
    >>> folds = kfold_split([0, 0, 0, 1, 1, 1], k=3, rng=0)
    >>> [len(test) for _, test in folds]
    [2, 2, 2]
    >>> sorted(i for _, test in folds for i in test.tolist())
    [0, 1, 2, 3, 4, 5]
    """
    generator = as_rng(rng)
    codes, _, order = _classes_shuffled(y, generator)
    m = codes.size
    k = check_positive_int(k, "k", minimum=2)
    if k > m:
        raise ValueError(f"k must be at most the number of samples m = {m}, got {_show_int(k)}")
    if k * m > KFOLD_MAX_INDICES:
        raise ValueError(
            f"k = {k} folds of m = {m} samples return k * m = {k * m:,} indices, more than KFOLD_MAX_INDICES = "
            f"{KFOLD_MAX_INDICES:,} (800 MB); use fewer folds"
        )
    fold_of = np.empty(m, dtype=np.int64)
    fold_of[order] = generator.permutation(k)[np.arange(m) % k]
    # one stable sort groups the samples by fold, each group in increasing index order
    by_fold = np.argsort(fold_of, kind="stable")
    bounds = np.searchsorted(fold_of[by_fold], np.arange(k + 1))
    everything = np.arange(m)
    folds = []
    for j in range(k):
        test = by_fold[bounds[j] : bounds[j + 1]]
        train = everything[fold_of != j]
        folds.append((train, test))
    return folds


def bootstrap_sample(m, rng) -> tuple[np.ndarray, np.ndarray]:
    r"""Bootstrap sampling (自助采样): m draws with replacement from m samples, and the samples never drawn.

    Section 2.2.3 and formula (2.1); derived in ``chapters/evaluation_methods.ipynb``. The draws form the
    training set :math:`D'`; the samples never drawn, about :math:`1/e \approx 36.8\%` of them, form the test
    set of the out-of-bag estimate (包外估计).

    Parameters
    ----------
    m : int
        The number of samples in the data set, at least 1.
    rng : int or numpy.random.Generator
        Seed or generator for the draws.

    Returns
    -------
    in_bag_idx : ndarray of int64, shape (m,)
        The m draws, each uniform on 0, ..., m - 1, in the order drawn (repeats included).
    out_of_bag_idx : ndarray of int64
        The sorted indices that were never drawn (possibly none).

    Raises
    ------
    ValueError
        If ``m`` is not an integer, is less than 1 or more than ``BOOTSTRAP_MAX_M`` = 10**8 (the draws and their
        counts take 16 bytes per sample); if ``rng`` is neither a non-negative integer nor a Generator.

    See Also
    --------
    expected_out_of_bag_fraction : the exact expected share of out-of-bag samples, :math:`(1 - 1/m)^m`.

    Notes
    -----
    Limits: m up to ``BOOTSTRAP_MAX_M`` = 10**8 (the draws and their counts take 16 bytes per sample, 1.6 GB at
    the limit); beyond, ``ValueError``. Time O(m).

    Examples
    --------
    >>> in_bag, out_of_bag = bootstrap_sample(8, rng=0)
    >>> len(in_bag)
    8
    >>> set(in_bag.tolist()).isdisjoint(out_of_bag.tolist())
    True
    """
    m = check_positive_int(m, "m", minimum=1, maximum=BOOTSTRAP_MAX_M, why="BOOTSTRAP_MAX_M: 16 bytes per sample")
    generator = as_rng(rng)
    draws = generator.integers(0, m, size=m, dtype=np.int64)
    never_drawn = np.flatnonzero(np.bincount(draws, minlength=m) == 0)
    return draws, never_drawn.astype(np.int64)


def expected_out_of_bag_fraction(m, *, exact: bool = True) -> Fraction | float:
    r"""The exact expected fraction of samples never drawn in m bootstrap draws: :math:`(1 - 1/m)^m`.

    Each sample is missed by one draw with probability :math:`1 - 1/m`, by all m independent draws with
    probability :math:`(1 - 1/m)^m`; by linearity of expectation the expected number of out-of-bag samples is
    :math:`m (1 - 1/m)^m`, a fraction :math:`(1 - 1/m)^m` of the data, which tends to :math:`1/e` (formula
    (2.1)). Derived in ``chapters/evaluation_methods.ipynb``.

    Parameters
    ----------
    m : int
        The number of samples, at least 1.
    exact : bool, default True
        ``True`` returns the exact fraction (for m up to ``EXACT_OOB_MAX_M``); ``False`` a float for any m.

    Returns
    -------
    fractions.Fraction or float
        :math:`((m - 1)/m)^m`: exactly, or (``exact=False``) as the float
        :math:`\exp\big(m \log(1 - 1/m)\big)`, correct to a few units of rounding.

    Raises
    ------
    ValueError
        If ``m`` is not an integer or is less than 1; if ``exact`` is not a bool; or if ``exact=True`` and
        ``m > EXACT_OOB_MAX_M`` = 10**5.

    Notes
    -----
    Limits: the exact fraction has about :math:`m \log_2 m` bits in its numerator and its denominator, so it
    is built only up to ``EXACT_OOB_MAX_M`` = 10**5 (1.7 million bits, about 0.1 s); beyond, pass
    ``exact=False``. (Python prints an integer of more than 4300 digits only after
    ``sys.set_int_max_str_digits``; the fraction for m above about 1300 has such a numerator.) The float route
    takes any m, however large: :math:`m \log(1 - 1/m) = -\sum_{j \ge 1} 1/(j\,m^{j-1})` is summed as a
    series when :math:`1/m` is tiny, so m = 10**400 gives :math:`1/e`, not 1.

    Examples
    --------
    >>> expected_out_of_bag_fraction(3)
    Fraction(8, 27)
    >>> round(expected_out_of_bag_fraction(10**9, exact=False), 12)
    0.367879440988
    """
    m = check_positive_int(m, "m", minimum=1)
    exact = as_bool(exact, "exact")
    if exact:
        if m > EXACT_OOB_MAX_M:
            raise ValueError(
                f"m must be at most EXACT_OOB_MAX_M = {EXACT_OOB_MAX_M:,} for the exact fraction (about m log2(m) "
                "bits); pass exact=False for a float"
            )
        return Fraction(m - 1, m) ** m
    if m == 1:
        return 0.0
    x = 1 / m  # a correctly rounded float, 0.0 when m exceeds the float range
    if x > 2.0**-20:
        exponent = m * math.log1p(-x)
    else:  # m log(1 - x) = -(1 + x/2 + x^2/3 + ...); the next term, x^3/4, is below 2**-62
        exponent = -(1.0 + x / 2.0 + x * x / 3.0)
    return math.exp(exponent)
