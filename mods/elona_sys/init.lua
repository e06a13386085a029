-- OpenNefia's elona_sys action events. A prototype's callback field handles its event for
-- each of its objects (base.event's prototype_callback): an item prototype's
-- `on_use = function(item, params, result) ... end` answers `item:emit("elona_sys.on_item_use",
-- { chara = user })`, and `item:has_event_handler("elona_sys.on_item_use")` says whether it
-- can be used. Being the prototype's, the handler follows change_prototype, saves and map
-- loads. Nothing here emits them: the game's rules do, when a character acts.
local kinds = {
   {
      data_type = "base.item",
      noun = "item",
      receiver = "IItem",
      actions = { "use", "eat", "drink", "read", "zap", "open", "dip_into", "throw", "descend", "ascend" },
   },
   {
      data_type = "base.feat",
      noun = "feat",
      receiver = "IFeat",
      actions = {
         "bash", "activate", "search", "search_from_distance", "open", "close", "descend", "ascend",
         "bumped_into", "stepped_on", "refresh",
      },
   },
   { data_type = "base.mef", noun = "mef", receiver = "IMef", actions = { "stepped_on", "stepped_off" } },
}

for _, kind in ipairs(kinds) do
   for _, action in ipairs(kind.actions) do
      data:add {
         _type = "base.event",
         _id = ("on_%s_%s"):format(kind.noun, action),
         doc = ("A character acts on the %s: %s. Its prototype's on_%s handles it. params: chara."):format(kind.noun, action, action),
         receiver = kind.receiver,
         params = { { "chara", "IChara" } },
         prototype_callback = { type = kind.data_type, field = "on_" .. action },
      }
   end
end
