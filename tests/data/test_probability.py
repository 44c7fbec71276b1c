"""The pure-Python tail probabilities of bgtools.data.probability against known values and
identities of the chi-square, binomial and normal distributions."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.data import probability
from bgtools.data.probability import (
    chi_square_sf,
    chi_square_test,
    normal_sf,
    poisson_binomial_test,
)

# Upper quantiles of the chi-square distribution (standard tables; R's qchisq):
# (x, dof, P(X >= x)).
KNOWN = [
    (3.841458820694124, 1, 0.05),
    (6.634896601021214, 1, 0.01),
    (10.827566170662733, 1, 0.001),
    (5.991464547107979, 2, 0.05),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (31.410432844230918, 20, 0.05),
    (37.56623478662507, 20, 0.01),
    (49.80184956820187, 35, 0.05),
    (0.45493642311957283, 1, 0.5),
]


@pytest.mark.parametrize("x,dof,p", KNOWN)
def test_chi_square_sf_matches_tables(x: float, dof: int, p: float) -> None:
    assert chi_square_sf(x, dof) == pytest.approx(p, rel=1e-9)


def test_chi_square_sf_closed_forms_and_edges() -> None:
    assert chi_square_sf(0.0, 7) == 1.0
    assert chi_square_sf(math.inf, 3) == 0.0
    for x in (0.1, 1.0, 7.5, 40.0):
        assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12)
    # Far in the tail the value stays positive (log-space sums) until it truly underflows.
    assert 0.0 < chi_square_sf(600.0, 20) < 1e-100
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi_square_sf(1.0, 0)


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 300.0), st.integers(1, 80))
def test_chi_square_sf_recurrence(x: float, dof: int) -> None:
    """Q(a + 1, h) = Q(a, h) + h**a e**-h / Gamma(a + 1), with a = dof/2 and h = x/2: links
    the even (finite sum) and odd (erfc) closed forms step by step."""
    a, h = dof / 2, x / 2
    step = math.exp(a * math.log(h) - h - math.lgamma(a + 1))
    assert chi_square_sf(x, dof + 2) == pytest.approx(chi_square_sf(x, dof) + step,
                                                      rel=1e-9, abs=1e-300)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 200.0), st.floats(0.0, 50.0), st.integers(1, 60))
def test_chi_square_sf_is_a_survival_function(x: float, dx: float, dof: int) -> None:
    low, high = chi_square_sf(x, dof), chi_square_sf(x + dx, dof)
    # Monotone up to rounding (near 1 the sum of terms may round either way by an ulp).
    assert 0.0 <= high <= low + 1e-14 and low <= 1.0
    assert chi_square_sf(x, dof + 1) >= low - 1e-14  # more freedom, fatter tail


def test_chi_square_test() -> None:
    assert chi_square_test([10, 10, 10], [10.0, 10.0, 10.0]) == probability.ChiSquare(
        0.0, 2, 1.0)
    test = chi_square_test([30, 10], [20.0, 20.0])
    assert test is not None and test.statistic == pytest.approx(10.0) and test.dof == 1
    assert test.p_value == pytest.approx(0.001565402258, rel=1e-6)
    assert chi_square_test([0, 0], [0.0, 0.0]) is None
    assert chi_square_test([5], [5.0]) is None
    impossible = chi_square_test([1, 4, 5], [0.0, 5.0, 5.0])
    assert impossible is not None and impossible.p_value == 0.0
    with pytest.raises(ValueError, match="differ in length"):
        chi_square_test([1, 2], [1.0])


def test_normal_sf() -> None:
    assert normal_sf(0.0) == 0.5
    assert normal_sf(1.959963984540054) == pytest.approx(0.025, rel=1e-12)
    assert normal_sf(-1.959963984540054) == pytest.approx(0.975, rel=1e-12)


def _binomial_two_sided(k: int, n: int, p: float) -> float:
    pmf = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    return min(1.0, 2 * min(sum(pmf[: k + 1]), sum(pmf[k:])))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 80), st.floats(0.01, 0.99), st.data())
def test_poisson_binomial_with_one_probability_is_the_binomial(n: int, p: float,
                                                               data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    test = poisson_binomial_test(k, {p: n})
    assert test.exact
    assert test.expected == pytest.approx(n * p)
    assert test.p_value == pytest.approx(_binomial_two_sided(k, n, p), rel=1e-9, abs=1e-300)


def test_poisson_binomial_mixes_and_shifts() -> None:
    # Two groups: exact distribution of Bin(3, 1/2) + Bin(2, 1/4), by hand.
    test = poisson_binomial_test(0, {0.5: 3, 0.25: 2})
    assert test.p_value == pytest.approx(2 * (0.125 * 0.5625))
    # Certain trials (p 0 and 1) shift the count and add no variance.
    shifted = poisson_binomial_test(4, {0.5: 3, 0.25: 2, 1.0: 4, 0.0: 9})
    assert shifted.p_value == pytest.approx(test.p_value) and shifted.expected == 6.0
    assert poisson_binomial_test(3, {1.0: 4}).p_value == 0.0  # fewer than certain
    assert poisson_binomial_test(4, {1.0: 4}).p_value == 1.0
    assert poisson_binomial_test(12, {0.5: 10}).p_value == 0.0  # more than possible


def test_poisson_binomial_normal_approximation_is_close(monkeypatch: pytest.MonkeyPatch) -> None:
    trials = {1 / 36: 900, 0.25: 600, 4 / 9: 300}
    approx = poisson_binomial_test(320, trials)
    assert not approx.exact
    monkeypatch.setattr(probability, "EXACT_TRIALS", 10_000)
    exact = poisson_binomial_test(320, trials)
    assert exact.exact
    assert approx.p_value == pytest.approx(exact.p_value, rel=0.05)
    assert approx.z == exact.z
