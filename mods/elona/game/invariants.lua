-- The demo's rules' invariants (see data type base.invariant): checked after every turn by
-- `nefia test --invariants`.

local function charas()
   local all = {}
   for _, map in Map.iter() do
      for _, chara in Chara.iter(map) do
         all[#all + 1] = chara
      end
   end
   return all
end

data:add {
   _type = "base.invariant",
   _id = "hp_within_max",
   doc = "No character has more hit points than its max_hp.",
   check = function()
      for _, chara in ipairs(charas()) do
         local hp, max_hp = chara.hp, chara:calc("max_hp")
         if type(hp) == "number" and type(max_hp) == "number" and hp > max_hp then
            return false, ("%s has hp %d above its max_hp %d"):format(tostring(chara), hp, max_hp)
         end
      end
      return true
   end,
}

data:add {
   _type = "base.invariant",
   _id = "amounts_at_least_one",
   doc = "Every item on a map or carried is a stack of at least one.",
   check = function()
      local function check(item)
         if item.amount < 1 then
            return false, ("%s has amount %d"):format(tostring(item), item.amount)
         end
         return true
      end
      for _, map in Map.iter() do
         for _, item in Item.iter(map) do
            local ok, message = check(item)
            if not ok then
               return ok, message
            end
         end
      end
      for _, chara in ipairs(charas()) do
         for _, item in chara:iter_inventory() do
            local ok, message = check(item)
            if not ok then
               return ok, message
            end
         end
      end
      return true
   end,
}

data:add {
   _type = "base.invariant",
   _id = "dead_not_on_map",
   doc = "No character with 0 hit points or fewer is on a map after a turn: the dead are removed, and the player's death ends in a load or quitting.",
   check = function()
      for _, chara in ipairs(charas()) do
         if type(chara.hp) == "number" and chara.hp <= 0 then
            return false, ("%s is dead (hp %d) but still on map %s"):format(tostring(chara), chara.hp, chara:current_map().name)
         end
      end
      return true
   end,
}
