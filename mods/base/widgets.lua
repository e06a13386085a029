-- The HUD every game has: the message window (Gui.mes), a clock (World.date()) and the
-- player's HP bar. Each is an ordinary widget; mods can remove or replace them by id.

local PANEL = { 0, 0, 0, 160 }

Gui.add_widget("base.message_window", {
   anchor = "bottom_left",
   x = 8,
   y = 8,
   width = 520,
   height = 96,
   draw = function(self, d)
      local lines = Gui.messages(5)
      -- Nothing said yet (or back to editing): no empty panel over the map.
      if #lines == 0 then
         return
      end
      d:rect(0, 0, self.width, self.height, PANEL)
      for i, text in ipairs(lines) do
         local fade = 0.55 + 0.45 * (i / #lines)
         d:text(8, 4 + (i - 1) * 18, text, { 235, 235, 235 }, { alpha = fade })
      end
   end,
})

Gui.add_widget("base.clock", {
   anchor = "top_left",
   x = 8,
   y = 8,
   width = 170,
   height = 24,
   draw = function(self, d)
      local date = World.date()
      d:rect(0, 0, self.width, self.height, PANEL)
      d:text(8, 3, string.format("%d/%02d/%02d  %02d:%02d", date.year, date.month, date.day, date.hour, date.minute), { 255, 230, 160 })
   end,
})

Gui.add_widget("base.hp_bar", {
   anchor = "bottom_right",
   x = 8,
   y = 8,
   width = 180,
   height = 22,
   draw = function(self, d)
      local player = Chara.player()
      if player == nil then
         return
      end
      -- A dead player's hp can be below 0; the bar shows 0.
      local hp, max_hp = math.max(player:calc("hp") or 0, 0), math.max(player:calc("max_hp") or 1, 1)
      local fraction = math.max(0, math.min(1, hp / max_hp))
      d:rect(0, 0, self.width, self.height, PANEL)
      d:rect(2, 2, (self.width - 4) * fraction, self.height - 4, { 200, 40, 40 })
      d:text(8, 3, string.format("HP %d / %d", hp, max_hp), { 255, 255, 255 })
   end,
})
