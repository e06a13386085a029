-- Enum: named constants as OpenNefia's code uses them (`Enum.Relation.Enemy`). Reading a
-- variant an enum does not have is an error naming it, so a typo is found where it is made.
-- Mods make their own with Enum.new(name, variants). Runs once, given the API table.
local api = ...

local Enum = {}

-- The variant `key` of `enum`, or nil and why. (Mods see enums through the API's read-only
-- view, so variants are read by indexing, never with rawget.)
function Enum.try_get(enum, key)
   local found, value = pcall(function() return enum[key] end)
   if not found or value == nil or Enum[key] ~= nil then
      return nil, ("Unknown enum variant '%s.%s'"):format(enum.__name, tostring(key))
   end
   return value
end

function Enum.ensure_get(enum, key)
   local value, problem = Enum.try_get(enum, key)
   if value == nil then
      error(problem, 2)
   end
   return value
end

function Enum.has_value(enum, value)
   for _, variant in pairs(enum) do
      if variant == value then
         return true
      end
   end
   return false, ("Unknown enum value '%s.%s'"):format(enum.__name, tostring(value))
end

function Enum.to_string(enum, value)
   for name, variant in pairs(enum) do
      if variant == value then
         return name
      end
   end
   error(("Unknown enum value '%s.%s'"):format(enum.__name, tostring(value)), 2)
end

function Enum.values(enum)
   local values = {}
   for _, variant in pairs(enum) do
      values[#values + 1] = variant
   end
   table.sort(values, function(a, b) return tostring(a) < tostring(b) end)
   return values
end

function Enum.new(name, variants)
   local meta = {}
   meta.__index = function(_, key)
      if key == "__name" then
         return name
      end
      if Enum[key] ~= nil and key ~= "new" then
         return Enum[key]
      end
      error(("Unknown enum variant '%s.%s'"):format(name, tostring(key)), 2)
   end
   meta.__newindex = function(_, key)
      error(("enum %s is read-only: it has no variant '%s' to set"):format(name, tostring(key)), 2)
   end
   return setmetatable(variants, meta)
end

-- The enums engine-level code and OpenNefia's engine tests use.
Enum.Relation = Enum.new("Relation", { Ally = 10, Neutral = 0, Dislike = -1, Hate = -2, Enemy = -3 })
Enum.Quality = Enum.new("Quality", { Bad = 1, Normal = 2, Good = 3, Great = 4, God = 5, Unique = 6 })
Enum.IdentifyState = Enum.new("IdentifyState", { None = 0, Name = 1, Quality = 2, Full = 3 })
Enum.CurseState = Enum.new("CurseState", { Doomed = -2, Cursed = -1, Normal = 0, Blessed = 1 })
-- OpenNefia's engine enums its content names in prototypes (values as in its `Enum.lua`).
Enum.FltSelect = Enum.new("FltSelect", {
   None = 0, Sp = 1, Unique = 2, SpUnique = 3, Friend = 4, Town = 5, SfTown = 6, Shop = 7, Snow = 8, TownSp = 9,
})
Enum.Burden = Enum.new("Burden", { None = 0, Light = 1, Moderate = 2, Heavy = 3, Max = 4 })
Enum.OwnState = Enum.new("OwnState", {
   Inherited = -2, None = 0, NotOwned = 1, Shop = 2, Shelter = 3, Quest = 4, Unobtainable = 5,
})
Enum.TileRole = Enum.new("TileRole", {
   None = 0, Dryground = 1, Crop = 2, Water = 3, Snow = 4, MountainWater = 5, HardWall = 6, Sand = 7,
   SandHard = 8, Coast = 9, SandWater = 10,
})
Enum.AiBehavior = Enum.new("AiBehavior", { Null = 0, Roam = 1, Dull = 2, Stand = 3, Follow = 4, Special = 5 })
Enum.Direction = Enum.new("Direction", {
   North = "North", South = "South", East = "East", West = "West", Northeast = "Northeast",
   Southeast = "Southeast", Northwest = "Northwest", Southwest = "Southwest", Center = "Center",
})

api.Enum = Enum
