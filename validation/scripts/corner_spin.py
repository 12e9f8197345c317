#!/usr/bin/env python3
"""The forward spin left after the single-corner first impacts (docs/validation.md, "What the data
show"), on the data and on trajectories written by `carom-validate --trajectories DIR`.

For each training toss (a twin counted once; the split of validation/src/split.cpp), the first
impact is the first frame j where the vertical backward-difference velocity jumps up by more than
0.5 m/s (as validation/src/first_impact.cpp finds it); it is a single-corner impact when exactly
one of the measured pose's sharp corners at frame j lies within 3 mm of the lowest. The spin before
is the rotation over frames j-1..j, the spin after the rotation over frames j+1..j+2 (rad/s, board
frame), and "forward" its component about z x d, d the horizontal direction of the centre's travel
over frames j-1..j: the axis a cube rolling along d turns about. A simulated toss is taken on the
data's single-corner impacts, with its own first impact frame.

usage: corner_spin.py DATA_DIR [TRAJECTORY_DIR ...]   (prints the medians and the counts)
"""
import csv
import glob
import math
import os
import statistics
import sys

HALF = 9.61 / 9.81 * 0.0524  # the data's half side (validation/src/cube_model.h)


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))[1:]
    return [[float(c) for c in r[:8]] for r in rows if r]


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def rot(q):
    n = math.sqrt(dot(q, q))
    w, x, y, z = (c / n for c in q)
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def omega(a, b, dt):
    """The constant board-frame rate that turns pose a into pose b in dt."""
    A, B = rot(a), rot(b)
    R = [[sum(B[i][k] * A[j][k] for k in range(3)) for j in range(3)] for i in range(3)]  # B Aᵀ
    angle = math.acos(max(-1.0, min(1.0, (R[0][0] + R[1][1] + R[2][2] - 1) / 2)))
    axis = [R[2][1] - R[1][2], R[0][2] - R[2][0], R[1][0] - R[0][1]]
    n = math.sqrt(dot(axis, axis))
    return [0.0, 0.0, 0.0] if n == 0 else [c / n * angle / dt for c in axis]


def first_impact(T):
    def vz(k):  # over frames k-1..k
        return (T[k][3] - T[k - 1][3]) / (T[k][0] - T[k - 1][0])
    for k in range(2, len(T) - 2):
        if vz(k + 1) - vz(k) > 0.5:
            return k
    return None


def single_corner(T, j):
    R = rot(T[j][4:8])
    z = [T[j][3] + HALF * (R[2][0] * sx + R[2][1] * sy + R[2][2] * sz)
         for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    return sum(1 for c in z if c < min(z) + 0.003) == 1


def spins(T, j):
    dt = T[1][0] - T[0][0]
    d = sub(T[j][1:3], T[j - 1][1:3])
    n = math.sqrt(dot(d, d))
    axis = [-d[1] / n, d[0] / n, 0.0]  # z x d
    before = dot(omega(T[j - 1][4:8], T[j][4:8], dt), axis)
    after = dot(omega(T[j + 1][4:8], T[j + 2][4:8], dt), axis)
    return before, after


def quartiles(values):
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def twin_groups(data):
    """Every toss of DATA_DIR by number, and each toss's group: the smallest number of its twins
    (same heights to 1e-6). A toss goes by its group: even -> training, odd -> held out."""
    tosses = {int(os.path.basename(p)[5:8]): read(p)
              for p in sorted(glob.glob(os.path.join(data, "toss_*.csv")))}
    group = {}
    for n, T in tosses.items():
        group[n] = min(m for m, U in tosses.items()
                       if len(U) == len(T) and all(abs(u[3] - t[3]) <= 1e-6 for u, t in zip(U, T)))
    return tosses, group


def training_tosses(data):
    """Every toss of DATA_DIR by number, and the training tosses with a twin counted once."""
    tosses, group = twin_groups(data)
    return tosses, sorted(n for n in tosses if group[n] % 2 == 0 and group[n] == n)


def windows_per_source(data, folders, measure):
    """(name, rows) for the data and for each trajectory folder: measure(T) of every training toss
    T, concatenated. A folder's tosses are read from its toss_NNN.csv files."""
    tosses, train = training_tosses(data)
    for name, folder in [("data", None)] + [(os.path.basename(d.rstrip("/")), d)
                                            for d in folders]:
        rows = []
        for n in train:
            T = tosses[n] if folder is None else read(os.path.join(folder, "toss_%03d.csv" % n))
            rows += measure(T)
        yield name, rows


def main():
    data = sys.argv[1]
    tosses, train = training_tosses(data)
    chosen = []
    for n in train:
        j = first_impact(tosses[n])
        if j is not None and single_corner(tosses[n], j):
            chosen.append(n)
    sources = [("data", data)] + [(os.path.basename(d.rstrip("/")), d) for d in sys.argv[2:]]
    for name, folder in sources:
        before, after = [], []
        for n in chosen:
            T = tosses[n] if name == "data" else read(os.path.join(folder, "toss_%03d.csv" % n))
            j = first_impact(T)
            if j is None or j + 2 >= len(T):
                continue
            b, a = spins(T, j)
            before.append(b)
            after.append(a)
        print("%-28s %3d single-corner first impacts: forward spin before %.2f rad/s, after %.2f "
              "rad/s (median; after IQR %.2f-%.2f)" %
              (name, len(after), statistics.median(before), statistics.median(after),
               *quartiles(after)))


if __name__ == "__main__":
    main()
