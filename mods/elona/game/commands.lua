-- The player's commands while playing: keys to actions, and the menus (pick up, drop,
-- inventory, equip, drink and eat, the game menu). An action returns true when it took a
-- turn; then the turn ends (see rules.lua).
local Rules = require("game.rules")
local Effects = require("game.effects")

local Commands = {}

local function menu(title, entries, describe)
   if #entries == 0 then
      return nil
   end
   local items = {}
   for i, entry in ipairs(entries) do
      items[i] = describe(entry)
   end
   local choice, canceled = ListMenu:new({ title = title, items = items }):query()
   if canceled then
      return nil
   end
   return entries[choice.index]
end

local label = Rules.label

local function inventory(chara)
   local items = {}
   for _, item in chara:iter() do
      items[#items + 1] = item
   end
   return items
end

function Commands.pick_up(player)
   local map = player:current_map()
   local here = {}
   for _, object in map:objects_at_pos(player.x, player.y) do
      if object._type == "base.item" then
         here[#here + 1] = object
      end
   end
   if #here == 0 then
      Gui.mes("There is nothing here to pick up.")
      return false
   end
   local item = #here == 1 and here[1] or menu("Pick up what?", here, label)
   if item == nil then
      return false
   end
   if not player:can_take_object(item) then
      Gui.mes("You cannot carry any more.")
      return false
   end
   player:take_object(item)
   Gui.mes(("You pick up %s."):format(label(item)))
   -- Into the pack with the ones like it.
   item:stack()
   return true
end

function Commands.drop(player)
   local item = menu("Drop what?", inventory(player), label)
   if item == nil then
      return false
   end
   player:current_map():take_object(item, player.x, player.y)
   Gui.mes(("You drop %s."):format(label(item)))
   item:stack()
   return true
end

function Commands.inventory(player)
   local item = menu("Inventory", inventory(player), function(i) return ("%s (weight %d)"):format(label(i), i.weight * i.amount) end)
   if item ~= nil then
      Gui.mes(("%s: worth %d gold each."):format(label(item), item.value))
   elseif #inventory(player) == 0 then
      Gui.mes("You carry nothing.")
   end
   return false
end

function Commands.equip(player)
   local entries = {}
   for slot, item in player.equip:iter() do
      entries[#entries + 1] = { slot = slot, item = item, worn = true }
   end
   for _, item in ipairs(inventory(player)) do
      if item.equip_slots ~= nil then
         entries[#entries + 1] = { item = item }
      end
   end
   if #entries == 0 then
      Gui.mes("You have nothing to wear.")
      return false
   end
   local entry = menu("Equip or take off", entries, function(e)
      return e.worn and ("%s (worn on %s: take off)"):format(e.item.name, e.slot) or e.item.name
   end)
   if entry == nil then
      return false
   end
   if entry.worn then
      player:unequip_item(entry.slot)
      Gui.mes(("You take off %s."):format(entry.item.name))
   else
      local slot, reason = player:equip_item(entry.item)
      if slot == nil then
         Gui.mes(("You cannot wear %s: %s"):format(entry.item.name, reason))
         return false
      end
      Gui.mes(("You wear %s on your %s."):format(entry.item.name, slot:gsub("_", " ")))
   end
   player:refresh()
   return true
end

function Commands.consume(player)
   local usable = {}
   for _, item in ipairs(inventory(player)) do
      if item.drink_effect ~= nil or item.nutrition ~= nil then
         usable[#usable + 1] = item
      end
   end
   local item = menu("Drink or eat what?", usable, label)
   if item == nil then
      if #usable == 0 then
         Gui.mes("You have nothing to drink or eat.")
      end
      return false
   end
   if item.drink_effect == "sight" then
      Gui.mes(("You drink %s. Your vision sharpens."):format(item.name))
      Effects.start(player, "sight", "fov", item.sight_bonus, item.sight_turns)
      World.refresh_sight()
   else
      local healed = math.min(player:calc("max_hp") - player.hp, 5)
      player.hp = player.hp + healed
      Gui.mes(("You eat %s. (%d HP)"):format(item.name, healed))
   end
   -- One of the stack is used up.
   item:separate(1):remove_ownership()
   return true
end

function Commands.game_menu(player)
   local choice = menu("Game", { "Save the game", "Load the last save", "Quit" }, function(e) return e end)
   if choice == "Save the game" then
      Commands.save()
   elseif choice == "Load the last save" then
      Commands.load()
   elseif choice == "Quit" then
      Play.quit()
   end
   return false
end

function Commands.save()
   Save.save_game("quicksave")
   Gui.mes("Game saved.")
   return false
end

function Commands.load()
   local ok, problem = pcall(Save.load_game, "quicksave")
   Gui.mes(ok and "Game loaded." or ("There is no save to load (%s)."):format(problem))
   return false
end

local function step(dx, dy)
   return function(player) return Rules.step(player, dx, dy) end
end

--- Keys to actions: arrows, the numeric keypad and vi keys move in eight directions.
Commands.keys = {
   up = step(0, -1), down = step(0, 1), left = step(-1, 0), right = step(1, 0),
   ["8"] = step(0, -1), ["2"] = step(0, 1), ["4"] = step(-1, 0), ["6"] = step(1, 0),
   ["7"] = step(-1, -1), ["9"] = step(1, -1), ["1"] = step(-1, 1), ["3"] = step(1, 1),
   k = step(0, -1), j = step(0, 1), h = step(-1, 0), l = step(1, 0),
   y = step(-1, -1), u = step(1, -1), b = step(-1, 1), n = step(1, 1),
   ["5"] = function() return true end, period = function() return true end,
   enter = Rules.take_stairs, ["shift+period"] = Rules.take_stairs, ["shift+comma"] = Rules.take_stairs,
   g = Commands.pick_up, comma = Commands.pick_up,
   d = Commands.drop, i = Commands.inventory, e = Commands.equip, q = Commands.consume,
   escape = Commands.game_menu, ["ctrl+s"] = Commands.save, ["ctrl+l"] = Commands.load,
}

Event.register("base.on_key_pressed", "elona.play", function(_, params)
   local player = Chara.player()
   local action = Commands.keys[params.key]
   if not Play.is_playing() or player == nil or action == nil or player.hp <= 0 then
      return
   end
   if action(player) then
      Rules.end_turn()
   end
end)

Event.register("base.on_wait_turn", "elona.wait", function()
   if Chara.player() ~= nil then
      Rules.end_turn()
   end
end)

return Commands
