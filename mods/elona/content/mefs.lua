-- Map effects: they stand on a cell for some turns (Mef.create(id, x, y, { duration = n }, map)).
data:add {
   _type = "base.mef",
   _id = "fire",
   name = "fire",
   glyph = "^",
   color = { 255, 90, 40 },
   image = { source = "mefs/mefs.png", x = 0, y = 0, width = 32, height = 32, count_x = 4, frame_ms = 120 },
}

data:add {
   _type = "base.mef",
   _id = "puddle",
   name = "puddle",
   glyph = "~",
   color = { 110, 160, 255 },
   image = { source = "mefs/mefs.png", x = 0, y = 32, width = 32, height = 32 },
}
