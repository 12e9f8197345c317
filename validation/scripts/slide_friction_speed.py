#!/usr/bin/env python3
"""Sliding friction against sliding speed on the training tosses' flat slides, on the data and on
trajectories written by `carom-validate --trajectories DIR`.

A frame is flat when a body axis points within 2.6° of vertical (|R_z·| > 0.999) and the centre is
within 0.7 mm of the toss's last (resting) height. Over every run of 7 flat frames k-3..k+3 the
horizontal speed before (frames k-3..k-1) and after (k+1..k+3) gives the deceleration
(s1 - s2)/(4 dt) in g, binned by the mean speed (windows overlap; the after speed must exceed
8 cm/s, so that the cube still slides). Training tosses only (a twin counted once; the split of
validation/src/split.cpp). Prints the median per bin and the least-squares line mu(s) = mu0 + k s
through the bins' medians from 0.08 to 0.6 m/s.

usage: slide_friction_speed.py DATA_DIR [TRAJECTORY_DIR ...]
"""
import math
import statistics
import sys

from corner_spin import rot, windows_per_source

G = 9.61
BINS = [0.08, 0.15, 0.25, 0.4, 0.6, 1.0]


def decelerations(T):
    dt = T[1][0] - T[0][0]
    rest = T[-1][3]
    flat = []
    for row in T:
        R = rot(row[4:8])
        flat.append(max(abs(R[2][i]) for i in range(3)) > 0.999 and abs(row[3] - rest) < 0.0007)
    out = []
    for k in range(3, len(T) - 3):
        if all(flat[k - 3:k + 4]):
            s1 = math.hypot(*[(T[k - 1][i] - T[k - 3][i]) / (2 * dt) for i in (1, 2)])
            s2 = math.hypot(*[(T[k + 3][i] - T[k + 1][i]) / (2 * dt) for i in (1, 2)])
            if s2 > 0.08:
                out.append(((s1 + s2) / 2, (s1 - s2) / (4 * dt) / G))
    return out


def main():
    for name, rows in windows_per_source(sys.argv[1], sys.argv[2:], decelerations):
        print("%s: %d windows" % (name, len(rows)))
        points = []
        for lo, hi in zip(BINS, BINS[1:]):
            b = [a for s, a in rows if lo <= s < hi]
            if len(b) >= 10:
                q = statistics.quantiles(b, n=4, method="inclusive")
                mid = statistics.median(s for s, a in rows if lo <= s < hi)
                print("  %.2f-%.2f m/s: %5d  deceleration %.3f g (IQR %.3f-%.3f)" %
                      (lo, hi, len(b), statistics.median(b), q[0], q[2]))
                if hi <= 0.6:
                    points.append((mid, statistics.median(b)))
        mx = statistics.mean(p[0] for p in points)
        my = statistics.mean(p[1] for p in points)
        k = sum((a - mx) * (b - my) for a, b in points) / sum((a - mx) ** 2 for a, _ in points)
        print("  line through the medians, 0.08-0.6 m/s: mu(s) = %.3f + %.3f s (s in m/s)" %
              (my - k * mx, k))


if __name__ == "__main__":
    main()
