-- From OpenNefia (https://github.com/Ruin0x11/OpenNefia, MIT licence: mods/elona/locale/LICENSE),
-- src/mod/elona/locale/en/damage.lua at commit dbe3eaa38fb8730bc74007bf9734a54376429490, unchanged.
local damage = {
   long_sword = {
      name = "sword",
      verb = "slash",
      verb_and = "slash"
   },
   short_sword = {
      name = "dagger",
      verb = "stab",
      verb_and = "stab"
   },
   axe = {
      name = "axe",
      verb = "slash",
      verb_and = "slash"
   },
   blunt = {
      name = "mace",
      verb = "smash",
      verb_and = "smash"
   },
   polearm = {
      name = "spear",
      verb = "stab",
      verb_and = "stab"
   },
   stave = {
      name = "staff",
      verb = "smash",
      verb_and = "smash"
   },
   scythe = {
      name = "scythe",
      verb = "slash",
      verb_and = "slash"
   },
   bow = {
      name = "bow",
      verb = "shoot",
      verb_and = "shoot"
   },
   crossbow = {
      name = "crossbow",
      verb = "shoot",
      verb_and = "shoot"
   },
   firearm = {
      name = "gun",
      verb = "shoot",
      verb_and = "shoot"
   },
   throwing = {
      verb = "shoot",
      verb_and = "shoot"
   }
}

return {
   damage = {
      weapon = {
         elona = damage
      }
   }
}
