"""The canvas the demo's art is drawn on: the palette, deterministic noise, images and
their PNG encoding."""

import math
import struct
import zlib

CELL = 32

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
