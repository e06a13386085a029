-- The engine's invariants (see data type base.invariant).

data:add {
   _type = "base.invariant",
   _id = "bookkeeping",
   doc = "Every object is where its holder lists it, no uid is used twice, every uid is below the next.",
   check = function()
      return World.check_bookkeeping()
   end,
}

data:add {
   _type = "base.invariant",
   _id = "one_mef_a_cell",
   doc = "A cell holds at most one mef.",
   each = "base.mef",
   fields = { "x", "y" },
   check = function(mef)
      local map = mef:current_map()
      if map == nil then
         return true
      end
      for _, other in map:objects_at_pos(mef.x, mef.y) do
         if other._type == "base.mef" and other ~= mef then
            return false, ("it shares cell (%d, %d) of %s with %s"):format(mef.x, mef.y, map.name, tostring(other))
         end
      end
      return true
   end,
}

data:add {
   _type = "base.invariant",
   _id = "player_on_current_map",
   doc = "While playing, the player exists and stands on the current map.",
   check = function()
      if not Play.is_playing() then
         return true
      end
      local player = Chara.player()
      if player == nil then
         return false, "there is no player"
      end
      if player:current_map() ~= Map.current() then
         return false, ("%s is not on the current map"):format(tostring(player))
      end
      return true
   end,
}
