#!/usr/bin/env python3
"""Spin about the vertical against sliding speed on the training tosses' flat frames, on the data
and on trajectories written by `carom-validate --trajectories DIR`.

A frame is flat when a body axis points within 2.6° of vertical (|R_z·| > 0.999) and the centre is
within 0.7 mm of the toss's last (resting) height. Over every run of 7 flat frames k-3..k+3 the
vertical spin rate at k-2 and k+2 (each from the poses one frame either side, board frame) gives
the spin's deceleration (|w1| - |w2|)/(4 dt) in rad/s², kept where the spin at k is above 1 rad/s
and keeps its sign; binned by the centre's horizontal speed at k. A square face of side a under
uniform pressure resists a pure spin with the torque mu N 0.383 a; held at its four corners, with
mu N 0.707 a: 30 and 56 rad/s² for this cube (mu 0.21, g 9.61 m/s², I = m h², h = a/2).

usage: flat_spin.py DATA_DIR [TRAJECTORY_DIR ...]
"""
import math
import statistics
import sys

from corner_spin import omega, rot, windows_per_source

BINS = [0.0, 0.1, 0.3, 1.0]  # m/s
LEAST_SPIN = 1.0  # rad/s


def spin_decelerations(T):
    dt = T[1][0] - T[0][0]
    rest = T[-1][3]
    flat = [abs(T[i][3] - rest) < 7e-4 and max(abs(c) for c in rot(T[i][4:8])[2]) > 0.999
            for i in range(len(T))]

    def spin(i):  # about the vertical, board frame (rad/s)
        return omega(T[i - 1][4:8], T[i + 1][4:8], 2 * dt)[2]

    rows = []
    for k in range(3, len(T) - 3):
        if not all(flat[k - 3:k + 4]):
            continue
        before, now, after = spin(k - 2), spin(k), spin(k + 2)
        if abs(now) < LEAST_SPIN or before * after <= 0:
            continue
        speed = math.hypot(T[k + 1][1] - T[k - 1][1], T[k + 1][2] - T[k - 1][2]) / (2 * dt)
        rows.append((speed, (abs(before) - abs(after)) / (4 * dt)))
    return rows


def main():
    for name, rows in windows_per_source(sys.argv[1], sys.argv[2:], spin_decelerations):
        print("%s: %d windows" % (name, len(rows)))
        for lo, hi in zip(BINS, BINS[1:]):
            b = [a for s, a in rows if lo <= s < hi]
            if len(b) >= 5:
                q = statistics.quantiles(b, n=4, method="inclusive")
                print("  %.1f-%.1f m/s: %5d  spin deceleration %.1f rad/s² (IQR %.1f-%.1f)" %
                      (lo, hi, len(b), statistics.median(b), q[0], q[2]))


if __name__ == "__main__":
    main()
