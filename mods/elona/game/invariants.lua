-- The demo's rules' invariants (see data type base.invariant): checked after every turn by
-- `nefia fuzz`, `nefia test --invariants` and the editor's toggle. Each is declared for each
-- object of a type, with the fields it reads, so after a turn only the objects whose fields
-- changed are checked again.

data:add {
   _type = "base.invariant",
   _id = "hp_within_max",
   doc = "No character has more hit points than its max_hp.",
   each = "base.chara",
   fields = { "hp", "max_hp" },
   check = function(chara)
      local hp, max_hp = chara.hp, chara:calc("max_hp")
      if type(hp) == "number" and type(max_hp) == "number" and hp > max_hp then
         return false, ("hp %d is above its max_hp %d"):format(hp, max_hp)
      end
      return true
   end,
}

data:add {
   _type = "base.invariant",
   _id = "amounts_at_least_one",
   doc = "Every item is a stack of at least one.",
   each = "base.item",
   fields = { "amount" },
   check = function(item)
      if item.amount < 1 then
         return false, ("amount %d"):format(item.amount)
      end
      return true
   end,
}

data:add {
   _type = "base.invariant",
   _id = "dead_not_on_map",
   doc = "No character with 0 hit points or fewer is on a map after a turn: the dead are removed, and the player's death ends in a load or quitting.",
   each = "base.chara",
   fields = { "hp" },
   check = function(chara)
      if type(chara.hp) == "number" and chara.hp <= 0 and chara:current_map() ~= nil then
         return false, ("it is dead (hp %d) but still on map %s"):format(chara.hp, chara:current_map().name)
      end
      return true
   end,
}
