#!/usr/bin/env python3
"""The test class's throws (throws.json), deterministic: random throws in
and around scene.obj, balls rolling on the floor at height r (the
front-face rule's le and lt part there), balls starting inside the floor
(initial overlaps), and balls coming up from under the floor (back faces)."""
import json
import random

rng = random.Random(15)
throws = []
for i in range(240):
    p0 = [rng.uniform(-1, 11), rng.uniform(-1, 11), rng.uniform(-2, 6)]
    p1 = [rng.uniform(-1, 11), rng.uniform(-1, 11), rng.uniform(-2, 4)]
    throws.append({"id": i, "p0": p0, "p1": p1, "r": round(rng.uniform(0.05, 0.8), 3)})
for k in range(12):
    r = (0.25, 0.5, 0.125)[k % 3]
    y = 1 + 0.5 * k
    throws.append({"id": "roll-%d" % k, "p0": [0.5, y, r], "p1": [9.5, y + 0.3, r], "r": r})
for k in range(12):
    r = 0.5
    throws.append({"id": "inside-%d" % k, "p0": [1 + 0.6 * k, 8, r / 4], "p1": [1 + 0.6 * k, 6 + 0.1 * k, 3], "r": r})
for k in range(12):
    throws.append({"id": "under-%d" % k, "p0": [1 + 0.7 * k, 1.5, -2], "p1": [1.2 + 0.7 * k, 1.7, 3], "r": 0.2})
json.dump(throws, open("throws.json", "w"), indent=0)
