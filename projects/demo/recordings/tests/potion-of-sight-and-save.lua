-- The end of the potion recording: the potion of sight wore off after its twenty turns,
-- the game was saved, and loading the save put the player back where it was saved.
function test_end(world)
   local player = Chara.player()
   Assert.eq(player:calc("fov"), 15, "the potion's 30 is gone")
   Assert.contains(table.concat(Gui.messages(50), "\n"), "The sight effect wears off.")
   Assert.eq(player.x, 13, "loaded where saved, then one step west")
end
