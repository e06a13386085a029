-- Tiles and map features.

data:add {
   _type = "base.map_tile",
   _id = "floor_stone",
   name = "stone floor",
   glyph = ".",
   color = { 120, 116, 110 },
   image = { source = "tiles/floor_stone.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "floor" },
   background = { 30, 28, 26 },
   tags = { "floor" },
}

data:add {
   _type = "base.map_tile",
   _id = "floor_wood",
   name = "wooden floor",
   glyph = "_",
   color = { 150, 110, 70 },
   image = { source = "tiles/floor_wood.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "floor" },
   background = { 52, 36, 22 },
   tags = { "floor" },
}

data:add {
   _type = "base.map_tile",
   _id = "grass",
   name = "grass",
   glyph = ",",
   color = { 90, 170, 80 },
   image = { source = "tiles/grass.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "floor" },
   background = { 20, 44, 18 },
   tags = { "floor" },
}

data:add {
   _type = "base.map_tile",
   _id = "wall_stone",
   name = "stone wall",
   glyph = "#",
   color = { 180, 170, 160 },
   image = { source = "tiles/wall_stone.png", x = 0, y = 0, width = 32, height = 32, autotile = "blob47", columns = 8, connects = "wall" },
   background = { 84, 78, 72 },
   is_solid = true,
   is_opaque = true,
   tags = { "wall" },
}

data:add {
   _type = "base.map_tile",
   _id = "water",
   name = "water",
   glyph = "~",
   color = { 90, 150, 255 },
   image = { source = "tiles/water.png", x = 0, y = 0, width = 32, height = 32, count_x = 4, frame_ms = 300, autotile = "wang16", columns = 4, connects = "water" },
   background = { 16, 36, 90 },
   is_solid = true,
   tags = { "water" },
}

data:add {
   _type = "base.map_tile",
   _id = "wall_face",
   name = "stone wall face",
   glyph = "=",
   color = { 200, 190, 176 },
   image = { source = "tiles/wall_face.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "wall" },
   background = { 104, 96, 88 },
   is_solid = true,
   is_opaque = true,
   tags = { "wall" },
}

data:add {
   _type = "base.map_tile",
   _id = "rubble",
   name = "rubble",
   glyph = ":",
   color = { 140, 132, 120 },
   image = { source = "tiles/rubble.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "floor" },
   background = { 30, 28, 26 },
   tags = { "floor" },
}

data:add {
   _type = "base.map_tile",
   _id = "moss",
   name = "moss",
   glyph = "\"",
   color = { 96, 150, 84 },
   image = { source = "tiles/moss.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4, connects = "floor" },
   background = { 26, 32, 22 },
   tags = { "floor" },
}

-- The cave's detail, laid from its walls and floors: a wall with open ground below shows
-- its face, rubble falls where a wall overhangs, and moss grows in open ground.
data:add {
   _type = "base.autotile_rule_set",
   _id = "cave_detail",
   doc = "Wall faces above open ground, rubble under walls, moss in the open.",
   rules = {
      {
         name = "moss",
         pattern = { ". . .", ". . .", ". . ." },
         legend = { ["."] = "tag:floor" },
         place = "elona.moss",
         chance = 0.12,
      },
      {
         name = "rubble under a wall",
         pattern = { "* # *", "* . *", "* * *" },
         legend = { ["#"] = "tag:wall", ["."] = "tag:floor" },
         place = "elona.rubble",
         chance = 0.25,
      },
      {
         name = "wall face",
         pattern = { "* * *", "* # *", "* . *" },
         legend = { ["#"] = "tag:wall", ["."] = "tag:floor" },
         place = "elona.wall_face",
      },
   },
}

data:add {
   _type = "base.feat",
   _id = "door",
   name = "door",
   glyph = "+",
   color = { 200, 140, 70 },
   image = { source = "feats/feats.png", x = 0, y = 0, width = 32, height = 32 },
   is_solid = true,
   is_opaque = true,
   is_open = false,
}

data:add {
   _type = "base.feat",
   _id = "fountain",
   name = "fountain",
   glyph = "{",
   color = { 120, 170, 255 },
   image = "feats/fountain.png",
   is_solid = true,
}

data:add {
   _type = "base.feat",
   _id = "stairs_down",
   name = "stairs down",
   glyph = ">",
   color = { 255, 255, 255 },
   image = { source = "feats/feats.png", x = 32, y = 0, width = 32, height = 32 },
   is_stairs = true,
   -- The map (file name) these stairs lead to; you arrive on its stairs up.
   to_map = "",
}

data:add {
   _type = "base.feat",
   _id = "stairs_up",
   name = "stairs up",
   glyph = "<",
   color = { 255, 255, 255 },
   image = { source = "feats/feats.png", x = 64, y = 0, width = 32, height = 32 },
   is_stairs = true,
   -- The map (file name) these stairs lead to; you arrive on its stairs down.
   to_map = "",
}
