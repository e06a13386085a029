-- OpenNefia's Action (api/Action.lua), the API's `Action`: what a character does by the game's
-- rules, shared by the player and the others. Runs once, given the API table.
--
-- `Action.get(chara, item, amount)` picks `item` up (the top item on the character's cell if
-- nil): it emits `base.on_get_item` on the item with { chara, amount }, starting from false.
-- mods/base's "Pick up item" handler takes the item into the character's inventory; an item's
-- own handler before it can answer instead (elona's gold goes to the purse). What the
-- handlers answer is returned, and a picked-up item stacks with the like ones it joins.
local api = ...

local Action = {}

-- The item on top of the character's cell, if any.
local function top_item(chara)
   local map = chara:current_map()
   if map == nil then
      return nil
   end
   local found
   for _, object in map:objects_at_pos(chara.x, chara.y) do
      if object._type == "base.item" then
         found = object
      end
   end
   return found
end

function Action.get(chara, item, amount)
   if item == nil then
      item = top_item(chara)
      if item == nil then
         api.Gui.mes("There is nothing here to pick up.")
         return false
      end
   end
   local result = item:emit("base.on_get_item", { chara = chara, amount = amount }, false)
   if result and item:get_location() ~= nil then
      item:stack(true)
   end
   return result
end

api.Action = Action
