-- A handful of Elona's content: characters, items, tiles and map features.
require("content.charas")
require("content.items")
require("content.mefs")
require("content.map")
require("content.generators")
require("content.activities")
-- The demo game's rules and commands (play mode).
require("game.commands")
require("game.invariants")
