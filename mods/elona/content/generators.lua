-- The demo's map generators, built on base's blocks (mods/base/mapgen.lua): a dungeon of
-- rooms joined by corridors with doors, and a cave. Map.generate("elona.dungeon", {}, seed).
local Gen = require("mod.base.mapgen")

data:add {
   _type = "base.map_generator",
   _id = "dungeon",
   doc = "Rooms split out of the floor and joined by corridors, a door where a corridor meets a room, stairs down far from the entrance, and monsters.",
   tile = "elona.wall_stone",
   params = {
      width = { type = "int", default = 80, min = 20, max = 400 },
      height = { type = "int", default = 40, min = 12, max = 400 },
      max_room = { type = "int", default = 14, min = 6, max = 60 },
      doors = { type = "float", default = 0.6, min = 0, max = 1 },
      monsters = { type = "int", default = 8, min = 0, max = 200 },
   },
   generate = function(map, params, rng)
      local _, doors = Gen.bsp_rooms(map, rng, { floor = "elona.floor_stone", max_leaf = params.max_room })
      for _, cell in ipairs(doors) do
         if rng:random() < params.doors then
            Feat.create("elona.door", cell[1], cell[2], {}, map)
         end
      end
      Gen.place_stairs_far_apart(map, rng, "elona.stairs_down")
      Gen.scatter(map, rng, { { "elona.putit", 3, "chara" }, { "elona.red_putit", 1, "chara" } }, params.monsters)
   end,
}

data:add {
   _type = "base.map_generator",
   _id = "cave",
   doc = "A cave grown by a cellular automaton, its pockets joined, stairs down far from the entrance, its detail laid by elona.cave_detail's rules.",
   tile = "elona.wall_stone",
   params = {
      width = { type = "int", default = 80, min = 20, max = 400 },
      height = { type = "int", default = 40, min = 12, max = 400 },
      fill = { type = "float", default = 0.45, min = 0.2, max = 0.7 },
      steps = { type = "int", default = 4, min = 0, max = 10 },
      monsters = { type = "int", default = 6, min = 0, max = 200 },
   },
   generate = function(map, params, rng)
      local grid = Gen.cave(map, rng, { floor = "elona.floor_stone", wall = "elona.wall_stone", fill = params.fill, steps = params.steps })
      Gen.connect_regions(map, rng, { floor = "elona.floor_stone", grid = grid })
      Gen.place_stairs_far_apart(map, rng, "elona.stairs_down", grid)
      map:apply_autotile("elona.cave_detail")
      Gen.scatter(map, rng, { { "elona.putit", 2, "chara" }, { "elona.yeek", 1, "chara" } }, params.monsters)
   end,
}
