-- OpenNefia's actions as data and handlers: base.on_get_item, whose "Pick up item" handler
-- is what Action.get does unless an item's own handler answers first, and base.activity, the
-- prototypes of what a character spends turns doing (OpenNefia's schema; Object.generate_from
-- makes one's instance). Nefia's game loop does not run activities yet.

data:add {
   _type = "base.event",
   _id = "on_get_item",
   doc = "Action.get: a character picks the item (the receiver) up. Answer what was picked up, or false. params: chara, amount (nil: all).",
   receiver = "IItem",
   params = { { "chara", "IChara" }, { "amount", "integer?" } },
}

-- OpenNefia's pick_up_item (api/Action.lua): the item, or `amount` of its stack, into the
-- character's inventory. An item a handler before it took away (gold into the purse) is left.
Event.register("base.on_get_item", "Pick up item", function(item, params, result)
   if item:get_location() == nil or item.amount <= 0 then
      return result
   end
   local picked_up = params.chara:take_item(item, params.amount or item.amount)
   if picked_up then
      if params.chara == Chara.player() then
         local what = picked_up.amount > 1 and ("%d x %s"):format(picked_up.amount, picked_up.name) or picked_up.name
         Gui.mes(("You pick up %s."):format(what))
      end
      return picked_up
   end
   if params.chara == Chara.player() then
      Gui.mes("You cannot carry any more.")
   end
   return false
end)

data:add_type {
   name = "activity",
   fields = {
      { name = "params", type = types.table, default = {}, doc = "What starting it takes: name to one of types' checkers." },
      { name = "default_turns", type = types.some(types.uint, types.callback()), default = 10, doc = "How many turns it lasts, or a function(self, params, chara) giving them." },
      { name = "animation_wait", type = types.number, default = 0, doc = "Milliseconds between its turns when the player does it." },
      { name = "can_scroll", type = types.boolean, default = false, doc = "True if the view may scroll while it runs." },
      { name = "on_interrupt", type = types.literal("ignore", "prompt", "stop"), default = "ignore", doc = "What an interruption does: nothing, ask the player, or stop it." },
      { name = "interrupt_on_displace", type = types.boolean, default = false, doc = "True if being displaced interrupts it." },
   },
}
