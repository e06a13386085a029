-- The checks every map must pass (Map.validate, the editor's Problems, nefia check).
local Gen = require("mapgen")

data:add {
   _type = "base.map_validator",
   _id = "stairs_reachable",
   doc = "Every stair can be reached on foot from the entrance.",
   validate = function(map)
      local entrance = map.entrance
      if entrance == nil then
         return true, {}
      end
      local reached = Gen.reachable(map, entrance[1], entrance[2])
      local problems = {}
      for _, feat in Feat.iter(map) do
         if feat:calc("is_stairs") and reached[feat.y * map.width + feat.x] == nil then
            problems[#problems + 1] = {
               x = feat.x,
               y = feat.y,
               message = ("%s cannot be reached from the entrance"):format(feat._id),
            }
         end
      end
      return #problems == 0, problems
   end,
}

data:add {
   _type = "base.map_validator",
   _id = "nothing_on_walls",
   doc = "No object stands on a wall (a solid tile).",
   validate = function(map)
      local problems, solid = {}, Gen.solid_tiles()
      for _, object in map:iter() do
         if not Gen.is_floor(map, object.x, object.y, solid) then
            problems[#problems + 1] = {
               x = object.x,
               y = object.y,
               message = ("%s stands on %s"):format(object._id, map:tile(object.x, object.y)),
            }
         end
      end
      return #problems == 0, problems
   end,
}
