-- The end of the walk-and-kill recording: the player struck a putit down.
function test_end(world)
   Assert.eq(save.elona.kills, 1, "one kill is counted")
   Assert.contains(table.concat(Gui.messages(50), "\n"), "The putit is killed.")
   Assert.eq(Map.current().name, "town")
   Assert.is_true(world.turn() > 3, "a few turns passed")
end
