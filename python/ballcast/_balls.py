"""collide_balls: a set of moving balls against each other."""
from __future__ import annotations

import math
from typing import Any, Dict, Optional

import numpy as np

from . import _lib
from ._ballcast import ffi, lib
from ._results import BallsResult

ArrayLike = Any


def collide_balls(p0: ArrayLike, p1: Optional[ArrayLike], r: ArrayLike, *, mass: Optional[ArrayLike] = None,
                  fixed: Optional[ArrayLike] = None, restitution: float = 1.0, brute: bool = False,
                  errors: str = "raise") -> BallsResult:
    """When each of a set of moving balls first meets another, as ``ballcast
    balls`` answers.

    Ball i has radius r[i] and its centre at p0[i] + alpha (p1[i] - p0[i])
    for alpha in [0, 1]; every ball runs on the same alpha. Its answer is
    the earliest alpha at which it touches any other ball (each pair judged
    on the straight paths), the partner, where and along which normal they
    touch, and its velocity after an elastic collision with that partner.

    Arguments:
      p0, p1       (n, 3) start and end of each centre (p1 may be None for
                   a set of fixed balls, or NaN on a fixed ball's row: it
                   is not read)
      r            the radius: one number or (n,)
      mass         (n,) masses > 0 (inf allowed: a ball nothing pushes);
                   default 1 each
      fixed        (n,) booleans: a fixed obstacle stays at p0, has infinite
                   mass, and reflects a ball that runs into it
      restitution  for velocity_after: 1 elastic (default), in [0, 1]
      brute        test every pair instead of the grid (the same answers)
      errors       "raise" (default): a ball that cannot be answered (not
                   finite, a negative radius or mass) raises ValueError;
                   "mark": its state is 3 (invalid), it takes no part, and
                   result.errors names it

    Returns a BallsResult: arrays hit, alpha, other, initial_overlap, point,
    normal, velocity_before, velocity_after, tie_count.
    """
    a0 = _lib.points(p0, "p0")
    a1 = a0 if p1 is None else _lib.points(p1, "p1")
    ar = _lib.real_array(r, "r")
    extra = [ar]
    am = None
    if mass is not None:
        am = _lib.real_array(mass, "mass")
        extra.append(am)
    af = None
    if fixed is not None:
        af = np.asarray(fixed)
        if af.dtype.kind != "b":
            raise TypeError("fixed must hold booleans, not %s" % af.dtype)
        extra.append(af)
    for name, array in (("r", ar), ("mass", am), ("fixed", af)):
        if array is not None and array.ndim > 1:
            raise ValueError("%s must be one value or have shape (n,), not %s" % (name, array.shape))
    n = _lib.batch_count(a0, a1, *extra)
    if a0.shape[0] == 1 and n != 1 or a1.shape[0] == 1 and n != 1:
        a0 = np.broadcast_to(a0, (n, 3))
        a1 = np.broadcast_to(a1, (n, 3))
    _lib.choice(errors, "errors", ("raise", "mark"))
    try:
        restitution = float(restitution)
    except (TypeError, ValueError):
        raise TypeError("restitution must be a number, not %r" % (restitution,)) from None
    if not 0.0 <= restitution <= 1.0:
        raise ValueError("restitution must be in [0, 1], not %r" % restitution)
    balls = np.zeros(n, dtype=_lib.BALL_INPUT)
    balls["p0"] = a0
    balls["p1"] = a1
    balls["radius"] = ar
    balls["mass"] = 1.0 if am is None else am
    # the library reads a mass of 0 as 1; the command, and so this, refuses it
    balls["mass"][balls["mass"] == 0] = np.nan
    if af is not None:
        balls["fixed"] = af
    if n > _lib.MAX_BATCH:
        raise ValueError("too many balls: %d (at most %d)" % (n, _lib.MAX_BATCH))
    options = ffi.new("bcBallsOptions*", lib.bcDefaultBallsOptions())
    options.restitution = restitution
    options.bruteForce = _lib.flag(brute, "brute")
    raw = np.empty(n, dtype=_lib.BALL_RESULT)
    error = ffi.new("bcError*")
    if not lib.bcCollideBallSet(ffi.from_buffer("bcBallInput[]", balls), n, options,
                                ffi.from_buffer("bcBallResult[]", raw), error):
        _lib.raise_error(error)
    problems: Dict[int, str] = {}
    for i in np.flatnonzero(raw["state"] == lib.bc_ballInvalid):
        i = int(i)
        problems[i] = _ball_problem(balls[i])
        if errors == "raise":
            raise ValueError("ball %d: %s (%d of %d balls cannot be answered; errors='mark' answers the others)"
                             % (i, problems[i], int((raw["state"] == lib.bc_ballInvalid).sum()), n))
    return BallsResult(raw, errors=problems)


def _ball_problem(ball) -> str:
    if not np.all(np.isfinite(ball["p0"])):
        return "p0 is not finite"
    if not ball["fixed"] and not np.all(np.isfinite(ball["p1"])):
        return "p1 is not finite"
    r = float(ball["radius"])
    if not math.isfinite(r):
        return "r is not finite"
    if r < 0:
        return "r is negative"
    m = float(ball["mass"])
    if not ball["fixed"] and (math.isnan(m) or m <= 0):
        return "mass must be a number > 0"
    return "p1 - p0 is not finite"
