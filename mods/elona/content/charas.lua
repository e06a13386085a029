-- Characters.

data:add {
   _type = "base.chara",
   _id = "player",
   name = "you",
   glyph = "@",
   color = { 255, 255, 255 },
   image = { source = "chara/charas.png", x = 0, y = 0, width = 32, height = 32 },
   max_hp = 40,
   hp = 40,
   strength = 6,
   dv = 4,
   relation = "ally",
}

data:add {
   _type = "base.chara",
   _id = "putit",
   name = "putit",
   glyph = "p",
   color = { 130, 200, 255 },
   image = { source = "chara/charas.png", x = 32, y = 0, width = 32, height = 32 },
   max_hp = 6,
   hp = 6,
   strength = 2,
   relation = "hostile",
}

data:add {
   _type = "base.chara",
   _id = "red_putit",
   name = "red putit",
   glyph = "p",
   color = { 255, 110, 100 },
   image = { source = "chara/charas.png", x = 64, y = 0, width = 32, height = 32 },
   level = 3,
   max_hp = 14,
   hp = 14,
   strength = 4,
   relation = "hostile",
}

data:add {
   _type = "base.chara",
   _id = "yeek",
   name = "yeek",
   glyph = "y",
   color = { 220, 200, 120 },
   image = { source = "chara/charas.png", x = 96, y = 0, width = 32, height = 32 },
   level = 2,
   max_hp = 9,
   hp = 9,
   strength = 3,
   relation = "hostile",
}

data:add {
   _type = "base.chara",
   _id = "town_guard",
   name = "town guard",
   glyph = "@",
   color = { 120, 160, 255 },
   image = { source = "chara/charas.png", x = 128, y = 0, width = 32, height = 32 },
   level = 10,
   max_hp = 80,
   hp = 80,
   strength = 12,
   pv = 8,
   relation = "neutral",
}

data:add {
   _type = "base.chara",
   _id = "shopkeeper",
   name = "shopkeeper",
   glyph = "@",
   color = { 255, 200, 120 },
   image = { source = "chara/charas.png", x = 160, y = 0, width = 32, height = 32 },
   level = 8,
   max_hp = 60,
   hp = 60,
   relation = "neutral",
}
