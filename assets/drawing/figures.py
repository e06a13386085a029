"""Things standing on a cell: characters, items, features and map effects, 32×32 each."""

import functools

from .canvas import CELL, CLEAR, INK, SHADOW, Img, c, hash2, lit


# ---------------------------------------------------------------------------------------------
# Characters: 32×32, standing on the cell's bottom edge.


def shadow(img, cx=16, cy=29.5, rx=8, ry=2.2):
    img.ellipse(cx, cy, rx, ry, SHADOW)


def figure(**shade):
    """Makes `draw(img, ...)` a sprite maker: it draws on a clear cell over its shadow (`shade`:
    `shadow`'s arguments), and the sprite is outlined."""

    def wrap(draw):
        @functools.wraps(draw)
        def make(*args, **kwargs):
            img = Img(CELL, CELL)
            shadow(img, **shade)
            draw(img, *args, **kwargs)
            img.outline()
            return img

        return make

    return wrap


@figure(rx=11)
def putit(img, ramp):
    """A putit: a slime blob with a shine and two beady eyes."""
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


@figure()
def humanoid(
    img, skin, hair, tunic, legs, boots, *, belt=("wood", 1), wide=False, hair_style="short", extra=None, pre=None
):
    """A person facing the viewer: head, body, arms, legs; `extra(img)` adds gear on top."""
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


@figure(rx=7)
def yeek(img):
    """A yeek: a small, big-eared, big-eyed creature."""
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


# ---------------------------------------------------------------------------------------------
# Items: small things lying on the floor.


@figure(cy=26, rx=10)
def putitoro(img):
    img.rect(7, 18, 24, 24, lambda x, y: c("white", 1 if y < 21 else 0))
    img.rect(6, 13, 25, 18, lambda x, y: c("pink", 2 if y == 13 else (1 if (x + y) % 7 else 0)))
    img.rect(14, 13, 17, 24, lambda x, y: c("green", 0))
    img.rect(14, 13, 17, 13, c("green", 1))


@figure(cy=28, rx=7)
def potion(img):
    img.ellipse(16, 21.5, 7, 6.5, lit("teal", 1, 1))
    img.rect(14, 9, 17, 15, lambda x, y: c("white", 0 if x > 15 else 1))
    img.rect(14, 10, 17, 14, lambda x, y: c("teal", 2 if x == 14 else 1))
    img.rect(13, 8, 18, 8, c("white", 1))
    img.rect(14, 5, 17, 7, lambda x, y: c("wood", 3 if x < 16 else 2))
    img.set(12, 19, c("white", 1))
    img.set(12, 20, c("white", 1))
    img.set(13, 18, c("white", 1))


@figure(cy=27, rx=9, ry=1.8)
def dagger(img):
    img.poly([(8, 24), (22, 8), (25, 7), (24, 10), (10, 26)], lambda x, y: c("metal", 3 if x + y < 32 else 2))
    img.line(11, 23, 23, 9, c("metal", 1))
    img.line(5, 20, 11, 27, c("gold", 2))
    img.line(6, 20, 12, 26, c("gold", 1))
    img.line(4, 28, 8, 24, c("wood", 1))
    img.line(5, 28, 8, 25, c("wood", 2))
    img.set(3, 29, c("gold", 2))


@figure(cy=29, rx=11)
def leather_armor(img):
    body = [(9, 6), (13, 6), (16, 9), (19, 6), (23, 6), (27, 11), (24, 14), (23, 28), (9, 28), (8, 14), (5, 11)]
    img.poly(body, lambda x, y: c("wood", 3 if x < 14 else (2 if x < 22 else 1)))
    img.line(16, 10, 16, 27, c("wood", 0))
    for y in range(12, 26, 3):
        img.set(15, y, c("wood", 4))
        img.set(17, y, c("wood", 4))
    img.rect(9, 21, 23, 22, c("wood", 0))
    img.rect(15, 21, 17, 22, c("gold", 2))


@figure(cy=28, rx=10)
def helmet(img):
    img.ellipse(16, 19, 10, 10, lit("metal", 2, 2))
    img.rect(5, 20, 27, 30, CLEAR)
    img.rect(6, 19, 26, 21, lambda x, y: c("metal", 2 if y == 19 else 1))
    img.rect(15, 22, 17, 26, c("metal", 2))
    img.line(16, 9, 16, 18, c("metal", 3))
    for x in (8, 12, 20, 24):
        img.set(x, 20, c("metal", 3))


@figure(cy=28.5, rx=10)
def bag(img):
    img.ellipse(16, 21, 10, 8, lit("wood", 2, 2))
    img.poly([(12, 14), (20, 14), (22, 8), (10, 8)], lambda x, y: c("wood", 3 if x < 16 else 2))
    img.rect(11, 13, 21, 14, c("red", 1))
    img.line(20, 14, 23, 17, c("red", 1))
    img.line(9, 20, 9, 24, c("wood", 4))


@figure(cy=27, rx=11)
def gold_piece(img):
    for cx, cy in ((11, 24), (21, 24), (16, 25), (14, 20), (19, 20), (16, 16)):
        img.ellipse(cx, cy, 5, 3, lambda x, y, nx, ny: c("gold", 1 if ny > 0.4 else (3 if nx < -0.2 and ny < 0 else 2)))
    for cx, cy in ((11, 24), (21, 24), (16, 25), (14, 20), (19, 20), (16, 16)):
        img.set(cx - 1, cy - 1, c("gold", 3))
        img.line(cx - 2, cy + 2, cx + 2, cy + 2, c("gold", 0))


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
    """A stone-framed opening with steps going down into the dark."""
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


@figure(cy=28, rx=12)
def material_spot(img):
    """A heap of broken rock with a vein of ore glinting in it: somewhere to gather from."""
    for cx, cy, rx, ry in ((10, 24, 6, 4), (21, 24, 7, 4.5), (15, 19, 6, 5), (20, 17, 4, 3)):
        img.ellipse(cx, cy, rx, ry, lambda x, y, nx, ny: c("stone", 1 if ny > 0.45 else (4 if nx < -0.3 and ny < 0 else 3)))
    for x, y in ((13, 18), (14, 19), (16, 21), (17, 22), (19, 16), (22, 23), (23, 24)):
        img.set(x, y, c("gold", 2))
    for x, y in ((14, 18), (19, 15), (22, 22)):
        img.set(x, y, c("gold", 3))


@figure(cy=29.5, rx=13)
def stairs_up(img):
    """A flight of stone steps seen from the side, climbing to the right: a lit tread on each
    step, its riser in half light, the stone below in shade."""
    steps, run, rise = 5, 5, 5
    for i in range(steps):
        x0, top = 3 + i * run, 29 - (i + 1) * rise
        img.rect(x0, top, 28, 29, lambda x, y: c("stone", 2 if y > 26 else 3))
        img.rect(x0, top, x0 + run - 1, top + 1, c("stone", 5))  # the tread
        img.rect(x0, top + 2, x0, 29, c("stone", 4))  # the riser's lit edge
    img.rect(26, 4, 28, 29, lambda x, y: c("stone", 1 if x > 26 else 2))  # the end wall


@figure(cy=29.5, rx=14)
def fountain(img):
    """A stone basin with a jet of water and the drops falling back (a still: it stands as the
    town's memory of it, `image = "feats/fountain.png"`)."""
    img.ellipse(16, 23, 14, 7, lit("stone", 3, 2))
    img.ellipse(16, 22, 11, 4.5, c("water", 2))
    img.ellipse(15, 21.5, 7, 2.5, c("water", 3))
    img.rect(14, 11, 17, 22, lambda x, y: c("stone", 4 if x < 16 else 3))
    img.ellipse(16, 11, 4, 1.5, c("stone", 4))
    img.rect(15, 3, 16, 10, lambda x, y: c("water", 5 if y % 3 else 4))
    for side in (-1, 1):
        for k in range(4):
            step = k * 3
            dx = side * (2 + step // 2)
            dy = 4 + (step * step) // 10
            img.set(16 + dx - (1 if side < 0 else 0), dy, c("water", 4 if k % 2 else 5))
    img.set(8, 22, c("water", 5))
    img.set(22, 23, c("water", 4))


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
