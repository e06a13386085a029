-- feats/fountain.png is 128×32 (four 32×32 frames): this region runs off its right edge.
data:add {
   _type = "base.feat",
   _id = "broken_fountain",
   image = { source = "feats/fountain.png", x = 120, y = 0, width = 16, height = 16 },
}
