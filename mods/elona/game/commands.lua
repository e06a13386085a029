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
   -- Action.get: the item's own base.on_get_item handlers first (gold goes to the purse), else
   -- into the pack with the ones like it.
   return Action.get(player, item) and true or false
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
      Commands.quit()
   end
   return false
end

--- Quitting asks whether to save first (Cancel, or Escape, goes on playing).
function Commands.quit()
   local answers = { "Save and quit", "Quit without saving", "Cancel" }
   local answer = menu("Save before quitting?", answers, function(e) return e end)
   if answer == "Save and quit" then
      Save.save_game("quicksave")
      Play.quit()
   elseif answer == "Quit without saving" then
      Play.quit()
   end
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

-- The player's keybinds: arrows, the numeric keypad and vi keys move in eight directions.
data:add { _type = "base.keybind", _id = "north", name = "Move north", default = "up", default_alternate = { "8", "k" } }
data:add { _type = "base.keybind", _id = "south", name = "Move south", default = "down", default_alternate = { "2", "j" } }
data:add { _type = "base.keybind", _id = "west", name = "Move west", default = "left", default_alternate = { "4", "h" } }
data:add { _type = "base.keybind", _id = "east", name = "Move east", default = "right", default_alternate = { "6", "l" } }
data:add { _type = "base.keybind", _id = "northwest", name = "Move northwest", default = "7", default_alternate = { "y" } }
data:add { _type = "base.keybind", _id = "northeast", name = "Move northeast", default = "9", default_alternate = { "u" } }
data:add { _type = "base.keybind", _id = "southwest", name = "Move southwest", default = "1", default_alternate = { "b" } }
data:add { _type = "base.keybind", _id = "southeast", name = "Move southeast", default = "3", default_alternate = { "n" } }
data:add { _type = "base.keybind", _id = "wait", name = "Wait a turn", default = "period", default_alternate = { "5" } }
data:add {
   _type = "base.keybind",
   _id = "stairs",
   name = "Take the stairs",
   default = "enter",
   default_alternate = { "shift+period", "shift+comma" },
}
data:add { _type = "base.keybind", _id = "pick_up", name = "Pick up", default = "g", default_alternate = { "comma" } }
data:add { _type = "base.keybind", _id = "drop", name = "Drop", default = "d" }
data:add { _type = "base.keybind", _id = "inventory", name = "Inventory", default = "i" }
data:add { _type = "base.keybind", _id = "equip", name = "Equip", default = "e" }
data:add { _type = "base.keybind", _id = "consume", name = "Drink or eat", default = "q" }
data:add { _type = "base.keybind", _id = "game_menu", name = "Game menu (save, load, quit)", default = "escape" }
data:add { _type = "base.keybind", _id = "save", name = "Save the game", default = "ctrl+s" }
data:add { _type = "base.keybind", _id = "load", name = "Load the last save", default = "ctrl+l" }

--- What each keybind does.
Commands.actions = {
   ["elona.north"] = step(0, -1), ["elona.south"] = step(0, 1), ["elona.west"] = step(-1, 0), ["elona.east"] = step(1, 0),
   ["elona.northwest"] = step(-1, -1), ["elona.northeast"] = step(1, -1),
   ["elona.southwest"] = step(-1, 1), ["elona.southeast"] = step(1, 1),
   ["elona.wait"] = function() return true end,
   ["elona.stairs"] = Rules.take_stairs,
   ["elona.pick_up"] = Commands.pick_up, ["elona.drop"] = Commands.drop, ["elona.inventory"] = Commands.inventory,
   ["elona.equip"] = Commands.equip, ["elona.consume"] = Commands.consume,
   ["elona.game_menu"] = Commands.game_menu, ["elona.save"] = Commands.save, ["elona.load"] = Commands.load,
}

--- The action of the keybind `key` belongs to, if any: its default key first, then the
--- alternates, as the keybinds are now (the Data pane may have rebound one).
function Commands.action_for(key)
   for id, bind in data["base.keybind"]:iter() do
      if bind.default == key then
         return Commands.actions[id]
      end
   end
   for id, bind in data["base.keybind"]:iter() do
      for _, alternate in ipairs(bind.default_alternate or {}) do
         if alternate == key then
            return Commands.actions[id]
         end
      end
   end
   return nil
end

Event.register("base.on_key_pressed", "elona.play", function(_, params)
   local player = Chara.player()
   local action = Commands.action_for(params.key)
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
