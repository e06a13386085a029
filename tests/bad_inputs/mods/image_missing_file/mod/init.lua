data:add { _type = "base.map_tile", _id = "lost", glyph = ".", image = "tiles/no_such_file.png" }
