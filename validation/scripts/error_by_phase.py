#!/usr/bin/env python3
"""Where in a toss each case's position error lies, for trajectories written by `carom-validate
--trajectories DIR`: the held-out tosses' trajectory-averaged position error over every frame
(carom-validate's metric) and counted only after the free flight that each simulation's start is
fitted to (validation/src/initial_state.h), whether a case's lead comes from the fitted frames;
then the mean error of the frames before the data's first impact and of those 0, 1-5, 6-20,
21-50, 51-100 and over 100 frames after it (the first impact as corner_spin.py finds it; tosses
without one are in no phase).

The flight is frames 0..n-1 while the sharp box's lowest corner is more than 3 mm above the board
and the cube has turned less than 2.5 rad from frame 0, as the program fits it. Errors are
|x_sim - x_meas| as a fraction of the side 0.1048 m, averaged over a toss's frames, then over the
held-out tosses (a toss is held out when the smallest number of its twin group is odd).

usage: error_by_phase.py DATA_DIR TRAJECTORY_DIR/CASE ...   (two lines per case)
"""
import math
import os
import sys

from corner_spin import HALF, dot, first_impact, read, rot, twin_groups

SIDE = 0.1048
CLEARANCE = 0.003
LARGEST_TURN = 2.5
PHASES = [(0, 0), (1, 5), (6, 20), (21, 50), (51, 100), (101, None)]


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


def errors(T, S):
    """Frame k's position error (fraction of the side), k = 0 .. len(T) - 1."""
    out = []
    for k in range(len(T)):
        d = [s - t for s, t in zip(S[k][1:4], T[k][1:4])]
        out.append(math.sqrt(dot(d, d)) / SIDE)
    return out


def mean(values):
    return sum(values) / len(values)


def main():
    data = sys.argv[1]
    tosses, group = twin_groups(data)
    held_out = sorted(n for n in tosses if group[n] % 2 == 1)
    for folder in sys.argv[2:]:
        every, after, before = [], [], []
        phases = {phase: [] for phase in PHASES}
        for n in held_out:
            T = tosses[n]
            e = errors(T, read(os.path.join(folder, "toss_%03d.csv" % n)))
            every.append(mean(e[1:]))
            after.append(mean(e[max(1, flight_frames(T)):]))
            j = first_impact(T)
            if j is None:  # no clear first impact (a gentle landing): in no phase
                continue
            before += e[1:j]
            for phase in PHASES:
                last = len(T) - 1 if phase[1] is None else min(len(T) - 1, j + phase[1])
                phases[phase] += e[j + phase[0]:last + 1]
        name = os.path.basename(folder.rstrip("/"))
        print("%-24s %d held-out tosses: mean position error %.2f %% over every frame, %.2f %% "
              "after the fitted flight" % (name, len(every), 100 * mean(every), 100 * mean(after)))
        print("%-24s frames before the first impact %.2f %%; after it " % (name, 100 * mean(before)) +
              ", ".join("%s: %.2f %%" % ("%d-%s" % (a, "" if b is None else b) if a != b else a,
                                           100 * mean(phases[(a, b)]))
                        for a, b in PHASES if phases[(a, b)]))


if __name__ == "__main__":
    main()
