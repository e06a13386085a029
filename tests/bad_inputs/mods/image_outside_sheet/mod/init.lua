-- feats/fountain.png is 16×16: this region runs off its right edge.
data:add {
   _type = "base.feat",
   _id = "broken_fountain",
   image = { source = "feats/fountain.png", x = 8, y = 0, width = 16, height = 16 },
}
