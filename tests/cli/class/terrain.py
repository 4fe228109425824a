#!/usr/bin/env python3
"""A terrain for the HTML report test: a 100 x 100 grid of cells, two
triangles each (20,000 triangles), heights from a few sines, and N seeded
throws dropped onto it. Standard library only.

usage: terrain.py OUT.obj OUT_THROWS.json N"""
import math, random, sys, json
n = 100  # 100 x 100 cells, two triangles each: 20,000 triangles
out = open(sys.argv[1], "w")
for j in range(n + 1):
    for i in range(n + 1):
        x, y = i * 1.0, j * 1.0
        z = 2.0 * math.sin(x * 0.31) * math.cos(y * 0.27) + 0.5 * math.sin(x * 1.7 + y * 1.3)
        out.write("v %r %r %r\n" % (x, y, z))
for j in range(n):
    for i in range(n):
        a = j * (n + 1) + i + 1
        b, c, d = a + 1, a + n + 1, a + n + 2
        out.write("f %d %d %d\nf %d %d %d\n" % (a, b, d, a, d, c))
rng = random.Random(20)
throws = []
for k in range(int(sys.argv[3])):
    x, y = rng.uniform(5, 95), rng.uniform(5, 95)
    throws.append({"id": "t%d" % k, "p0": [x, y, 6.0], "p1": [x + rng.uniform(-4, 4), y + rng.uniform(-4, 4), -4.0], "r": rng.uniform(0.2, 0.8)})
json.dump(throws, open(sys.argv[2], "w"))
