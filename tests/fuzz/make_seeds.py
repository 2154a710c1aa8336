#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus/<target>/ (run from anywhere; overwrites seed-* files only).

The binary targets read their bytes with pbd::fuzz::Input (tests/fuzz/fuzz_input.h); the helpers below encode
values the same way, so each seed is a readable program. The fuzzer adds its own finds (crash-* reproducers are
added by hand, named after the bug)."""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SPECIAL = [0.0, 1.0, -1.0, 'nan', 'inf', '-inf', 1e30, -1e30, 'max', 'lowest', 'min', 'denorm', '-0', 1e-6, 1e6, 0.5]
NAMED = {'nan': 3, 'inf': 4, '-inf': 5, 'max': 8, 'lowest': 9, 'min': 10, 'denorm': 11, '-0': 12}


def real(v):
    if isinstance(v, str):
        return bytes([NAMED[v]])
    for k, s in enumerate(SPECIAL[:3]):
        if v == s:
            return bytes([k])
    q = v * 16
    if q == int(q) and -112 <= q <= 111:
        return bytes([int(q) + 128])
    return bytes([0xF0]) + struct.pack('<f', v)


def reals(*vs):
    return b''.join(real(v) for v in vs)


def byte(*bs):
    return bytes(bs)


def u16(v):
    return struct.pack('<H', v)


def index(i):  # an in-range index below 192 (Input::index gives b % count)
    assert 0 <= i < 192
    return bytes([i])


def indices(*ids):
    return b''.join(index(i) for i in ids)


def small(v, lo):  # Input::smallInt(lo, hi) for lo <= v <= hi
    return bytes([v - lo])


def write(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---- shapes -------------------------------------------------------------------------------------------------------
CUBE_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1)]
CUBE_T = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4),
          (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)]  # outward
CUBE_TETS = [(0, 1, 2, 4), (1, 3, 2, 7), (1, 2, 4, 7), (1, 5, 7, 4), (2, 4, 7, 6)]
OCTA_V = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
OCTA_T = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
TET_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TET_T = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]


def flat(vs):
    return [c for v in vs for c in v]


# ---- obj_reader_fuzz ----------------------------------------------------------------------------------------------
obj_cube = ''.join(f'v {x} {y} {z}\n' for x, y, z in CUBE_V) + \
    'f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n'
write('obj_reader_fuzz', 'cube.obj', obj_cube)
write('obj_reader_fuzz', 'tet-slashes-negative.obj',
      '# a tet\r\nmtllib x.mtl\no tet\nv 0 0 0 1\nv 1 0 0\nv 0 1 0 0.5 0.5 0.5\nv 0 0 1\nvt 0 0\nvn 0 0 1\n'
      's off\nusemtl m\nf 1/1 3/1 2/1\nf 1//1 2//1 4//1\nf -4/1/1 -1/1/1 -2/1/1\nf 2 3 4')
write('obj_reader_fuzz', 'bad-index.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n')
write('obj_reader_fuzz', 'bad-number.obj', 'v 0 0 nan\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n')
write('obj_reader_fuzz', 'unknown-statement.obj', 'v 0 0 0\nvv 1 0 0\nf 1 1 1\n')
write('obj_reader_fuzz', 'binary.obj', bytes(range(256)))

# ---- tetgen_reader_fuzz -------------------------------------------------------------------------------------------
write('tetgen_reader_fuzz', 'one-tet', '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n\0001 4 0\n0 0 1 2 3\n')
write('tetgen_reader_fuzz', 'cube-1based-attributes',
      '# cube\n8 3 1 1\n' + ''.join(f'{i + 1} {x} {y} {z} 0.5 1\n' for i, (x, y, z) in enumerate(CUBE_V)) +
      '\0' + '5 4 1\n' + ''.join(f'{t + 1} {a + 1} {b + 1} {c + 1} {d + 1} 7\n'
                                  for t, (a, b, c, d) in enumerate(CUBE_TETS)))
write('tetgen_reader_fuzz', 'quadratic',
      '10 3\n' + ''.join(f'{i} {i % 2} {i // 2 % 2} {i // 4}\n' for i in range(10)) +
      '\0' + '1 10\n0 0 1 2 4 3 5 6 7 8 9\n')
write('tetgen_reader_fuzz', 'count-mismatch', '5 3 0 0\n0 0 0 0\n1 1 0 0\n\0001 4 0\n0 0 1 2 3\n')
write('tetgen_reader_fuzz', 'index-out-of-range', '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n\0001 4 0\n0 0 1 2 9\n')
write('tetgen_reader_fuzz', 'huge-header', '16777217 3 0 0\n\0' + '67108865 4 0\n')


# ---- tetrahedralize_fuzz ------------------------------------------------------------------------------------------
def tet_input(vs, tris, resolution=0, flags=0, min_quality=None, margin=None, extra=None, cancel=None):
    b = byte(resolution, flags)
    if flags & 1:
        b += real(min_quality)
    if flags & 2:
        b += real(margin)
    if flags & 8:
        b += byte(len(extra) // 3) + reals(*extra)
    if flags & 0x10:
        b += byte(cancel)
    b += byte(len(vs)) + reals(*flat(vs)) + byte(len(tris)) + b''.join(byte(*t) for t in tris)
    return b


write('tetrahedralize_fuzz', 'cube', tet_input(CUBE_V, CUBE_T))
write('tetrahedralize_fuzz', 'cube-res4', tet_input(CUBE_V, CUBE_T, resolution=4))
write('tetrahedralize_fuzz', 'cube-res8-quality', tet_input(CUBE_V, CUBE_T, resolution=8, flags=3, min_quality=0.25,
                                                            margin=1.0))
write('tetrahedralize_fuzz', 'octa-extra-points', tet_input(OCTA_V, OCTA_T, resolution=3, flags=8,
                                                            extra=[0, 0, 0, 0.25, 0.25, 0.25, 5, 5, 5]))
write('tetrahedralize_fuzz', 'tet-keep-outside', tet_input(TET_V, TET_T, resolution=2, flags=4))
write('tetrahedralize_fuzz', 'cube-cancel', tet_input(CUBE_V, CUBE_T, resolution=4, flags=0x10, cancel=2))
write('tetrahedralize_fuzz', 'open-cube', tet_input(CUBE_V, CUBE_T[:-1]))
write('tetrahedralize_fuzz', 'flipped-triangle', tet_input(TET_V, [TET_T[0], TET_T[1], TET_T[2], (1, 3, 2)]))
write('tetrahedralize_fuzz', 'nan-vertex', tet_input([(0, 0, 0), (1, 0, 0), (0, 'nan', 0), (0, 0, 1)], TET_T))
write('tetrahedralize_fuzz', 'flat', tet_input([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], TET_T))


# ---- mesh_body_fuzz -----------------------------------------------------------------------------------------------
def mesh(vs, elements):
    return byte(len(vs)) + reals(*flat(vs)) + byte(len(elements)) + b''.join(indices(*e) for e in elements)


write('mesh_body_fuzz', 'octa-cloth', byte(0) + mesh(OCTA_V, OCTA_T) + u16(0))
write('mesh_body_fuzz', 'octa-balloon', byte(0) + mesh(OCTA_V, OCTA_T) + u16(0x0800 | 0x0004 | 0x0200) +
      byte(1, 0) + byte(2) + real(1.5))  # pinned [0], geodesic tethers, pressure 1.5
write('mesh_body_fuzz', 'cube-strain-weld', byte(0) + mesh(CUBE_V + CUBE_V[:2], CUBE_T + [(8, 9, 2)]) +
      u16(0x0001 | 0x0010) + real(0.5) + byte(1))
write('mesh_body_fuzz', 'tet-soft', byte(1) + mesh(TET_V, [(0, 1, 2, 3)]) + u16(0))
write('mesh_body_fuzz', 'cube-neohookean', byte(1) + mesh(CUBE_V, CUBE_TETS) + u16(0x0020 | 0x0800 | 0x2000) +
      byte(1) + byte(1))
write('mesh_body_fuzz', 'inverted-tet', byte(1) + mesh(TET_V, [(0, 2, 1, 3)]) + u16(0))
write('mesh_body_fuzz', 'weld-duplicates', byte(2) + mesh(TET_V + TET_V, TET_T + [(4, 5, 6)]) + byte(0) + real(0))
write('mesh_body_fuzz', 'weld-tolerance', byte(2) + mesh(CUBE_V, CUBE_T) + byte(0) + real(1.0))
write('mesh_body_fuzz', 'bind-cube', byte(3) + mesh(CUBE_V, CUBE_TETS) + byte(3) +
      reals(0.5, 0.5, 0.5, 2, 2, 2, -1, 0.25, 0) + byte(0))
write('mesh_body_fuzz', 'bind-flat', byte(3) + mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [(0, 1, 2, 3)]) +
      byte(1) + reals(0, 0, 0) + byte(0))

# ---- tearing_fuzz ---------------------------------------------------------------------------------------------------
# Body: kind byte, strain (flag byte: 1 = none; 0 then a real), then the cloth's columns, rows, model, bend and tethers
# bytes, or a soup as mesh_body_fuzz has it and a weld flag. Ops: 0 tear side (triangle, side), 1 tear pair, 2 step with
# a pull (particle, point), 3 snapshot round trip.
def tear_side(t, k):
    return byte(0) + index(t) + byte(k)


def pull(i, x, y, z):
    return byte(2) + index(i) + reals(x, y, z)


write('tearing_fuzz', 'grid-cut-across', byte(0) + byte(1) + byte(6, 4, 0, 1, 2) +
      b''.join(tear_side(2 * c + 6, 0) for c in range(3)) + pull(20, 0, -1, 0) * 3 + byte(3))
write('tearing_fuzz', 'grid-strain-pull', byte(0) + byte(0) + real(0.25) + byte(8, 8, 1, 0, 1) +
      pull(60, 0.3, -2, 0.5) * 8 + byte(3) + tear_side(5, 1) + byte(1) + indices(0, 9))
write('tearing_fuzz', 'octa-soup', byte(1) + byte(1) + mesh(OCTA_V, OCTA_T) + byte(0) +
      tear_side(0, 0) + tear_side(1, 1) + tear_side(2, 2) + pull(3, 0, 2, 0) + byte(3))
write('tearing_fuzz', 'cube-unwelded', byte(1) + byte(1) + mesh(CUBE_V, CUBE_T) + byte(1) +
      tear_side(0, 1) + tear_side(4, 0) + byte(1) + indices(3, 3) + pull(2, 1, 1, 1) + byte(3))

# ---- world_api_fuzz -----------------------------------------------------------------------------------------------
OP = dict(gravity=0, method=1, substeps=2, iterations=3, linear_damping=4, rigid_damping=5, ground=6, solver=7,
          integrator=8, self_collision=9, jacobi=10, residuals=11, settings=12, particle=13, particles=14,
          inverse_mass=15, velocity=16, position=17, force=18, distance=19, distance_strength=20, dihedral=21,
          attach=22, attach_target=23, detach=24, collider=25, collider_pose=26, cloth=27, rope=28, soft=29,
          mesh=30, shape_matching=31, step=32, query=34)


def op(name, *parts):
    return byte(OP[name]) + b''.join(parts)


STEP = op('step', byte(0))
write('world_api_fuzz', 'cloth-steps', op('cloth', small(8, 2), small(6, 2), u16(0x0020), byte(2), index(0), index(7))
      + STEP * 4)
write('world_api_fuzz', 'rope-pbd-jacobi', op('method', byte(0)) + op('solver', byte(1)) + op('jacobi', real(1.5)) +
      op('rope', small(10, 1), byte(0x08), byte(1), index(0)) + op('iterations', small(4, 1)) + STEP * 3 +
      op('query', byte(0), index(3)))
write('world_api_fuzz', 'particles-constraints',
      op('particle', reals(0, 1, 0), real(0), reals(0, 0, 0)) + op('particle', reals(1, 1, 0), real(1), reals(0, 0, 0)) +
      op('particles', byte(0x15), reals(0, 2, 0, 1, 2, 0, 2, 2, 0), reals(1, 1, 0.5)) +
      op('distance', index(0), index(1), real(-1), real(-1), reals(0, 1)) +
      op('distance', index(1), index(2), real(0.5), real(2), reals(0.0625, 0.5)) +
      op('dihedral', indices(0, 3, 1, 2), byte(0), reals(0, 1)) +
      op('attach', index(4), reals(3, 3, 0), reals(0, 1)) + op('attach_target', index(0), reals(2, 3, 0)) +
      op('shape_matching', byte(3), indices(1, 2, 3), reals(0, 0.5)) + STEP * 2 + op('detach', index(0)) + STEP)
write('world_api_fuzz', 'soft-collider-bdf2', op('integrator', byte(1)) +
      op('soft', byte(1), real(0.5), reals(0, 1, 0), u16(0x0020), byte(1)) +
      op('collider', byte(0x02), byte(2), reals(0, 0.25, 0), real(0.25)) +
      op('collider_pose', index(0), reals(0.5, 0.25, 0), byte(0)) + STEP * 3)
write('world_api_fuzz', 'balloon-selfcollision', op('self_collision', byte(1), real(0.0625)) +
      op('mesh', byte(0), real(0.5), reals(0, 2, 0), u16(0x0800), real(1)) +
      op('cloth', small(4, 2), small(4, 2), u16(0x0002), reals(-1, 1, -1)) + STEP * 3 +
      op('query', byte(2), index(0), index(0)))
write('world_api_fuzz', 'bad-arguments', op('particle', reals(0, 1, 0), real(1), reals(0, 0, 0)) +
      op('gravity', reals(0, 'nan', 0)) + op('substeps', byte(241)) + op('velocity', byte(240), reals(0, 0, 0)) +
      op('position', index(0), reals('inf', 0, 0)) + op('distance', index(0), index(0), real(-1), real(-1), reals(0, 1)) +
      op('cloth', byte(243), small(2, 2), u16(0)) + op('step', byte(255), real(-1)) +
      op('step', byte(255), real('nan')) + op('collider', byte(0x02), byte(0), reals(0, 0, 0), real(0)) + STEP)
write('world_api_fuzz', 'huge-force-rollback', op('particle', reals(0, 1, 0), real(1), reals(0, 0, 0)) +
      op('force', index(0), reals('max', 0, 0)) + STEP + op('force', index(0), reals(1e30, 1e30, 0)) + STEP +
      op('settings', u16(0x0040 | 0x0080), reals(0, 1e30, 0), real(1e6)) + STEP)
