-- The rules of the demo game: moving and bumping, doors, fighting and dying, stairs, and the
-- end of a turn (every other character acts, the clock moves, the player's sight updates).
local AI = require("game.ai")

local Rules = {}

--- What messages call `chara`.
function Rules.name(chara)
   if chara == Chara.player() then
      return "you"
   end
   return "the " .. chara.name
end

--- The first object at (x, y) of `map` of data type `data_type` for which `accept` is true.
function Rules.object_at(map, x, y, data_type, accept)
   for _, object in map:objects_at_pos(x, y) do
      if object._type == data_type and (accept == nil or accept(object)) then
         return object
      end
   end
end

--- `attacker` hits (or misses) `target`.
function Rules.attack(attacker, target)
   local chance = 75 + (attacker:calc("level") - target:calc("level")) * 5 - target:calc("dv") * 2
   if math.random(100) > math.max(chance, 10) then
      Gui.mes(("%s miss %s."):format(Rules.name(attacker), Rules.name(target)):gsub("^%l", string.upper))
      return
   end
   local damage = math.max(1, attacker:calc("strength") + math.random(0, 2) - target:calc("pv"))
   Rules.damage(target, damage, attacker)
end

--- `target` takes `amount` damage from `source` (may be nil); it dies at 0 hit points.
function Rules.damage(target, amount, source)
   target.hp = target.hp - amount
   local who = Rules.name(target):gsub("^%l", string.upper)
   Gui.mes(("%s %s %d damage."):format(who, target == Chara.player() and "take" or "takes", amount))
   Event.trigger("base.on_damage", { target = target, source = source, amount = amount })
   if target.hp <= 0 then
      Rules.kill(target, source)
   end
end

--- `chara` dies: what it holds falls where it stood. The player's death is handled by the
--- caller at the end of the turn (load or quit).
function Rules.kill(chara, source)
   local map = chara:current_map()
   Event.trigger("base.on_chara_killed", { target = chara, source = source })
   if chara == Chara.player() then
      Gui.mes("You die.")
      return
   end
   Gui.mes(("%s is killed."):format(Rules.name(chara)):gsub("^%l", string.upper))
   if source ~= nil and source == Chara.player() then
      save.elona.kills = (save.elona.kills or 0) + 1
   end
   local dropped = {}
   for slot in chara.equip:iter() do
      dropped[#dropped + 1] = chara:unequip_item(slot)
   end
   for _, item in chara:iter() do
      dropped[#dropped + 1] = item
   end
   for _, item in ipairs(dropped) do
      map:take_object(item, chara.x, chara.y)
   end
   chara:remove_ownership()
end

--- An item as menus and messages name it: "3 x putitoro" for a stack.
function Rules.label(item)
   if item.amount ~= nil and item.amount > 1 then
      return ("%d x %s"):format(item.amount, item.name)
   end
   return item.name
end

--- Opens a closed door: it no longer blocks movement or sight.
function Rules.open_door(door)
   door.is_open = true
   door.is_solid = false
   door.is_opaque = false
   door.glyph = "'"
   Gui.mes("You open the door.")
end

--- The player steps by (dx, dy): into an enemy it attacks, into someone else it asks first,
--- into a closed door it opens it. Returns true if that took a turn.
function Rules.step(player, dx, dy)
   local map = player:current_map()
   local x, y = player.x + dx, player.y + dy
   if not map:is_in_bounds(x, y) then
      return false
   end
   local other = Rules.object_at(map, x, y, "base.chara")
   if other ~= nil then
      if not Rules.is_hostile(other) then
         local choice, canceled =
            Prompt:new({ "Attack", "Leave them be" }, { title = ("Really attack %s?"):format(Rules.name(other)) }):query()
         if canceled or choice.index ~= 1 then
            return false
         end
      end
      Rules.attack(player, other)
      return true
   end
   local door = Rules.object_at(map, x, y, "base.feat", function(f) return f._id == "elona.door" and not f.is_open end)
   if door ~= nil then
      Rules.open_door(door)
      return true
   end
   local fountain = Rules.object_at(map, x, y, "base.feat", function(f) return f._id == "elona.fountain" end)
   if fountain ~= nil then
      -- Water splashes where the player stands, and dries in a few turns.
      Mef.create("elona.puddle", player.x, player.y, { duration = 6, origin = fountain }, map)
      Gui.mes("You splash in the fountain. A puddle spreads at your feet.")
      return true
   end
   if not map:can_access(x, y) then
      return false
   end
   player:set_pos(x, y)
   for _, object in map:objects_at_pos(x, y) do
      if object._type == "base.item" then
         Gui.mes(("You see %s here."):format(Rules.label(object)))
      elseif object._type == "base.mef" then
         Gui.mes(("You step in the %s."):format(object.name))
      elseif object._type == "base.feat" and object.to_map ~= nil and object.to_map ~= "" then
         Gui.mes(("There are %s here (Enter to take them)."):format(object.name))
      end
   end
   return true
end

--- The player takes the stairs it stands on to their map, arriving on the stairs there that
--- lead back (each map keeps its state). Returns true if that took a turn.
function Rules.take_stairs(player)
   local map = player:current_map()
   local stairs = Rules.object_at(map, player.x, player.y, "base.feat", function(f)
      return f.to_map ~= nil and f.to_map ~= ""
   end)
   if stairs == nil then
      Gui.mes("There are no stairs here.")
      return false
   end
   local generator = stairs.to_map:match("^deeper:(.+)$")
   local target = generator and Rules.floor_below(map, generator) or Map.open(stairs.to_map)
   local back = stairs._id == "elona.stairs_down" and "elona.stairs_up" or "elona.stairs_down"
   local x, y
   for _, feat in Feat.iter(target) do
      if feat._id == back and (x == nil or feat.to_map == map.name) then
         x, y = feat.x, feat.y
      end
   end
   if x == nil then
      x, y = math.floor(target.width / 2), math.floor(target.height / 2)
   end
   Map.travel_to(target, { start_x = x, start_y = y })
   Gui.mes(("You take the %s to %s."):format(stairs.name, target.name))
   return true
end

--- The floor below `map` made by map generator `generator` (stairs whose `to_map` is
--- "deeper:<generator>" lead there): made the first time, from a seed the game's random
--- numbers give (so a recording replays it), and kept; its stairs up lead back to `map` and
--- its stairs down deeper still.
function Rules.floor_below(map, generator)
   save.elona.depths = save.elona.depths or {}
   local depth = (save.elona.depths[map.name] or 1) + 1
   local name = ("%s %d"):format(map.name:match("^(.-) %d+$") or map.name, depth)
   for _, known in Map.iter() do
      if known.name == name then
         return known
      end
   end
   local floor = Map.generate(generator, {}, math.random(1, 2147483647))
   floor.name = name
   save.elona.depths[name] = depth
   local entrance = floor.entrance
   local up = Feat.create("elona.stairs_up", entrance[1], entrance[2], {}, floor)
   up.to_map = map.name
   for _, feat in Feat.iter(floor) do
      if feat._id == "elona.stairs_down" then
         feat.to_map = "deeper:" .. generator
      end
   end
   return floor
end

--- The end of the player's turn: every other character on its map acts, the turn passes
--- (effects run down) and the player's sight is updated.
function Rules.end_turn()
   local player = Chara.player()
   local map = player:current_map()
   World.refresh_sight()
   -- The characters' turns are the profiler's "AI" entry.
   Debug.profile_scope("AI", function()
      for _, chara in Chara.iter(map) do
         if chara ~= player and chara.hp > 0 then
            AI.act(chara, player, map, Rules)
            if player.hp <= 0 then
               break
            end
         end
      end
   end)
   World.pass_turn()
   World.refresh_sight()
   if player.hp <= 0 then
      Rules.player_died()
   end
end

--- The player died: load the last save, or quit.
function Rules.player_died()
   local choice, canceled = Prompt:new({ "Load the last save", "Quit" }, { title = "You have died." }):query()
   if not canceled and choice.index == 1 and pcall(Save.load_game, "quicksave") then
      Gui.mes("You load the last save.")
      return
   end
   Play.quit()
end

--- Whether `chara` is hostile to the player: relation "hostile", or OpenNefia's
--- Enum.Relation.Enemy or below.
function Rules.is_hostile(chara)
   local relation = chara.relation
   return relation == "hostile" or (type(relation) == "number" and relation <= Enum.Relation.Enemy)
end

return Rules
