Chara.create("elona.putit", 2^40, 0)
