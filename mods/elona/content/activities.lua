-- Elona's activities and material spots, as OpenNefia declares them
-- (mod/elona/data/activity.lua, material_spot.lua).

data:add {
   _type = "base.activity",
   _id = "traveling",
   params = { dest_x = types.uint, dest_y = types.uint },
   default_turns = 20,
   animation_wait = 0,
   can_scroll = true,
   on_interrupt = "ignore",
}

-- What a material spot holds: a feat's `material_spot_info` param names one.
data:add_type {
   name = "material_spot_feat_info",
   fields = {
      { name = "on_stepped_on_text", type = types.string, default = "You see a material spot.", template = true, doc = "The message when the player steps on the spot." },
      { name = "activity_default_turns", type = types.uint, default = 40, template = true, doc = "How many turns gathering takes." },
   },
}

data:add { _type = "elona.material_spot_feat_info", _id = "default", activity_default_turns = 20 }
data:add { _type = "elona.material_spot_feat_info", _id = "remains", on_stepped_on_text = "You see some remains.", activity_default_turns = 20 }
data:add { _type = "elona.material_spot_feat_info", _id = "spring", on_stepped_on_text = "You see a spring." }
data:add { _type = "elona.material_spot_feat_info", _id = "mine", on_stepped_on_text = "You see a mining spot." }
data:add { _type = "elona.material_spot_feat_info", _id = "bush", on_stepped_on_text = "You see a bush." }

data:add {
   _type = "base.feat",
   _id = "material_spot",
   name = "material spot",
   glyph = ",",
   image = { source = "feats/feats.png", x = 96, y = 0, width = 32, height = 32 },
   is_solid = false,
   is_opaque = false,
   params = { material_spot_info = { type = types.data_id("elona.material_spot_feat_info") } },
   on_stepped_on = function(self, params)
      if params.chara == Chara.player() then
         Gui.mes(data["elona.material_spot_feat_info"]:ensure(self.params.material_spot_info).on_stepped_on_text)
      end
   end,
}
