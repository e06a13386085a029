-- The end of the stairs recording: down to the dungeon and back up, on the town's stairs.
function test_end(world)
   local player = Chara.player()
   Assert.eq(Map.current().name, "town", "back in the town")
   Assert.eq(player.x, 29)
   Assert.eq(player.y, 16, "one step north of the stairs down")
end
