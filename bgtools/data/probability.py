"""Exact tail probabilities for the dice statistics, in pure Python (no SciPy).

* :func:`chi_square_sf`: the survival function of the chi-square distribution for an
  integer number of degrees of freedom, from the closed forms of the regularised upper
  gamma function ``Q(k/2, x/2)`` (a finite sum for even ``k``; ``erfc`` plus a finite sum
  for odd ``k``), summed in log space so that tiny p-values do not underflow early.
* :func:`chi_square_test`: Pearson's goodness-of-fit statistic and its p-value.
* :func:`poisson_binomial_test`: a two-sided test of a count of successes among
  independent trials of known, unequal probabilities (the dances of a player, each roll
  from the bar with the probability its position gives), exact for up to
  :data:`EXACT_TRIALS` uncertain trials and by the normal approximation beyond.

SciPy would give the same numbers (the tests check known values) at the price of a large
dependency for three functions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "EXACT_TRIALS",
    "ChiSquare",
    "CountTest",
    "chi_square_sf",
    "chi_square_test",
    "normal_sf",
    "poisson_binomial_test",
]

EXACT_TRIALS = 1000
"""Uncertain trials (probability strictly between 0 and 1) up to which
:func:`poisson_binomial_test` computes the exact distribution (quadratic time); beyond, the
normal approximation (then at least ``EXACT_TRIALS * min p(1-p)`` of variance) is used."""


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's chi-square goodness of fit: the statistic, its degrees of freedom and the
    probability of a statistic at least as large under the expected distribution."""

    statistic: float
    dof: int
    p_value: float

    def to_json(self) -> dict[str, float | int]:
        """``{"statistic", "dof", "p_value"}``."""
        return {"statistic": self.statistic, "dof": self.dof, "p_value": self.p_value}


@dataclass(frozen=True, slots=True)
class CountTest:
    """A two-sided test of an observed count against its expectation.

    ``p_value`` is twice the smaller tail probability (at most 1); ``z`` the standardised
    difference ``(observed - expected) / sd`` (0 when the variance is 0); ``exact`` tells
    whether the tails were summed exactly or approximated.
    """

    observed: int
    expected: float
    variance: float
    z: float
    p_value: float
    exact: bool

    def to_json(self) -> dict[str, float | int | bool]:
        """``{"observed", "expected", "z", "p_value", "exact"}``."""
        return {"observed": self.observed, "expected": self.expected, "z": self.z,
                "p_value": self.p_value, "exact": self.exact}


def _log_sum_exp(logs: Sequence[float]) -> float:
    top = max(logs)
    if top == -math.inf:
        return -math.inf
    return top + math.log(math.fsum(math.exp(v - top) for v in logs))


def chi_square_sf(x: float, dof: int) -> float:
    """``P(X >= x)`` for ``X`` chi-square distributed with ``dof`` (a positive integer)
    degrees of freedom: the regularised upper gamma function ``Q(dof/2, x/2)``."""
    if dof < 1 or int(dof) != dof:
        raise ValueError("the degrees of freedom must be a positive integer")
    if math.isnan(x):
        raise ValueError("x is not a number")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    half = x / 2.0
    if half == 0.0:  # x so small that x / 2 underflows
        return 1.0
    log_half = math.log(half)
    if dof % 2 == 0:
        # Q(n, h) = exp(-h) * sum_{i<n} h^i / i!
        logs = [i * log_half - math.lgamma(i + 1) - half for i in range(dof // 2)]
        return min(1.0, math.exp(_log_sum_exp(logs)))
    # Q(n + 1/2, h) = erfc(sqrt h) + exp(-h) * sum_{i=1..n} h^(i-1/2) / Gamma(i+1/2)
    total = math.erfc(math.sqrt(half))
    if dof > 1:
        logs = [(i - 0.5) * log_half - math.lgamma(i + 0.5) - half
                for i in range(1, (dof - 1) // 2 + 1)]
        total += math.exp(_log_sum_exp(logs))
    return min(1.0, total)


def chi_square_test(observed: Sequence[int], expected: Sequence[float]) -> ChiSquare | None:
    """Pearson's test of ``observed`` counts against ``expected`` counts (same order; the
    expected counts sum to the observed total). Cells expected 0 must be observed 0 and do
    not count as degrees of freedom; None when fewer than two cells remain or nothing was
    observed."""
    if len(observed) != len(expected):
        raise ValueError("observed and expected counts differ in length")
    statistic = 0.0
    cells = 0
    for o, e in zip(observed, expected):
        if e <= 0:
            if o:
                return ChiSquare(math.inf, max(cells, 1), 0.0)
            continue
        cells += 1
        statistic += (o - e) ** 2 / e
    if cells < 2 or sum(observed) == 0:
        return None
    dof = cells - 1
    return ChiSquare(statistic, dof, chi_square_sf(statistic, dof))


def normal_sf(z: float) -> float:
    """``P(Z >= z)`` for a standard normal ``Z``."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _binomial_pmf(n: int, p: float) -> list[float]:
    log_p, log_q = math.log(p), math.log1p(-p)
    base = math.lgamma(n + 1)
    return [math.exp(base - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p
                     + (n - k) * log_q) for k in range(n + 1)]


def _convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0.0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def poisson_binomial_test(observed: int, trials: Mapping[float, int]) -> CountTest:
    """Test ``observed`` successes among independent trials: ``trials[p]`` of them succeed
    with probability ``p`` each.

    Trials with ``p`` 0 or 1 are certain and only shift the count. The two-sided p-value is
    twice the smaller of ``P(X <= observed)`` and ``P(X >= observed)`` (at most 1), from the
    exact distribution (a convolution of binomials) when at most :data:`EXACT_TRIALS` trials
    are uncertain, else from the normal approximation with a continuity correction.
    """
    certain = 0
    uncertain: list[tuple[float, int]] = []
    expected = 0.0
    variance = 0.0
    for p, n in sorted(trials.items()):
        if n <= 0:
            continue
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"probability {p} is not in [0, 1]")
        expected += n * p
        if p >= 1.0:
            certain += n
        elif p > 0.0:
            uncertain.append((p, n))
            variance += n * p * (1.0 - p)
    z = (observed - expected) / math.sqrt(variance) if variance > 0 else 0.0
    count = sum(n for _, n in uncertain)
    shifted = observed - certain
    if shifted < 0 or shifted > count:
        return CountTest(observed, expected, variance, z, 0.0, True)
    if count == 0:
        return CountTest(observed, expected, variance, z, 1.0, True)
    if count <= EXACT_TRIALS:
        pmf = [1.0]
        for p, n in uncertain:
            pmf = _convolve(pmf, _binomial_pmf(n, p))
        lower = math.fsum(pmf[: shifted + 1])
        upper = math.fsum(pmf[shifted:])
        return CountTest(observed, expected, variance, z,
                         min(1.0, 2.0 * min(lower, upper)), True)
    sd = math.sqrt(variance)
    lower = normal_sf((expected - observed - 0.5) / sd)
    upper = normal_sf((observed - 0.5 - expected) / sd)
    return CountTest(observed, expected, variance, z, min(1.0, 2.0 * min(lower, upper)), False)
