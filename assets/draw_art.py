#!/usr/bin/env python3
"""Draws the demo's art: every sheet under assets/ that the `elona` mod's prototypes name.

Run from anywhere (Python 3, standard library only):

    python3 assets/draw_art.py            # rewrites the sheets under assets/
    python3 assets/draw_art.py --preview OUT.png
                                          # also writes every sheet on one picture

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
    """`images` (32×32 each) side by side."""
    sheet = Img(CELL * len(images), CELL)
    for i, image in enumerate(images):
        sheet.blit(image, i * CELL, 0)
    return sheet


def stack(rows):
    """`rows` one under the other."""
    sheet = Img(max(r.w for r in rows), sum(r.h for r in rows))
    y = 0
    for r in rows:
        sheet.blit(r, 0, y)
        y += r.h
    return sheet


def floor(tex):
    """The Wang set of a floor of texture `tex`."""
    return tiles.wang16(lambda *edges: tiles.floor_piece(tex, *edges))


def sheets():
    """Every sheet, by its path under assets/. The pieces of a sheet are in the order the Lua
    declarations name their regions in."""
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
    feats = {
        "door": figures.door(),
        "stairs_down": figures.stairs_down(),
        "stairs_up": figures.stairs_up(),
        "material_spot": figures.material_spot(),
    }
    return {
        "tiles/floor_stone.png": floor(tiles.texture(tiles.stone_floor)),
        "tiles/floor_wood.png": floor(tiles.texture(tiles.wood_floor)),
        "tiles/grass.png": floor(tiles.texture(tiles.grass)),
        "tiles/rubble.png": floor(tiles.rubble_texture()),
        "tiles/moss.png": floor(tiles.texture(tiles.moss)),
        "tiles/wall_stone.png": tiles.blob47(tiles.wall_piece),
        "tiles/wall_face.png": tiles.wang16(tiles.wall_face_piece),
        "tiles/water.png": tiles.animated_wang16(tiles.WATER_FRAMES, tiles.water_piece),
        "chara/charas.png": strip(list(chara.values())),
        "items/items.png": strip(list(items.values())),
        "feats/feats.png": strip(list(feats.values())),
        "feats/fountain.png": figures.fountain(),
        "mefs/mefs.png": stack([strip([figures.fire(t) for t in range(figures.FIRE_FRAMES)]), strip([figures.puddle()])]),
    }


# ---------------------------------------------------------------------------------------------
# Preview: every sheet on one picture, twice the size (to see the sheets in place on a map, draw
# it with `nefia render projects/demo/maps/town.ron --png OUT.png`).


def preview(all_sheets):
    """Every sheet, by name, one under the other on a dark ground, twice the size."""
    parts = [all_sheets[name] for name in sorted(all_sheets)]
    width = max(p.w for p in parts)
    height = sum(p.h + 8 for p in parts)
    out = Img(width, height, c("ink", 1))
    y = 0
    for p in parts:
        out.blit(p, 0, y)
        y += p.h + 8
    return out.scaled(2)


def main(argv):
    preview_to = argv[2] if len(argv) == 3 and argv[1] == "--preview" else None
    if len(argv) != 1 and preview_to is None:
        sys.exit("usage: draw_art.py [--preview OUT.png]")
    all_sheets = sheets()
    for name, sheet in sorted(all_sheets.items()):
        path = os.path.join(HERE, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = sheet.png()
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        print(f"{name}: {sheet.w}x{sheet.h}, {len(data)} bytes")
    if preview_to:
        with open(preview_to, "wb") as f:
            f.write(preview(all_sheets).png())
        print(f"preview: {preview_to}")


if __name__ == "__main__":
    main(sys.argv)
