#!/usr/bin/env python3
"""Where the cube's centre of mass lies in its body frame, from the free flights of the data
(docs/validation.md, "What the data show"; validation/src/cube_model.h, kCentreOfMass).

In free flight the centre of mass moves on a parabola of gravity whatever the cube's spin, while
the tracked centre (the cube's geometric centre) turns about it: x_k = x0 + v t_k - g t_k^2/2 z
- R_k c, with R_k the measured rotation and c the centre of mass's offset from the geometric
centre in the body frame. Over the frames that validation/src/initial_state.cpp fits (frame 0 on,
while the sharp box's lowest corner is more than 3 mm above the board and the cube has turned less
than 2.5 rad), each toss has its own x0 and v and all share c: linear least squares, the tosses'
x0 and v eliminated toss by toss. Taken over the training tosses (a twin counted once; the split of
validation/src/split.cpp), with a 90 % interval from 1,000 resamples of the tosses.

usage: centre_of_mass.py DATA_DIR   (prints c in mm and its interval)
"""
import csv
import glob
import math
import os
import random
import sys

SCALE = 9.61 / 9.81
GRAVITY = SCALE * 9.81  # m/s^2 in the data's units (validation/src/cube_model.h)
HALF = SCALE * 0.0524  # the data's half side (m)
CLEARANCE = 0.003  # m: initial_state.h, kFlightClearance
LARGEST_TURN = 2.5  # rad: initial_state.h, kLargestFittedTurn


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))[1:]
    return [[float(c) for c in r[:8]] for r in rows if r]


def rotation(qw, qx, qy, qz):
    return [[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
            [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
            [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)]]


def turned(q0, q):
    """The angle (rad) of q q0^-1."""
    dot = abs(sum(a * b for a, b in zip(q0, q)))
    return 2 * math.acos(min(1.0, dot))


def flight(rows):
    """The frames fitted: (t, x, R) while clear of the board and turned less than the limit."""
    frames = []
    for r in rows:
        R = rotation(*r[4:8])
        lowest = r[3] - HALF * sum(abs(R[2][j]) for j in range(3))
        if lowest <= CLEARANCE or turned(rows[0][4:8], r[4:8]) >= LARGEST_TURN:
            break
        frames.append((r[0] - rows[0][0], r[1:4], R))
    return frames


def normal_equations(frames):
    """This toss's 3x3 block and right side for c, x0 and v eliminated axis by axis."""
    M = [[0.0] * 3 for _ in range(3)]
    b = [0.0] * 3
    n = len(frames)
    ts = [f[0] for f in frames]
    tm = sum(ts) / n
    stt = sum((t - tm) ** 2 for t in ts)
    for axis in range(3):
        # Columns -R_k[axis][j] (for c) and the right side y_k, each less its fit on [1, t].
        y = [f[1][axis] + (GRAVITY * f[0] ** 2 / 2 if axis == 2 else 0) for f in frames]
        cols = [[-f[2][axis][j] for f in frames] for j in range(3)]

        def residual(u):
            um = sum(u) / n
            slope = sum((t - tm) * (v - um) for t, v in zip(ts, u)) / stt
            return [v - um - slope * (t - tm) for t, v in zip(ts, u)]

        ry = residual(y)
        rc = [residual(c) for c in cols]
        for i in range(3):
            b[i] += sum(p * q for p, q in zip(rc[i], ry))
            for j in range(3):
                M[i][j] += sum(p * q for p, q in zip(rc[i], rc[j]))
    return M, b


def solve3(M, b):
    def det(A):
        return (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]))
    d = det(M)
    out = []
    for k in range(3):
        A = [row[:] for row in M]
        for i in range(3):
            A[i][k] = b[i]
        out.append(det(A) / d)
    return out


def combine(blocks):
    M = [[sum(blk[0][i][j] for blk in blocks) for j in range(3)] for i in range(3)]
    b = [sum(blk[1][i] for blk in blocks) for i in range(3)]
    return solve3(M, b)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tosses = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "toss_*.csv"))):
        tosses[int(os.path.basename(path)[5:8])] = read(path)
    # Twins: the same heights frame by frame (split.cpp); a toss goes by its group's smallest number.
    groups = {}
    for number, rows in tosses.items():
        key = (len(rows), tuple(round(r[3], 6) for r in rows))
        groups.setdefault(key, []).append(number)
    blocks = []
    for members in groups.values():
        first = min(members)
        if first % 2:
            continue  # held out
        frames = flight(tosses[first])
        if len(frames) >= 3:
            blocks.append(normal_equations(frames))
    c = combine(blocks)
    random.seed(1)
    samples = sorted(
        (combine([random.choice(blocks) for _ in blocks]) for _ in range(1000)),
        key=lambda s: s[2])
    per_axis = [sorted(s[k] for s in samples) for k in range(3)]
    print(f"{len(blocks)} training tosses (twins once)")
    print("centre of mass from the geometric centre, body frame (mm): " +
          ", ".join(f"{1000 * v:+.2f}" for v in c))
    print("90 % interval (mm): " + ", ".join(
        f"{1000 * a[50]:+.2f} .. {1000 * a[949]:+.2f}" for a in per_axis))


if __name__ == "__main__":
    main()
