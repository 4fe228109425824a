#!/usr/bin/env python3
"""meshconv.py - write an OBJ mesh (v and f lines) as STL, PLY or OFF, for
the format tests. Written from the formats' specifications, independently
of ballcast's readers (Python's struct and float repr, nothing shared).

  meshconv.py IN.obj OUT FORMAT [options]
    FORMAT: obj | stl-ascii | stl-binary | ply-ascii | ply-le | ply-be | off
    --float32        round coordinates to float32 first (binary STL holds
                     nothing else; use it for every format of a set that
                     must agree bit for bit)
    --double         PLY: store coordinates as float64 (default float32)
    --triangles      cut each polygon as the fan (v0 v1 v2), (v0 v2 v3)...
    --first-use      number vertices in order of first use by the faces,
                     dropping unused ones (as an STL reader numbers them)
    --solid-header   binary STL: start the 80-byte header with "solid"
    --bad-normals    STL: store every third facet's normal reversed
    --colours        OFF: COFF with RGBA columns on vertices and faces
    --extras         PLY: extra vertex properties (nx ny nz, red green
                     blue) and an extra element (edge) to be skipped
Numbers are written with repr(), the shortest text that reads back as the
same double.
"""
import struct
import sys


def read_obj(path):
    vertices, faces = [], []
    with open(path) as f:
        for line in f:
            parts = line.split('#')[0].split()
            if not parts:
                continue
            if parts[0] == 'v':
                vertices.append(tuple(float(x) for x in parts[1:4]))
            elif parts[0] == 'f':
                face = []
                for token in parts[1:]:
                    i = int(token.split('/')[0])
                    face.append(i - 1 if i > 0 else len(vertices) + i)
                faces.append(face)
    return vertices, faces


def to_float32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def winding_normal(a, b, c):
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = sum(x * x for x in n) ** 0.5
    return [x / length for x in n] if length > 0 else [0.0, 0.0, 0.0]


def num(x):
    return repr(float(x))


def main(argv):
    src, out, fmt = argv[1], argv[2], argv[3]
    flags = set(argv[4:])
    vertices, faces = read_obj(src)
    if '--float32' in flags:
        vertices = [tuple(to_float32(x) for x in v) for v in vertices]
    if '--triangles' in flags:
        faces = [[f[0], f[j - 1], f[j]] for f in faces for j in range(2, len(f))]
    if '--first-use' in flags or fmt.startswith('stl'):
        order, seen = [], {}
        for f in faces:
            for i in f:
                if i not in seen:
                    seen[i] = len(order)
                    order.append(i)
        vertices = [vertices[i] for i in order]
        faces = [[seen[i] for i in f] for f in faces]
    if fmt == 'obj':
        with open(out, 'w') as f:
            for v in vertices:
                f.write('v %s %s %s\n' % tuple(num(x) for x in v))
            for face in faces:
                f.write('f %s\n' % ' '.join(str(i + 1) for i in face))
    elif fmt.startswith('stl'):
        for face in faces:
            if len(face) != 3:
                sys.exit('meshconv: STL holds triangles only: give --triangles')
        normals = []
        for k, face in enumerate(faces):
            n = winding_normal(*[vertices[i] for i in face])
            if '--bad-normals' in flags and k % 3 == 2:
                n = [-x for x in n]
            normals.append(n)
        if fmt == 'stl-ascii':
            with open(out, 'w') as f:
                f.write('solid converted\n')
                for face, n in zip(faces, normals):
                    f.write('  facet normal %s %s %s\n    outer loop\n' % tuple(num(x) for x in n))
                    for i in face:
                        f.write('      vertex %s %s %s\n' % tuple(num(x) for x in vertices[i]))
                    f.write('    endloop\n  endfacet\n')
                f.write('endsolid converted\n')
        else:
            header = (b'solid written as binary by meshconv' if '--solid-header' in flags
                      else b'binary STL written by meshconv').ljust(80, b' ')
            with open(out, 'wb') as f:
                f.write(header + struct.pack('<I', len(faces)))
                for face, n in zip(faces, normals):
                    f.write(struct.pack('<3f', *n))
                    for i in face:
                        f.write(struct.pack('<3f', *vertices[i]))
                    f.write(struct.pack('<H', 0))
    elif fmt.startswith('ply'):
        kind = {'ply-ascii': 'ascii', 'ply-le': 'binary_little_endian', 'ply-be': 'binary_big_endian'}[fmt]
        order = '<' if fmt == 'ply-le' else '>'
        real = 'double' if '--double' in flags else 'float'
        code = 'd' if real == 'double' else 'f'
        extras = '--extras' in flags
        header = ['ply', 'format %s 1.0' % kind, 'comment written by meshconv',
                  'element vertex %d' % len(vertices)]
        if extras:
            header.append('property uchar red')
        header += ['property %s x' % real, 'property %s y' % real, 'property %s z' % real]
        if extras:
            header += ['property float nx', 'property float ny', 'property float nz', 'property uchar green']
        header += ['element face %d' % len(faces), 'property list uchar int vertex_indices']
        if extras:
            header += ['property list uchar float texcoord', 'element edge 1', 'property int vertex1',
                       'property int vertex2']
        header.append('end_header')
        with open(out, 'wb') as f:
            f.write(('\n'.join(header) + '\n').encode())
            for v in vertices:
                if kind == 'ascii':
                    row = ([7] if extras else []) + [num(x) for x in v] + (['0.5', '0.25', '-1', 200] if extras else [])
                    f.write((' '.join(str(x) for x in row) + '\n').encode())
                else:
                    if extras:
                        f.write(struct.pack(order + 'B', 7))
                    f.write(struct.pack(order + '3' + code, *v))
                    if extras:
                        f.write(struct.pack(order + '3fB', 0.5, 0.25, -1.0, 200))
            for face in faces:
                if kind == 'ascii':
                    row = [len(face)] + face + ([2, '0.5', '1'] if extras else [])
                    f.write((' '.join(str(x) for x in row) + '\n').encode())
                else:
                    f.write(struct.pack(order + 'B%di' % len(face), len(face), *face))
                    if extras:
                        f.write(struct.pack(order + 'B2f', 2, 0.5, 1.0))
            if extras:
                if kind == 'ascii':
                    f.write(b'0 1\n')
                else:
                    f.write(struct.pack(order + '2i', 0, 1))
    elif fmt == 'off':
        colours = '--colours' in flags
        with open(out, 'w') as f:
            f.write('COFF\n' if colours else 'OFF\n')
            f.write('# written by meshconv\n%d %d 0\n' % (len(vertices), len(faces)))
            for v in vertices:
                f.write(' '.join(num(x) for x in v) + (' 255 128 0 255' if colours else '') + '\n')
            for face in faces:
                f.write('%d %s%s\n' % (len(face), ' '.join(str(i) for i in face), ' 0.5 0.5 0.5 1' if colours else ''))
    else:
        sys.exit('meshconv: unknown format ' + fmt)


if __name__ == '__main__':
    main(sys.argv)
