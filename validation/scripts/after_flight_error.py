#!/usr/bin/env python3
"""The held-out tosses' trajectory-averaged position error counted only after the free flight that
each simulation's start is fitted to (validation/src/initial_state.h), beside the same error over
every frame (carom-validate's metric), for trajectories written by `carom-validate --trajectories
DIR`: whether a case's lead comes from the fitted frames.

The flight is frames 0..n-1 while the sharp box's lowest corner is more than 3 mm above the board
and the cube has turned less than 2.5 rad from frame 0, as the program fits it. Errors are
|x_sim - x_meas| as a fraction of the side 0.1048 m, averaged over a toss's frames, then over the
held-out tosses (a toss is held out when the smallest number of its twin group is odd).

usage: after_flight_error.py DATA_DIR TRAJECTORY_DIR/CASE ...   (one line per case)
"""
import math
import os
import sys

from corner_spin import HALF, dot, read, rot, twin_groups

SIDE = 0.1048
CLEARANCE = 0.003
LARGEST_TURN = 2.5


def turn_angle(a, b):
    """The angle (rad) of the rotation from pose a to pose b."""
    A, B = rot(a), rot(b)
    trace = sum(A[k][i] * B[k][i] for i in range(3) for k in range(3))  # tr(Aᵀ B)
    return math.acos(max(-1.0, min(1.0, (trace - 1) / 2)))


def flight_frames(T):
    n = 0
    for row in T:
        R = rot(row[4:8])
        lowest = row[3] - HALF * sum(abs(c) for c in R[2])
        if lowest <= CLEARANCE or turn_angle(T[0][4:8], row[4:8]) >= LARGEST_TURN:
            break
        n += 1
    return n if n >= 3 else 2


def mean_error(T, S, first):
    errors = []
    for k in range(first, len(T)):
        d = [s - t for s, t in zip(S[k][1:4], T[k][1:4])]
        errors.append(math.sqrt(dot(d, d)) / SIDE)
    return sum(errors) / len(errors)


def main():
    data = sys.argv[1]
    tosses, group = twin_groups(data)
    held_out = sorted(n for n in tosses if group[n] % 2 == 1)
    for folder in sys.argv[2:]:
        every, after = [], []
        for n in held_out:
            T = tosses[n]
            S = read(os.path.join(folder, "toss_%03d.csv" % n))
            every.append(mean_error(T, S, 1))
            after.append(mean_error(T, S, max(1, flight_frames(T))))
        print("%-28s %d held-out tosses: mean position error %.2f %% over every frame, %.2f %% "
              "after the fitted flight" % (os.path.basename(folder.rstrip("/")), len(every),
                                           100 * sum(every) / len(every),
                                           100 * sum(after) / len(after)))


if __name__ == "__main__":
    main()
