"""The geometry primitives against exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_reference import _dist2_point_segment, _orient, _proper_cross
from triangles import kernels as K

pts = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def F(p):
    return (Fraction(p[0]), Fraction(p[1]))


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, pts)
def test_segments_cross_matches_exact(a, b, c, d):
    if a == b or c == d:
        return
    got = K.segments_cross(*a, *b, *c, *d)
    want = _proper_cross(F(a), F(b), F(c), F(d))
    if got != want:
        # the kernel ignores collinear overlaps: on a board they always pass through a star
        assert _orient(F(a), F(b), F(c)) == 0 and _orient(F(a), F(b), F(d)) == 0
        assert want and not got


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, st.sampled_from([0, 0.5, 1, 2, 3]))
def test_near_segment_matches_exact(p, a, b, tol):
    if a == b:
        return
    assert K.near_segment(*p, *a, *b, float(tol)) == (_dist2_point_segment(F(p), F(a), F(b)) <= Fraction(tol) ** 2)


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, pts)
def test_strictly_inside_matches_exact(p, a, b, c):
    o = [_orient(F(a), F(b), F(p)), _orient(F(b), F(c), F(p)), _orient(F(c), F(a), F(p))]
    want = all(v > 0 for v in o) or all(v < 0 for v in o)
    assert K.strictly_inside(*p, *a, *b, *c) == want
