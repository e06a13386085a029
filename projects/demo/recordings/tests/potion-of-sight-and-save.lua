-- The end of the potion recording: the potion of sight wore off after its twenty turns,
-- the game was saved, a turn waited, and loading the save put the game back at the turn it
-- was saved on; one more turn was waited.
function test_end(world)
   local player = Chara.player()
   Assert.eq(player:calc("fov"), 15, "the potion's 30 is gone")
   Assert.contains(table.concat(Gui.messages(50), "\n"), "The sight effect wears off.")
   Assert.eq(player.x, 14, "where the potion was picked up")
   Assert.eq(player.y, 11)
   Assert.contains(table.concat(Gui.messages(50), "\n"), "Game loaded.")
   Assert.eq(player.max_hp, 1000, "the REPL code made at the start is part of the recording")
   Assert.eq(world.turn(), 26, "saved on turn 25, a wait, loaded back to 25, one more wait")
end
