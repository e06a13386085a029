-- Temporary effects as the seed's temp values: worn equipment adds to the wearer's stats, and
-- timed effects (the potion of sight) last a number of turns. Both are re-applied whenever a
-- character is refreshed; when an effect runs out the character is refreshed and its value
-- comes back down.
local Effects = {}

--- Starts a timed effect on `chara`: `field` gets `amount` added for `turns` turns.
function Effects.start(chara, id, field, amount, turns)
   local effects = chara.effects or {}
   effects[#effects + 1] = { id = id, field = field, amount = amount, turns = turns }
   chara.effects = effects
   chara:refresh()
end

Event.register("base.on_chara_refreshed", "elona.equipment_and_effects", function(chara)
   for _, item in chara.equip:iter() do
      if item.damage_bonus then
         chara:mod("strength", item.damage_bonus, "add")
      end
      if item.pv_bonus then
         chara:mod("pv", item.pv_bonus, "add")
      end
   end
   local effects = chara.effects
   if effects then
      for _, effect in ipairs(effects) do
         chara:mod(effect.field, effect.amount, "add")
      end
   end
end)

Event.register("base.on_turn_passed", "elona.effects_run_down", function()
   local player = Chara.player()
   if player == nil or player.effects == nil then
      return
   end
   local kept, ended = {}, false
   for _, effect in ipairs(player.effects) do
      effect.turns = effect.turns - 1
      if effect.turns > 0 then
         kept[#kept + 1] = effect
      else
         ended = true
         Gui.mes(("The %s effect wears off."):format(effect.id))
      end
   end
   player.effects = #kept > 0 and kept or nil
   if ended then
      player:refresh()
   end
end)

return Effects
