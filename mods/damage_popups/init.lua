-- Shows a rising, fading number over a character whenever a damage event fires: a custom
-- map draw layer (the seed's example of one).

local LIFETIME = 1.2 -- seconds a popup stays
local RISE = 28 -- pixels it rises over its life

local popups = {}

Event.register("base.on_damage", "damage_popups.show", function(_, params)
   local target = params.target
   if target == nil or params.amount == nil then
      return
   end
   popups[#popups + 1] = {
      x = target.x,
      y = target.y,
      text = tostring(params.amount),
      age = 0,
      color = params.amount > 0 and { 255, 90, 80 } or { 120, 255, 120 },
   }
end)

Gui.add_map_layer("damage_popups", {
   update = function(self, dt)
      local alive = {}
      for _, popup in ipairs(popups) do
         popup.age = popup.age + dt
         if popup.age < LIFETIME then
            alive[#alive + 1] = popup
         end
      end
      popups = alive
      return #popups > 0
   end,
   draw = function(self, d)
      for _, popup in ipairs(popups) do
         local t = popup.age / LIFETIME
         d:text(popup.x + 0.3, popup.y - 0.2, popup.text, popup.color, { dy = -RISE * t, alpha = 1 - t, size = 16 })
      end
   end,
})
