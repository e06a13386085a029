Chara.create("elona.nope", 1, 1, { ownerless = true })
