#!/usr/bin/env python3
"""Draws the demo's art: every sheet under assets/ that the `elona` mod's prototypes name.

Run from anywhere (Python 3, standard library only):

    python3 assets/draw_art.py            # rewrites the sheets under assets/
    python3 assets/draw_art.py --preview OUT.png
                                          # also writes a contact sheet and a small mock map

The output is deterministic: the same bytes every run (no randomness, no timestamps; the
"noise" is an integer hash of the pixel's position). Every colour comes from PALETTE below,
and the script refuses to write a pixel of another colour.

Sprite sets are generated piece by piece from their neighbour masks, in the piece order the
engine reads (see LAYOUT59 / runtime/game/src/art.rs):
- Wang16: index = N*1 + E*2 + S*4 + W*8, laid 4 pieces a row.
- Blob47: the 8-bit mask N=1, NE=2, E=4, SE=8, S=16, SW=32, W=64, NW=128 with a corner bit
  dropped unless both its edges are set; the 47 masks that remain, sorted ascending, give the
  piece index; laid 8 pieces a row.
"""

import math
import os
import struct
import sys
import zlib

CELL = 32
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------------------------
# Palette: ramps from dark to light. Shading moves along a ramp, so every pixel is one of these.

RAMPS = {
    "ink": [(20, 16, 24), (38, 32, 44)],
    "stone": [(52, 48, 54), (74, 68, 72), (98, 92, 94), (126, 118, 116), (156, 148, 140), (190, 182, 170)],
    "wood": [(58, 36, 26), (88, 56, 36), (122, 80, 48), (156, 108, 64), (190, 142, 90)],
    "green": [(28, 52, 34), (42, 80, 44), (62, 112, 56), (92, 146, 70), (140, 182, 92)],
    "water": [(18, 30, 62), (28, 52, 102), (42, 82, 142), (70, 122, 182), (120, 170, 220), (196, 226, 246)],
    "red": [(92, 24, 30), (152, 40, 42), (210, 70, 56), (236, 124, 52), (248, 196, 70), (255, 236, 150)],
    "skin": [(120, 72, 56), (186, 130, 96), (232, 184, 140)],
    "pink": [(150, 70, 100), (238, 140, 170), (250, 196, 210)],
    "teal": [(24, 84, 84), (60, 170, 160), (130, 230, 210)],
    "metal": [(70, 76, 92), (110, 118, 136), (160, 168, 184), (214, 220, 230)],
    "gold": [(110, 70, 20), (170, 120, 30), (230, 180, 50), (255, 228, 120)],
    "sand": [(120, 96, 52), (170, 140, 80), (212, 186, 116), (238, 222, 164)],
    "white": [(236, 232, 220), (255, 250, 240)],
}
SHADOW = (0, 0, 0, 96)  # the soft drop shadow under characters and objects
CLEAR = (0, 0, 0, 0)

PALETTE = {c + (255,) for ramp in RAMPS.values() for c in ramp} | {SHADOW, CLEAR}


def c(ramp, i):
    """Colour `i` of ramp `ramp` (clamped to the ramp's ends), opaque."""
    r = RAMPS[ramp]
    return r[max(0, min(len(r) - 1, i))] + (255,)


def shade(col, step):
    """`col` moved `step` places along its ramp (negative is darker)."""
    for name, ramp in RAMPS.items():
        if col[:3] in ramp:
            return c(name, ramp.index(col[:3]) + step)
    return col


INK = c("ink", 0)

# ---------------------------------------------------------------------------------------------
# Deterministic noise.


def hash2(x, y, seed=0):
    """A well-mixed 32-bit hash of integer coordinates."""
    h = (x * 374761393 + y * 668265263 + seed * 982451653) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return h ^ (h >> 16)


def rand01(x, y, seed=0):
    return hash2(x, y, seed) / 0xFFFFFFFF


def value_noise(x, y, seed, period=CELL, step=8):
    """Smooth noise in [0, 1] that repeats every `period` pixels both ways (tiles seamlessly)."""
    n = period // step

    def corner(ix, iy):
        return rand01(ix % n, iy % n, seed)

    fx, fy = x / step, y / step
    ix, iy = math.floor(fx), math.floor(fy)
    tx, ty = fx - ix, fy - iy
    tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
    top = corner(ix, iy) * (1 - tx) + corner(ix + 1, iy) * tx
    bottom = corner(ix, iy + 1) * (1 - tx) + corner(ix + 1, iy + 1) * tx
    return top * (1 - ty) + bottom * ty


# ---------------------------------------------------------------------------------------------
# Images and PNG output.


class Img:
    """An RGBA image of palette colours, transparent to start with."""

    def __init__(self, w, h, fill=CLEAR):
        self.w, self.h = w, h
        self.px = [fill] * (w * h)

    def inside(self, x, y):
        return 0 <= x < self.w and 0 <= y < self.h

    def get(self, x, y):
        return self.px[y * self.w + x] if self.inside(x, y) else CLEAR

    def set(self, x, y, col):
        if col is not None and self.inside(x, y):
            self.px[y * self.w + x] = col

    def rect(self, x0, y0, x1, y1, col):
        """Fills x0..=x1, y0..=y1 with `col` (a colour or a function of (x, y))."""
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.set(x, y, col(x, y) if callable(col) else col)

    def ellipse(self, cx, cy, rx, ry, col):
        """Fills the ellipse centred on (cx, cy); `col` may be a function of (x, y, nx, ny)."""
        for y in range(math.floor(cy - ry), math.ceil(cy + ry) + 1):
            for x in range(math.floor(cx - rx), math.ceil(cx + rx) + 1):
                nx, ny = (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry
                if nx * nx + ny * ny <= 1.0:
                    self.set(x, y, col(x, y, nx, ny) if callable(col) else col)

    def poly(self, points, col):
        """Fills a polygon (even-odd rule, tested at pixel centres)."""
        ys = [p[1] for p in points]
        xs = [p[0] for p in points]
        for y in range(math.floor(min(ys)), math.ceil(max(ys)) + 1):
            for x in range(math.floor(min(xs)), math.ceil(max(xs)) + 1):
                px, py = x + 0.5, y + 0.5
                inside = False
                for i in range(len(points)):
                    (ax, ay), (bx, by) = points[i], points[i - 1]
                    if (ay > py) != (by > py) and px < (bx - ax) * (py - ay) / (by - ay) + ax:
                        inside = not inside
                if inside:
                    self.set(x, y, col(x, y) if callable(col) else col)

    def line(self, x0, y0, x1, y1, col):
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        while True:
            self.set(x0, y0, col)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def outline(self, col=INK):
        """Rings every opaque shape with `col` (a clear pixel beside an opaque one)."""
        solid = [p[3] == 255 for p in self.px]
        for y in range(self.h):
            for x in range(self.w):
                if solid[y * self.w + x]:
                    continue
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nx, ny = x + dx, y + dy
                    if self.inside(nx, ny) and solid[ny * self.w + nx]:
                        self.set(x, y, col)
                        break

    def blit(self, other, ox, oy):
        for y in range(other.h):
            for x in range(other.w):
                p = other.get(x, y)
                if p[3] == 255 or (p[3] and self.get(ox + x, oy + y)[3] == 0):
                    self.set(ox + x, oy + y, p)

    def scaled(self, k):
        out = Img(self.w * k, self.h * k)
        out.px = [self.px[(y // k) * self.w + x // k] for y in range(out.h) for x in range(out.w)]
        return out

    def png(self):
        """The image as PNG bytes (8-bit RGBA, no ancillary chunks: deterministic)."""
        for p in self.px:
            if p not in PALETTE:
                raise ValueError(f"colour {p} is not in the palette")
        raw = bytearray()
        for y in range(self.h):
            raw.append(0)
            for p in self.px[y * self.w : (y + 1) * self.w]:
                raw.extend(p)

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.w, self.h, 8, 6, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b"")
        )


def lit(ramp, base, spread=2, light=(-0.55, -0.65, 0.52)):
    """A colour function for `Img.ellipse` that shades a dome lit from the upper left."""
    lx, ly, lz = light

    def colour(x, y, nx, ny):
        nz = math.sqrt(max(0.0, 1 - nx * nx - ny * ny))
        d = nx * lx + ny * ly + nz * lz
        return c(ramp, base + round(d * spread))

    return colour


# ---------------------------------------------------------------------------------------------
# Sprite-set masks.

N, NE, E, SE, S, SW, W, NW = 1, 2, 4, 8, 16, 32, 64, 128


def blob_reduce(mask):
    """Drops each corner bit unless both edges beside it are set."""
    for corner, a, b in ((NE, N, E), (SE, S, E), (SW, S, W), (NW, N, W)):
        if mask & corner and not (mask & a and mask & b):
            mask &= ~corner
    return mask


BLOB47 = sorted({blob_reduce(m) for m in range(256)})
assert len(BLOB47) == 47 and BLOB47[0] == 0 and BLOB47[-1] == 255


def wang_edges(index):
    """(n, e, s, w) connections of Wang16 piece `index` (N*1 + E*2 + S*4 + W*8)."""
    return bool(index & 1), bool(index & 2), bool(index & 4), bool(index & 8)


def sprite_set(pieces, columns):
    """Lays `pieces` (32×32 images) left to right, `columns` to a row."""
    rows = (len(pieces) + columns - 1) // columns
    sheet = Img(columns * CELL, rows * CELL)
    for i, piece in enumerate(pieces):
        sheet.blit(piece, (i % columns) * CELL, (i // columns) * CELL)
    return sheet


def wang16(draw):
    """The 16 pieces of a Wang set; `draw(n, e, s, w)` draws one piece from its edges."""
    return sprite_set([draw(*wang_edges(i)) for i in range(16)], 4)


def blob47(draw):
    """The 47 pieces of a blob set; `draw(mask)` draws one piece from its reduced mask."""
    return sprite_set([draw(m) for m in BLOB47], 8)


# ---------------------------------------------------------------------------------------------
# Floors: a texture repeating every cell, with a shadow along each edge whose neighbour is not
# floor (a wall's shadow falls on the floor below it).


def texture(fn):
    img = Img(CELL, CELL)
    for y in range(CELL):
        for x in range(CELL):
            img.set(x, y, fn(x, y))
    return img


def stone_floor(x, y):
    row = y // 16
    off = 8 if row % 2 else 0
    sx = (x + off) % 32
    col = sx // 16
    lx, ly = sx % 16, y % 16
    if lx == 15 or ly == 15:
        return c("stone", 0)
    tone = 2 + (hash2(col, row, 7) % 2)
    r = rand01(x, y, 3)
    if lx == 0 or ly == 0:
        return c("stone", tone + 1)
    if lx == 14 or ly == 14:
        return c("stone", tone - 1)
    if r < 0.08:
        return c("stone", tone - 1)
    if r > 0.95:
        return c("stone", tone + 1)
    return c("stone", tone)


def wood_floor(x, y):
    plank = y // 8
    ly = y % 8
    seam = (plank * 13 + 6) % 32
    if ly == 7:
        return c("wood", 0)
    if x == seam:
        return c("wood", 0)
    if (x - seam) % 32 == 1:
        return c("wood", 3)
    tone = 2 + (plank % 2)
    if ly == 0:
        return c("wood", tone + 1)
    grain = value_noise(x * 0.5, y * 4, 11 + plank)
    if ly in (2, 5) and grain > 0.55:
        return c("wood", tone - 1)
    if rand01(x, y, 4) < 0.05:
        return c("wood", tone - 1)
    return c("wood", tone)


def grass_blades():
    """Where blades of grass stand: tip, stem and the shadow at their root, by pixel."""
    blades = {}
    for i in range(44):
        x, y = hash2(i, 0, 5) % 32, hash2(i, 1, 5) % 32
        lean = hash2(i, 2, 5) % 3 - 1
        blades[(x, y)] = 4
        blades[((x + lean) % 32, (y + 1) % 32)] = 3
        blades[((x + lean) % 32, (y + 2) % 32)] = 1
    return blades


BLADES = grass_blades()


def grass(x, y):
    if (x, y) in BLADES:
        return c("green", BLADES[(x, y)])
    n = value_noise(x, y, 21, step=4)
    base = 2 if n > 0.3 else 1
    if n > 0.78:
        base = 3
    r = rand01(x, y, 8)
    if r < 0.1:
        return c("green", base - 1)
    if r > 0.95:
        return c("green", base + 1)
    return c("green", base)


ROCKS = [(6, 7, 3, 2), (22, 5, 2, 2), (14, 18, 4, 3), (26, 22, 3, 2), (5, 25, 2, 2), (18, 28, 2, 1), (28, 13, 2, 2)]


def rubble_texture():
    img = texture(stone_floor)
    for x, y, rx, ry in ROCKS:
        img.ellipse(x + 1, y + 1.5, rx + 0.5, ry + 0.5, c("stone", 0))  # its shadow
        img.ellipse(x, y, rx + 0.5, ry + 0.5, lit("stone", 3, 2))
    return img


def moss(x, y):
    n = value_noise(x, y, 31)
    m = value_noise(x, y, 37, step=4)
    if n * 0.7 + m * 0.3 > 0.5:
        level = 1 + (1 if m > 0.55 else 0) + (1 if rand01(x, y, 9) > 0.85 else 0)
        return c("green", level)
    if n * 0.7 + m * 0.3 > 0.45:
        return c("green", 0)
    return stone_floor(x, y)


def floor_piece(tex, n, e, s, w):
    """One Wang piece of a floor: its texture, shaded along the edges that do not connect."""
    img = Img(CELL, CELL)
    img.px = list(tex.px)
    for y in range(CELL):
        for x in range(CELL):
            p = img.get(x, y)
            depth = 0
            if not n and y < 6:
                depth = max(depth, 3 if y < 2 else (2 if y < 4 else 1))
            if not w and x < 3:
                depth = max(depth, 2 if x < 1 else 1)
            if not e and x > 29:
                depth = max(depth, 1)
            if not s and y > 30:
                depth = max(depth, 1)
            if depth:
                img.set(x, y, shade(p, -depth))
    return img


# ---------------------------------------------------------------------------------------------
# Walls.

FACE = 12  # the height of a wall's face where nothing stands in front of it


def bricks(x, y, top):
    """Brick face pixels; `top` is the row the face starts at."""
    fy = y - top
    row = fy // 5
    ly = fy % 5
    off = 5 if row % 2 else 0
    bx = (x + off) % 10
    if ly == 4 or bx == 9:
        return c("stone", 1)
    tone = 3 + (hash2((x + off) // 10, row, 13) % 2) - 1
    if ly == 0 or bx == 0:
        return c("stone", tone + 1)
    if rand01(x, y, 14) < 0.07:
        return c("stone", tone - 1)
    return c("stone", tone)


def wall_top(x, y):
    """The top of a wall mass: dark rough stone."""
    r = rand01(x, y, 17)
    n = value_noise(x, y, 18, step=4)
    if r < 0.06:
        return c("stone", 0)
    if n > 0.62:
        return c("stone", 2)
    return c("stone", 1)


def wall_piece(mask):
    """One blob piece of a stone wall: its top, a rim where it meets open ground, and a brick
    face along its south side when nothing wall-like is below it."""
    n, e, s, w = bool(mask & N), bool(mask & E), bool(mask & S), bool(mask & W)
    img = Img(CELL, CELL)
    face_top = CELL - FACE if not s else CELL
    for y in range(CELL):
        for x in range(CELL):
            if y >= face_top:
                col = bricks(x, y, face_top)
                if y == CELL - 1:
                    col = c("ink", 1)
                if not w and x == 0 or not e and x == CELL - 1:
                    col = INK
                elif not w and x == 1:
                    col = shade(col, 1)
                elif not e and x == CELL - 2:
                    col = shade(col, -1)
                img.set(x, y, col)
                continue
            col = wall_top(x, y)
            if not s and y == face_top - 1:
                col = c("stone", 5)  # the lit lip where the top turns into the face
            if not n and y == 0 or not w and x == 0 or not e and x == CELL - 1:
                col = INK
            elif not n and y == 1 or not w and x == 1:
                col = c("stone", 4)
            elif not e and x == CELL - 2:
                col = c("stone", 0)
            img.set(x, y, col)
    # Inner corners: both edges connect but the diagonal does not.
    for bit, a, b, (cx, cy), (dx, dy) in (
        (NW, N, W, (0, 0), (1, 1)),
        (NE, N, E, (CELL - 1, 0), (-1, 1)),
        (SW, S, W, (0, CELL - 1), (1, -1)),
        (SE, S, E, (CELL - 1, CELL - 1), (-1, -1)),
    ):
        if mask & a and mask & b and not mask & bit:
            img.set(cx, cy, INK)
            img.set(cx + dx, cy, INK)
            img.set(cx, cy + dy, INK)
            img.set(cx + dx, cy + dy, c("stone", 4) if dy > 0 else c("stone", 0))
    return img


def wall_face_piece(n, e, s, w):
    """One Wang piece of a wall's face (what the cave's rules lay where a wall has floor below):
    a lit lip on top, bricks, a dark foot, and end stones where the face stops."""
    img = Img(CELL, CELL)
    for y in range(CELL):
        for x in range(CELL):
            if y < 3:
                col = INK if (not n and y == 0) else (c("stone", 5) if y == 1 or (n and y == 0) else c("stone", 4))
            else:
                col = bricks(x, y, 3)
            if not s and y >= CELL - 2:
                col = c("ink", 1) if y == CELL - 1 else shade(col, -1)
            if not w and x == 0 or not e and x == CELL - 1:
                col = INK
            elif not w and x == 1:
                col = shade(col, 1)
            elif not e and x == CELL - 2:
                col = shade(col, -1)
            img.set(x, y, col)
    return img


# ---------------------------------------------------------------------------------------------
# Water: four frames of waves that drift east and loop.

WATER_FRAMES = 4


def water_frame(t):
    img = Img(CELL, CELL)
    tau = 2 * math.pi
    for y in range(CELL):
        for x in range(CELL):
            a = math.sin(tau * (x / 32 + t / WATER_FRAMES) + tau * y / 16)
            b = math.sin(tau * (2 * x / 32 - t / WATER_FRAMES) - tau * (y / 32))
            v = a * 0.65 + b * 0.35 + (rand01(x, y, 41) - 0.5) * 0.3
            if v > 0.88:
                col = c("water", 4)
            elif v > 0.55:
                col = c("water", 3)
            elif v < -0.75:
                col = c("water", 1)
            else:
                col = c("water", 2)
            img.set(x, y, col)
    # Glints that blink from frame to frame.
    for i in range(3):
        gx, gy = hash2(i, t, 43) % 30 + 1, hash2(i, t, 44) % 30 + 1
        img.set(gx, gy, c("water", 5))
        img.set(gx + 1, gy, c("water", 4))
    return img


# ---------------------------------------------------------------------------------------------
# Characters: 32×32, standing on the cell's bottom edge.


def shadow(img, cx=16, cy=29.5, rx=8, ry=2.2):
    img.ellipse(cx, cy, rx, ry, SHADOW)


def putit(ramp):
    """A putit: a slime blob with a shine and two beady eyes."""
    img = Img(CELL, CELL)
    shadow(img, rx=11)
    img.ellipse(16, 22, 12, 9.5, lit(ramp, 3, 2))
    # flatten the bottom onto the ground
    for x in range(5, 28):
        for y in range(27, 30):
            if img.get(x, y - 1)[3] == 255 and img.get(x, y - 1) != SHADOW and abs(x - 16) < 11:
                img.set(x, y, c(ramp, 1 if y == 29 else 2))
    img.ellipse(11, 17, 3, 2, c(ramp, 5))
    img.set(10, 16, c("white", 1))
    img.set(11, 16, c("white", 1))
    for ex in (13, 19):
        img.rect(ex, 20, ex + 1, 22, INK)
        img.set(ex, 20, c("white", 1))
    img.line(15, 25, 17, 25, c(ramp, 0))
    img.outline()
    return img


def humanoid(
    skin, hair, tunic, legs, boots, *, belt=("wood", 1), wide=False, hair_style="short", extra=None, pre=None
):
    """A person facing the viewer: head, body, arms, legs; `extra(img)` adds gear on top."""
    img = Img(CELL, CELL)
    shadow(img)
    if pre:
        pre(img)
    t0, t1 = (10, 21) if wide else (11, 20)
    # legs and boots
    for lx in (12, 17):
        img.rect(lx, 22, lx + 2, 27, lambda x, y, lx=lx: c(legs[0], legs[1] + (1 if x == lx else 0)))
        img.rect(lx, 27, lx + 2, 29, lambda x, y, lx=lx: c(boots[0], boots[1] + (1 if y == 27 else 0)))
    # body
    img.rect(t0, 14, t1, 22, lambda x, y: c(tunic[0], tunic[1] + (1 if x <= t0 + 1 else (-1 if x >= t1 - 1 else 0))))
    img.rect(t0, 21, t1, 21, c(*belt))
    img.set(15, 21, c("gold", 2))
    # arms and hands
    for ax in (t0 - 2, t1 + 1):
        img.rect(ax, 15, ax + 1, 20, lambda x, y, ax=ax: c(tunic[0], tunic[1] + (0 if ax < 16 else -1)))
        img.rect(ax, 21, ax + 1, 22, c(skin, 2))
    # head
    img.rect(12, 5, 19, 13, lambda x, y: c(skin, 2 if x < 18 else 1))
    img.set(12, 5, CLEAR)
    img.set(19, 5, CLEAR)
    img.set(12, 13, CLEAR)
    img.set(19, 13, CLEAR)
    img.rect(14, 9, 14, 10, INK)
    img.rect(17, 9, 17, 10, INK)
    img.set(15, 12, c(skin, 1))
    img.set(16, 12, c(skin, 1))
    if hair:
        img.rect(12, 4, 19, 6, lambda x, y: c(hair[0], hair[1] + (1 if y == 4 and x < 17 else 0)))
        img.rect(12, 7, 12, 9 if hair_style == "short" else 12, c(*hair))
        img.rect(19, 7, 19, 9 if hair_style == "short" else 12, c(hair[0], hair[1] - 1))
        img.set(13, 7, c(*hair))
    if extra:
        extra(img)
    img.outline()
    return img


def player():
    def gear(img):
        # a red scarf and a short sword held at the side
        img.rect(12, 14, 19, 15, lambda x, y: c("red", 2 if x < 17 else 1))
        img.rect(13, 16, 14, 17, c("red", 1))
        img.line(25, 12, 25, 20, c("metal", 3))
        img.line(26, 13, 26, 20, c("metal", 1))
        img.rect(23, 21, 28, 21, c("gold", 2))
        img.rect(25, 22, 26, 24, c("wood", 1))

    return humanoid("skin", ("wood", 2), ("water", 3), ("wood", 1), ("wood", 0), extra=gear)


def town_guard():
    def spear(img):
        img.line(7, 2, 7, 29, c("wood", 2))
        img.poly([(5.5, 5), (7.5, -0.5), (9.5, 5)], c("metal", 3))
        img.set(7, 4, c("metal", 1))

    def gear(img):
        # helmet with a nose guard, blue tabard over mail
        img.rect(11, 3, 20, 7, lambda x, y: c("metal", 3 if x < 15 else (2 if x < 19 else 1)))
        img.rect(11, 7, 20, 7, c("metal", 1))
        img.rect(15, 7, 16, 10, c("metal", 2))
        img.rect(13, 15, 18, 22, lambda x, y: c("water", 2 if x < 17 else 1))
        img.rect(15, 16, 16, 19, c("gold", 2))
        img.rect(10, 14, 21, 14, c("metal", 2))

    return humanoid("skin", None, ("metal", 1), ("metal", 0), ("wood", 0), extra=gear, pre=spear)


def shopkeeper():
    def gear(img):
        # a brimmed hat, a moustache and a green apron
        img.rect(10, 5, 21, 5, c("wood", 1))
        img.rect(12, 1, 19, 4, lambda x, y: c("wood", 2 if x < 17 else 1))
        img.rect(12, 3, 19, 3, c("red", 1))
        img.rect(14, 11, 17, 11, c("wood", 0))
        img.set(13, 12, c("wood", 0))
        img.set(18, 12, c("wood", 0))
        img.rect(12, 16, 19, 24, lambda x, y: c("green", 3 if x < 16 else 2))
        img.rect(12, 16, 19, 16, c("green", 1))
        img.rect(14, 19, 17, 20, c("green", 1))

    return humanoid(
        "skin", ("wood", 1), ("white", 0), ("wood", 1), ("wood", 0), wide=True, belt=("green", 1), extra=gear
    )


def yeek():
    """A yeek: a small, big-eared, big-eyed creature."""
    img = Img(CELL, CELL)
    shadow(img, rx=7)
    for fx in (12, 18):
        img.rect(fx, 27, fx + 2, 29, c("sand", 0))
    img.ellipse(16, 23.5, 6.5, 5.5, lit("sand", 2, 1))
    img.poly([(9, 15), (2, 7), (11, 11)], c("sand", 2))
    img.poly([(23, 15), (30, 7), (21, 11)], c("sand", 1))
    img.poly([(8, 13), (4, 9), (10, 12)], c("pink", 1))
    img.poly([(24, 13), (28, 9), (22, 12)], c("pink", 1))
    img.ellipse(16, 14, 7.5, 6.5, lit("sand", 2, 1))
    for ex in (12, 18):
        img.rect(ex, 12, ex + 2, 15, INK)
        img.set(ex, 12, c("white", 1))
    img.rect(15, 17, 16, 17, c("pink", 0))
    img.rect(9, 22, 10, 25, c("sand", 2))
    img.rect(22, 22, 23, 25, c("sand", 1))
    img.outline()
    return img


# ---------------------------------------------------------------------------------------------
# Items: small things lying on the floor.


def putitoro():
    img = Img(CELL, CELL)
    shadow(img, cy=26, rx=10)
    img.rect(7, 18, 24, 24, lambda x, y: c("white", 1 if y < 21 else 0))
    img.rect(6, 13, 25, 18, lambda x, y: c("pink", 2 if y == 13 else (1 if (x + y) % 7 else 0)))
    img.rect(14, 13, 17, 24, lambda x, y: c("green", 0))
    img.rect(14, 13, 17, 13, c("green", 1))
    img.outline()
    return img


def potion():
    img = Img(CELL, CELL)
    shadow(img, cy=28, rx=7)
    img.ellipse(16, 21.5, 7, 6.5, lit("teal", 1, 1))
    img.rect(14, 9, 17, 15, lambda x, y: c("white", 0 if x > 15 else 1))
    img.rect(14, 10, 17, 14, lambda x, y: c("teal", 2 if x == 14 else 1))
    img.rect(13, 8, 18, 8, c("white", 1))
    img.rect(14, 5, 17, 7, lambda x, y: c("wood", 3 if x < 16 else 2))
    img.set(12, 19, c("white", 1))
    img.set(12, 20, c("white", 1))
    img.set(13, 18, c("white", 1))
    img.outline()
    return img


def dagger():
    img = Img(CELL, CELL)
    shadow(img, cy=27, rx=9, ry=1.8)
    img.poly([(8, 24), (22, 8), (25, 7), (24, 10), (10, 26)], lambda x, y: c("metal", 3 if x + y < 32 else 2))
    img.line(11, 23, 23, 9, c("metal", 1))
    img.line(5, 20, 11, 27, c("gold", 2))
    img.line(6, 20, 12, 26, c("gold", 1))
    img.line(4, 28, 8, 24, c("wood", 1))
    img.line(5, 28, 8, 25, c("wood", 2))
    img.set(3, 29, c("gold", 2))
    img.outline()
    return img


def leather_armor():
    img = Img(CELL, CELL)
    shadow(img, cy=29, rx=11)
    body = [(9, 6), (13, 6), (16, 9), (19, 6), (23, 6), (27, 11), (24, 14), (23, 28), (9, 28), (8, 14), (5, 11)]
    img.poly(body, lambda x, y: c("wood", 3 if x < 14 else (2 if x < 22 else 1)))
    img.line(16, 10, 16, 27, c("wood", 0))
    for y in range(12, 26, 3):
        img.set(15, y, c("wood", 4))
        img.set(17, y, c("wood", 4))
    img.rect(9, 21, 23, 22, c("wood", 0))
    img.rect(15, 21, 17, 22, c("gold", 2))
    img.outline()
    return img


def helmet():
    img = Img(CELL, CELL)
    shadow(img, cy=28, rx=10)
    img.ellipse(16, 19, 10, 10, lit("metal", 2, 2))
    img.rect(5, 20, 27, 30, CLEAR)
    img.rect(6, 19, 26, 21, lambda x, y: c("metal", 2 if y == 19 else 1))
    img.rect(15, 22, 17, 26, c("metal", 2))
    img.line(16, 9, 16, 18, c("metal", 3))
    for x in (8, 12, 20, 24):
        img.set(x, 20, c("metal", 3))
    img.outline()
    return img


def bag():
    img = Img(CELL, CELL)
    shadow(img, cy=28.5, rx=10)
    img.ellipse(16, 21, 10, 8, lit("wood", 2, 2))
    img.poly([(12, 14), (20, 14), (22, 8), (10, 8)], lambda x, y: c("wood", 3 if x < 16 else 2))
    img.rect(11, 13, 21, 14, c("red", 1))
    img.line(20, 14, 23, 17, c("red", 1))
    img.line(9, 20, 9, 24, c("wood", 4))
    img.outline()
    return img


def gold_piece():
    img = Img(CELL, CELL)
    shadow(img, cy=27, rx=11)
    for cx, cy in ((11, 24), (21, 24), (16, 25), (14, 20), (19, 20), (16, 16)):
        img.ellipse(cx, cy, 5, 3, lambda x, y, nx, ny: c("gold", 1 if ny > 0.4 else (3 if nx < -0.2 and ny < 0 else 2)))
    for cx, cy in ((11, 24), (21, 24), (16, 25), (14, 20), (19, 20), (16, 16)):
        img.set(cx - 1, cy - 1, c("gold", 3))
        img.line(cx - 2, cy + 2, cx + 2, cy + 2, c("gold", 0))
    img.outline()
    return img


# ---------------------------------------------------------------------------------------------
# Features.


def door():
    img = Img(CELL, CELL)
    img.rect(2, 0, 29, 31, lambda x, y: c("stone", 3 if x < 16 else 2))
    img.rect(2, 0, 29, 0, c("stone", 4))
    img.ellipse(16, 10, 11, 9, c("wood", 0))
    img.rect(5, 10, 26, 31, c("wood", 0))
    planks = lambda x, y: c("wood", 0) if (x - 6) % 5 == 4 else c("wood", 3 if (x - 6) % 5 == 0 else 2)
    img.ellipse(16, 11, 10, 8, lambda x, y, nx, ny: planks(x, y))
    img.rect(6, 11, 25, 31, planks)
    for by in (8, 24):
        img.rect(6, by, 25, by + 1, lambda x, y: c("metal", 2 if y == by else 1))
        for bx in (8, 14, 19, 24):
            img.set(bx, by, c("metal", 3))
    img.ellipse(21.5, 17.5, 2, 2, c("gold", 2))
    img.ellipse(21.5, 17.5, 1, 1, c("wood", 0))
    img.set(20, 16, c("gold", 3))
    img.rect(0, 0, 1, 31, c("stone", 1))
    img.rect(30, 0, 31, 31, c("stone", 0))
    return img


def stairs_down():
    img = Img(CELL, CELL)
    img.rect(3, 3, 28, 29, lambda x, y: c("stone", 4 if y == 3 or x == 3 else (1 if x == 28 or y == 29 else 3)))
    for i in range(5):
        y0 = 24 - i * 4
        img.rect(6, y0, 25, y0 + 3, lambda x, y, i=i: c("stone", 3 - i) if i < 4 else c("ink", 0))
        if i < 4:
            img.rect(6, y0, 25, y0, c("stone", 4 - i))
    img.rect(6, 5, 25, 7, c("ink", 0))
    img.rect(6, 5, 6, 27, c("ink", 1))
    img.rect(25, 5, 25, 27, c("ink", 1))
    img.outline()
    return img


def stairs_up():
    img = Img(CELL, CELL)
    shadow(img, cy=29.5, rx=13)
    for i in range(6):
        y0 = 24 - i * 4
        x0, x1 = 5 + i, 26 - i
        img.rect(x0, y0, x1, y0 + 5, lambda x, y, i=i: c("stone", 2 + i // 2))
        img.rect(x0, y0, x1, y0, c("stone", 5 if i > 2 else 4))
        img.rect(x0, y0 + 3, x1, y0 + 5, lambda x, y, i=i: c("stone", 1 + i // 3))
    img.line(4, 29, 10, 3, c("wood", 2))
    img.line(27, 29, 21, 3, c("wood", 1))
    img.outline()
    return img


FOUNTAIN_FRAMES = 4


def fountain(t):
    img = Img(CELL, CELL)
    shadow(img, cy=29.5, rx=14)
    img.ellipse(16, 23, 14, 7, lit("stone", 3, 2))
    img.ellipse(16, 22, 11, 4.5, c("water", 2))
    img.ellipse(15, 21.5, 7, 2.5, c("water", 3))
    img.rect(14, 11, 17, 22, lambda x, y: c("stone", 4 if x < 16 else 3))
    img.ellipse(16, 11, 4, 1.5, c("stone", 4))
    # the jet and the drops falling back, moving down a step each frame
    img.rect(15, 3, 16, 10, lambda x, y: c("water", 5 if (y + t) % 3 else 4))
    for side in (-1, 1):
        for k in range(4):
            step = (k * 3 + t) % 12
            dx = side * (2 + step // 2)
            dy = 4 + (step * step) // 10
            img.set(16 + dx - (1 if side < 0 else 0), dy, c("water", 4 if k % 2 else 5))
    img.set(8 + t * 2, 22, c("water", 5))
    img.set(22 - t, 23, c("water", 4))
    img.outline()
    return img


# ---------------------------------------------------------------------------------------------
# Map effects.

FIRE_FRAMES = 4


def fire(t):
    img = Img(CELL, CELL)
    tips = [(8, 12), (12, 5), (16, 2), (20, 6), (24, 13)]
    pts = [(6, 29)]
    for i, (x, y) in enumerate(tips):
        wob = (hash2(i, t, 51) % 5) - 2
        pts.append((x + (hash2(i, t, 52) % 3) - 1, y + wob))
        if i < len(tips) - 1:
            pts.append((x + 2, 18 + (hash2(i, t, 53) % 4)))
    pts.append((26, 29))
    img.poly(pts, c("red", 1))
    inner = [(9 + dx * 0.8 + 1.5, 29 + (dy - 29) * 0.7 + 3) for dx, dy in pts]
    img.poly([(x - 1.5, y) for x, y in inner], c("red", 3))
    core = [(16 + (x - 16) * 0.45, 29 + (y - 29) * 0.4 + 1) for x, y in pts]
    img.poly(core, c("red", 4))
    img.ellipse(16, 27.5, 5, 2, c("red", 5))
    for k in range(3):
        ex, ey = 8 + hash2(k, t, 54) % 16, 1 + hash2(k, t, 55) % 9
        img.set(ex, ey, c("red", 4 if k % 2 else 3))
    img.outline(c("red", 0))
    return img


def puddle():
    img = Img(CELL, CELL)
    img.ellipse(16, 23, 12, 5.5, c("water", 1))
    img.ellipse(15.5, 22.5, 10.5, 4.5, c("water", 2))
    img.ellipse(13, 21.5, 6, 2, c("water", 3))
    img.line(10, 21, 13, 20, c("water", 4))
    img.set(21, 24, c("water", 4))
    img.set(22, 24, c("water", 3))
    return img


# ---------------------------------------------------------------------------------------------
# The sheets.


def strip(images):
    sheet = Img(CELL * len(images), CELL)
    for i, image in enumerate(images):
        sheet.blit(image, i * CELL, 0)
    return sheet


def stack(rows):
    sheet = Img(max(r.w for r in rows), sum(r.h for r in rows))
    y = 0
    for r in rows:
        sheet.blit(r, 0, y)
        y += r.h
    return sheet


STONE = texture(stone_floor)

# The order of the pieces on a sheet is the order the Lua declarations name their regions in.
CHARAS = ["player", "putit", "red_putit", "yeek", "town_guard", "shopkeeper"]
ITEMS = ["putitoro", "potion_of_sight", "dagger", "leather_armor", "helmet", "bag", "gold_piece"]
FEATS = ["door", "stairs_down", "stairs_up"]


def sheets():
    """Every sheet, by its path under assets/."""
    chara = {
        "player": player(),
        "putit": putit("water"),
        "red_putit": putit("red"),
        "yeek": yeek(),
        "town_guard": town_guard(),
        "shopkeeper": shopkeeper(),
    }
    items = {
        "putitoro": putitoro(),
        "potion_of_sight": potion(),
        "dagger": dagger(),
        "leather_armor": leather_armor(),
        "helmet": helmet(),
        "bag": bag(),
        "gold_piece": gold_piece(),
    }
    feats = {"door": door(), "stairs_down": stairs_down(), "stairs_up": stairs_up()}
    return {
        "tiles/floor_stone.png": wang16(lambda *edges: floor_piece(STONE, *edges)),
        "tiles/floor_wood.png": wang16(lambda *edges: floor_piece(texture(wood_floor), *edges)),
        "tiles/grass.png": wang16(lambda *edges: floor_piece(texture(grass), *edges)),
        "tiles/rubble.png": wang16(lambda *edges: floor_piece(rubble_texture(), *edges)),
        "tiles/moss.png": wang16(lambda *edges: floor_piece(texture(moss), *edges)),
        "tiles/wall_stone.png": blob47(wall_piece),
        "tiles/wall_face.png": wang16(wall_face_piece),
        "tiles/water.png": strip([water_frame(t) for t in range(WATER_FRAMES)]),
        "chara/charas.png": strip([chara[k] for k in CHARAS]),
        "items/items.png": strip([items[k] for k in ITEMS]),
        "feats/feats.png": strip([feats[k] for k in FEATS]),
        "feats/fountain.png": strip([fountain(t) for t in range(FOUNTAIN_FRAMES)]),
        "mefs/mefs.png": stack([strip([fire(t) for t in range(FIRE_FRAMES)]), strip([puddle()])]),
    }


# ---------------------------------------------------------------------------------------------
# Preview: a contact sheet and a mock map drawn with the same piece rules the engine uses.

MOCK = [
    "##########################",
    "#,,,,,,,,,,,,,,,,,,,,,,,,#",
    "#,,,#######,,,,,,,,~~~,,,#",
    "#,,,#_____#,,,,,,,~~~~~,,#",
    "#,,,#_____#,,,,,,,,~~~,,,#",
    "#,,,###_###,,,,,,,,,,,,,,#",
    "#........................#",
    "#,,,,,,,,,,,,,,,,,,,,,,,,#",
    "####=====#######=====#####",
    "####.:..\"=======.\".:.#####",
    "####..\"....:......\".######",
    "######=====#####=====#####",
    "##########################",
]
MOCK_TILES = {
    "#": "wall_stone",
    "=": "wall_face",
    ",": "grass",
    ".": "floor_stone",
    "_": "floor_wood",
    "~": "water",
    ":": "rubble",
    '"': "moss",
}
GROUP = {"wall_stone": "wall", "wall_face": "wall", "water": "water"}
MOCK_OBJECTS = [
    ("chara", "player", 12, 6),
    ("chara", "putit", 15, 2),
    ("chara", "red_putit", 7, 10),
    ("chara", "yeek", 14, 10),
    ("chara", "town_guard", 2, 6),
    ("chara", "shopkeeper", 8, 3),
    ("item", "putitoro", 6, 3),
    ("item", "potion_of_sight", 14, 7),
    ("item", "dagger", 16, 7),
    ("item", "leather_armor", 5, 9),
    ("item", "helmet", 18, 10),
    ("item", "bag", 4, 10),
    ("item", "gold_piece", 10, 10),
    ("feat", "door", 7, 5),
    ("feat", "stairs_down", 20, 9),
    ("feat", "stairs_up", 22, 6),
    ("mef", "fire", 16, 9),
    ("mef", "puddle", 12, 9),
]


def region(sheet, index, columns):
    out = Img(CELL, CELL)
    ox, oy = (index % columns) * CELL, (index // columns) * CELL
    for y in range(CELL):
        for x in range(CELL):
            out.set(x, y, sheet.get(ox + x, oy + y))
    return out


def mock_map(all_sheets, t=0):
    h, w = len(MOCK), len(MOCK[0])
    out = Img(w * CELL, h * CELL, c("ink", 0))

    def group(x, y):
        if not (0 <= x < w and 0 <= y < h):
            return None  # map edges connect: handled by the caller
        tile = MOCK_TILES[MOCK[y][x]]
        return GROUP.get(tile, "floor")

    for y in range(h):
        for x in range(w):
            tile = MOCK_TILES[MOCK[y][x]]
            mine = group(x, y)

            def joins(dx, dy):
                g = group(x + dx, y + dy)
                return g is None or g == mine

            sheet = all_sheets[f"tiles/{tile}.png"]
            if tile == "water":
                piece = region(sheet, t % WATER_FRAMES, WATER_FRAMES)
            elif tile == "wall_stone":
                mask = sum(
                    bit
                    for bit, (dx, dy) in zip(
                        (N, NE, E, SE, S, SW, W, NW),
                        ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)),
                    )
                    if joins(dx, dy)
                )
                piece = region(sheet, BLOB47.index(blob_reduce(mask)), 8)
            else:
                index = sum(bit for bit, (dx, dy) in zip((1, 2, 4, 8), ((0, -1), (1, 0), (0, 1), (-1, 0))) if joins(dx, dy))
                piece = region(sheet, index, 4)
            out.blit(piece, x * CELL, y * CELL)
    for kind, name, x, y in MOCK_OBJECTS:
        if kind == "chara":
            piece = region(all_sheets["chara/charas.png"], CHARAS.index(name), len(CHARAS))
        elif kind == "item":
            piece = region(all_sheets["items/items.png"], ITEMS.index(name), len(ITEMS))
        elif kind == "mef":
            piece = region(all_sheets["mefs/mefs.png"], t % FIRE_FRAMES if name == "fire" else FIRE_FRAMES, FIRE_FRAMES)
        else:
            piece = region(all_sheets["feats/feats.png"], FEATS.index(name), len(FEATS))
        out.blit(piece, x * CELL, y * CELL)
    out.blit(region(all_sheets["feats/fountain.png"], t % FOUNTAIN_FRAMES, FOUNTAIN_FRAMES), 10 * CELL, 2 * CELL)
    return out


def preview(all_sheets):
    parts = [mock_map(all_sheets)]
    for name in sorted(all_sheets):
        parts.append(all_sheets[name])
    width = max(p.w for p in parts)
    height = sum(p.h + 8 for p in parts)
    out = Img(width, height, c("ink", 1))
    y = 0
    for p in parts:
        out.blit(p, 0, y)
        y += p.h + 8
    return out.scaled(2)


def main(argv):
    all_sheets = sheets()
    for name, sheet in sorted(all_sheets.items()):
        path = os.path.join(HERE, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = sheet.png()
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        print(f"{name}: {sheet.w}x{sheet.h}, {len(data)} bytes")
    if len(argv) == 3 and argv[1] == "--preview":
        with open(argv[2], "wb") as f:
            f.write(preview(all_sheets).png())
        print(f"preview: {argv[2]}")
    elif len(argv) != 1:
        sys.exit("usage: draw_art.py [--preview OUT.png]")


if __name__ == "__main__":
    main(sys.argv)
