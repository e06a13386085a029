-- A theme naming a file that is not a PNG (the mod's own Lua file, under the asset folder
-- the demo's README lives in).
data:add {
   _type = "base.theme",
   _id = "broken",
   overrides = { ["base.feat"] = { ["elona.fountain"] = { image = "README.md" } } },
}
