-- Map effects: they stand on a cell for some turns (Mef.create(id, x, y, { duration = n }, map)).
data:add {
   _type = "base.mef",
   _id = "fire",
   name = "fire",
   glyph = "^",
   color = { 255, 90, 40 },
}

data:add {
   _type = "base.mef",
   _id = "puddle",
   name = "puddle",
   glyph = "~",
   color = { 110, 160, 255 },
}
