#!/usr/bin/env python3
"""Draws the demo's art: every sheet under assets/ that the `elona` mod's prototypes name.

Run from anywhere (Python 3, standard library only):

    python3 assets/draw_art.py            # rewrites the sheets under assets/
    python3 assets/draw_art.py --preview OUT.png
                                          # also writes a contact sheet and a small mock map

The output is deterministic: the same bytes every run (no randomness, no timestamps; the
"noise" is an integer hash of the pixel's position). Every colour comes from the ramps of
drawing/canvas.py, and the script refuses to write a pixel of another colour.

Sprite sets are generated piece by piece from their neighbour masks, in the piece order the
engine reads (runtime/game/src/art.rs):
- Wang16: index = N*1 + E*2 + S*4 + W*8, laid 4 pieces a row.
- Blob47: the 8-bit mask N=1, NE=2, E=4, SE=8, S=16, SW=32, W=64, NW=128 with a corner bit
  dropped unless both its edges are set; the 47 masks that remain, sorted ascending, give the
  piece index; laid 8 pieces a row.
An animated set (the water) has its frames side by side, each frame the whole set again.

drawing/tiles.py draws the tiles, drawing/figures.py the characters, items, features and map
effects; this file lays them out on their sheets and writes them.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep assets/ free of __pycache__

from drawing import figures, tiles  # noqa: E402
from drawing.canvas import CELL, Img, c  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


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


STONE = tiles.texture(tiles.stone_floor)

# The order of the pieces on a sheet is the order the Lua declarations name their regions in.
CHARAS = ["player", "putit", "red_putit", "yeek", "town_guard", "shopkeeper"]
ITEMS = ["putitoro", "potion_of_sight", "dagger", "leather_armor", "helmet", "bag", "gold_piece"]
FEATS = ["door", "stairs_down", "stairs_up"]


def sheets():
    """Every sheet, by its path under assets/."""
    chara = {
        "player": figures.player(),
        "putit": figures.putit("water"),
        "red_putit": figures.putit("red"),
        "yeek": figures.yeek(),
        "town_guard": figures.town_guard(),
        "shopkeeper": figures.shopkeeper(),
    }
    items = {
        "putitoro": figures.putitoro(),
        "potion_of_sight": figures.potion(),
        "dagger": figures.dagger(),
        "leather_armor": figures.leather_armor(),
        "helmet": figures.helmet(),
        "bag": figures.bag(),
        "gold_piece": figures.gold_piece(),
    }
    feats = {"door": figures.door(), "stairs_down": figures.stairs_down(), "stairs_up": figures.stairs_up()}
    return {
        "tiles/floor_stone.png": tiles.wang16(lambda *edges: tiles.floor_piece(STONE, *edges)),
        "tiles/floor_wood.png": tiles.wang16(lambda *edges: tiles.floor_piece(tiles.texture(tiles.wood_floor), *edges)),
        "tiles/grass.png": tiles.wang16(lambda *edges: tiles.floor_piece(tiles.texture(tiles.grass), *edges)),
        "tiles/rubble.png": tiles.wang16(lambda *edges: tiles.floor_piece(tiles.rubble_texture(), *edges)),
        "tiles/moss.png": tiles.wang16(lambda *edges: tiles.floor_piece(tiles.texture(tiles.moss), *edges)),
        "tiles/wall_stone.png": tiles.blob47(tiles.wall_piece),
        "tiles/wall_face.png": tiles.wang16(tiles.wall_face_piece),
        "tiles/water.png": tiles.animated_wang16(tiles.WATER_FRAMES, tiles.water_piece),
        "chara/charas.png": strip([chara[k] for k in CHARAS]),
        "items/items.png": strip([items[k] for k in ITEMS]),
        "feats/feats.png": strip([feats[k] for k in FEATS]),
        "feats/fountain.png": figures.fountain(),
        "mefs/mefs.png": stack([strip([figures.fire(t) for t in range(figures.FIRE_FRAMES)]), strip([figures.puddle()])]),
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
WATER_SET_WIDTH = 4 * CELL
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


def region(sheet, index, columns, set_width=None):
    """Piece `index` of a sheet laid `columns` a row; with `set_width`, index // columns**2
    counts whole sets to the right (an animated set's frames)."""
    out = Img(CELL, CELL)
    ox, oy = (index % columns) * CELL, (index // columns) * CELL
    if set_width:
        frame, index = divmod(index, columns * columns)
        ox, oy = frame * set_width + (index % columns) * CELL, (index // columns) * CELL
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
            if tile == "wall_stone":
                mask = sum(
                    bit
                    for bit, (dx, dy) in zip(
                        (tiles.N, tiles.NE, tiles.E, tiles.SE, tiles.S, tiles.SW, tiles.W, tiles.NW),
                        ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)),
                    )
                    if joins(dx, dy)
                )
                piece = region(sheet, tiles.BLOB47.index(tiles.blob_reduce(mask)), 8)
            else:
                index = sum(bit for bit, (dx, dy) in zip((1, 2, 4, 8), ((0, -1), (1, 0), (0, 1), (-1, 0))) if joins(dx, dy))
                frame = t % tiles.WATER_FRAMES if tile == "water" else 0
                piece = region(sheet, index + frame * 4, 4, set_width=WATER_SET_WIDTH)
            out.blit(piece, x * CELL, y * CELL)
    for kind, name, x, y in MOCK_OBJECTS:
        if kind == "chara":
            piece = region(all_sheets["chara/charas.png"], CHARAS.index(name), len(CHARAS))
        elif kind == "item":
            piece = region(all_sheets["items/items.png"], ITEMS.index(name), len(ITEMS))
        elif kind == "mef":
            piece = region(all_sheets["mefs/mefs.png"], t % figures.FIRE_FRAMES if name == "fire" else figures.FIRE_FRAMES, figures.FIRE_FRAMES)
        else:
            piece = region(all_sheets["feats/feats.png"], FEATS.index(name), len(FEATS))
        out.blit(piece, x * CELL, y * CELL)
    out.blit(all_sheets["feats/fountain.png"], 10 * CELL, 2 * CELL)
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
