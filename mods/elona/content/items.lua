-- Items.

data:add {
   _type = "base.item",
   _id = "putitoro",
   name = "putitoro",
   glyph = "%",
   color = { 255, 170, 200 },
   image = { source = "items/items.png", x = 0, y = 0, width = 32, height = 32 },
   weight = 2,
   value = 120,
   nutrition = 1500,
}

data:add {
   _type = "base.item",
   _id = "potion_of_sight",
   name = "potion of sight",
   glyph = "!",
   color = { 140, 255, 220 },
   image = { source = "items/items.png", x = 32, y = 0, width = 32, height = 32 },
   weight = 1,
   value = 300,
   drink_effect = "sight",
   sight_bonus = 30,
   sight_turns = 20,
}

data:add {
   _type = "base.item",
   _id = "dagger",
   name = "dagger",
   glyph = ")",
   color = { 210, 210, 230 },
   image = { source = "items/items.png", x = 64, y = 0, width = 32, height = 32 },
   weight = 6,
   value = 250,
   equip_slots = { "main_hand", "off_hand" },
   damage_bonus = 3,
}

data:add {
   _type = "base.item",
   _id = "leather_armor",
   name = "leather armor",
   glyph = "[",
   color = { 190, 140, 90 },
   image = { source = "items/items.png", x = 96, y = 0, width = 32, height = 32 },
   weight = 60,
   value = 400,
   equip_slots = { "body" },
   pv_bonus = 3,
}

data:add {
   _type = "base.item",
   _id = "helmet",
   name = "helmet",
   glyph = "]",
   color = { 180, 180, 190 },
   image = { source = "items/items.png", x = 128, y = 0, width = 32, height = 32 },
   weight = 15,
   value = 200,
   equip_slots = { "head" },
   pv_bonus = 1,
}

data:add {
   _type = "base.item",
   _id = "bag",
   name = "bag",
   glyph = "(",
   color = { 170, 120, 70 },
   image = { source = "items/items.png", x = 160, y = 0, width = 32, height = 32 },
   weight = 5,
   value = 100,
   is_container = true,
   inventory_capacity = 10,
}

data:add {
   _type = "base.item",
   _id = "gold_piece",
   name = "gold piece",
   glyph = "$",
   color = { 255, 220, 60 },
   image = { source = "items/items.png", x = 192, y = 0, width = 32, height = 32 },
   weight = 0,
   value = 1,
   events = {
      -- OpenNefia's: Action.get puts gold in the purse (chara.gold), not the inventory.
      {
         id = "base.on_get_item",
         name = "Add gold to inventory",
         priority = 50000,
         callback = function(self, params)
            Gui.mes(("You pick up %d gold."):format(self.amount))
            params.chara.gold = (params.chara.gold or 0) + self.amount
            self:remove_ownership()
            return true
         end,
      },
   },
}
