"""Tiles: the floors', walls' and water's sprite sets, each piece drawn from its neighbour mask."""

import functools
import math

from .canvas import CELL, INK, RAMPS, Img, c, hash2, lit, rand01, shade, value_noise


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
    """Flagstones, two rows a cell, the second row shifted half a stone; worn patches darken
    them here and there."""
    row = y // 16
    off = 8 if row % 2 else 0
    sx = (x + off) % 32
    lx, ly = sx % 16, y % 16
    if lx == 15 or ly == 15:
        return c("stone", 0)
    tone = 3 if value_noise(x, y, 7) > 0.3 else 2
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


def wall_pebbles():
    """Where the rough top of a wall catches the light (a lit pixel over a dark one)."""
    pebbles = {}
    for i in range(26):
        x, y = hash2(i, 0, 19) % 32, hash2(i, 1, 19) % 32
        pebbles[(x, y)] = 3
        pebbles[((x + 1) % 32, y)] = 2
        pebbles[(x, (y + 1) % 32)] = 0
        pebbles[((x + 1) % 32, (y + 1) % 32)] = 0
    return pebbles


PEBBLES = wall_pebbles()


def wall_top(x, y):
    """The top of a wall mass: dark rough stone."""
    if (x, y) in PEBBLES:
        return c("stone", PEBBLES[(x, y)])
    r = rand01(x, y, 17)
    n = value_noise(x, y, 18, step=4)
    if r < 0.08:
        return c("stone", 0)
    if n > 0.72 and r > 0.3:
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


@functools.cache
def water_frame(t):
    """Frame `t` of open water: four rows of wave crests a cell that bob and drift east, over
    deep water with darker patches; it tiles both ways and loops after the last frame."""
    img = Img(CELL, CELL)
    tau = 2 * math.pi
    phase = tau * t / WATER_FRAMES
    for y in range(CELL):
        for x in range(CELL):
            col = c("water", 1) if value_noise(x, y, 47, step=4) < 0.22 else c("water", 2)
            for band in range(4):
                crest = band * 8 + 4 + round(1.5 * math.sin(tau * (x / 32 + band / 4) + phase))
                dash = math.sin(tau * (x / 16 + band * 0.37) - phase)
                if y == crest and dash > 0.2:
                    col = c("water", 4) if dash > 0.8 else c("water", 3)
                elif y == crest + 1 and dash > 0.2:
                    col = c("water", 1)
            img.set(x, y, col)
    # Glints that blink from frame to frame.
    for i in range(3):
        gx, gy = hash2(i, t, 43) % 30 + 1, hash2(i, t, 44) % 30 + 1
        img.set(gx, gy, c("water", 5))
        img.set(gx + 1, gy, c("water", 4))
    return img


def water_piece(t, n, e, s, w):
    """Frame `t` of one Wang piece of water: the waves, darker under a bank that does not
    connect, with foam along it that comes and goes."""
    img = Img(CELL, CELL)
    img.px = list(water_frame(t).px)  # the frame drawn once, shared by its 16 pieces
    for y in range(CELL):
        for x in range(CELL):
            edge = min(y if not n else 99, x if not w else 99, CELL - 1 - x if not e else 99, CELL - 1 - y if not s else 99)
            if edge == 0:
                img.set(x, y, c("water", 0))
            elif edge == 1:
                img.set(x, y, c("water", 5) if hash2(x + y, t, 45) % 3 else c("water", 4))
            elif edge == 2:
                img.set(x, y, c("water", 4) if hash2(x * 3 + y, t, 46) % 4 == 0 else c("water", 1))
            elif edge == 3 and not n and y == 3:
                img.set(x, y, c("water", 1))
    return img


def animated_wang16(frames, draw):
    """A Wang set per frame, the sets side by side (frame j is the set again, j set-widths to
    the right); `draw(t, n, e, s, w)` draws one piece of frame t."""
    sets = [wang16(lambda *edges, t=t: draw(t, *edges)) for t in range(frames)]
    sheet = Img(sum(s.w for s in sets), sets[0].h)
    for j, one in enumerate(sets):
        sheet.blit(one, j * one.w, 0)
    return sheet
