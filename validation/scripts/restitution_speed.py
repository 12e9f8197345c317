#!/usr/bin/env python3
"""Restitution against impact speed at every impact of the training tosses (corner, edge, face).

An impact lies between frames j and j+1 where the centre's vertical backward-difference velocity
jumps up by more than JUMP m/s. Velocities before over frames j-1..j and after over frames
j+1..j+2 (centre: differences carried by gravity to the impact's middle; spin: the rotation over
those frames). The contact is classified by the measured pose's sharp corners at frame j within
3 mm of the lowest: 1 corner, 2 an edge (its midpoint), 4 a face (its centre). e = -v_n+/v_n- of
the contact point's vertical velocity. Prints e binned by the contact's normal speed before, for
each kind, and a log-log fit of e against v_n- (e ~ v^-p), on the data and on trajectories written
by `carom-validate --trajectories DIR` (the same analysis of a simulation: what the measurement
itself makes of a law whose e does not depend on speed).

usage: restitution_speed.py DATA_DIR [TRAJECTORY_DIR ...]
"""
import math
import os
import statistics
import sys

from corner_spin import training_tosses, HALF, read, rot, omega, sub, dot

G = 9.61
JUMP = 0.3


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def impacts(T):
    dt = T[1][0] - T[0][0]

    def vel(k):  # backward difference over frames k-1..k
        return [(T[k][i] - T[k - 1][i]) / dt for i in (1, 2, 3)]

    out = []
    k = 2
    while k + 2 < len(T):
        if vel(k + 1)[2] - vel(k)[2] > JUMP:
            j = k
            R = rot(T[j][4:8])
            corners = []
            for sx in (-1, 1):
                for sy in (-1, 1):
                    for sz in (-1, 1):
                        r = [HALF * (R[i][0] * sx + R[i][1] * sy + R[i][2] * sz) for i in range(3)]
                        corners.append(r)
            low = min(c[2] for c in corners)
            touching = [c for c in corners if c[2] < low + 0.003]
            n = len(touching)
            r = [sum(c[i] for c in touching) / n for i in range(3)]
            vm = vel(j)
            vm[2] -= G * dt
            vp = vel(j + 2)
            vp[2] += G * dt
            wm = omega(T[j - 1][4:8], T[j][4:8], dt)
            wp = omega(T[j + 1][4:8], T[j + 2][4:8], dt)
            cm = [a + b for a, b in zip(vm, cross(wm, r))]
            cp = [a + b for a, b in zip(vp, cross(wp, r))]
            if cm[2] < -0.05:
                out.append((n, -cm[2], -cp[2] / cm[2], j))
            k += 3
        else:
            k += 1
    return out


KINDS = ((1, "corner"), (2, "edge"), (4, "face"), (0, "all"))
BINS = [0.25, 0.5, 0.75, 1.0, 1.5]


def table(rows):
    """{(kind, bin): (count, median e)} and {kind: log-log slope of e against v_n-}."""
    cells, slopes = {}, {}
    for kind, _ in KINDS:
        sel = [r for r in rows if kind == 0 or r[0] == kind]
        for lo, hi in zip(BINS, BINS[1:]):
            b = [r[2] for r in sel if lo <= r[1] < hi]
            if len(b) >= 5:
                cells[kind, lo] = (len(b), statistics.median(b))
        pts = [(math.log(r[1]), math.log(r[2])) for r in sel if 0.02 < r[2] < 1.2 and r[1] > 0.25]
        if len(pts) > 10:
            mx = statistics.mean(p[0] for p in pts)
            my = statistics.mean(p[1] for p in pts)
            slopes[kind] = (sum((a - mx) * (b - my) for a, b in pts) /
                            sum((a - mx) ** 2 for a, _ in pts))
    return cells, slopes


def main():
    data = sys.argv[1]
    tosses, train = training_tosses(data)
    sources = [("data", None)] + [(os.path.basename(d.rstrip("/")), d) for d in sys.argv[2:]]
    results = []
    for name, folder in sources:
        rows = []
        for n in train:
            T = tosses[n] if folder is None else read(os.path.join(folder, "toss_%03d.csv" % n))
            rows += [(kind, v, e) for kind, v, e, _ in impacts(T)]
        results.append((name, table(rows)))
    print("median e = -v_n+/v_n- of the contact point by approach speed v_n- (m/s), training tosses;")
    print("count in parentheses; slope: least squares of log e on log v_n- over v_n- > 0.25 m/s")
    header = "%-8s %-10s" % ("contact", "v_n-") + "".join("%-26s" % n for n, _ in results)
    print(header)
    for kind, label in KINDS:
        for lo, hi in zip(BINS, BINS[1:]):
            cells = ["%.3f (%d)" % (c[1], c[0]) if (c := r[0].get((kind, lo))) else "-"
                     for _, r in results]
            if any(c != "-" for c in cells):
                print("%-8s %-10s" % (label, "%.2f-%.2f" % (lo, hi)) +
                      "".join("%-26s" % c for c in cells))
        print("%-8s %-10s" % (label, "slope") +
              "".join("%-26s" % ("%+.2f" % r[1][kind] if kind in r[1] else "-")
                      for _, r in results))


if __name__ == "__main__":
    main()
