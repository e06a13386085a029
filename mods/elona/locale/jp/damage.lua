-- From OpenNefia (https://github.com/Ruin0x11/OpenNefia, MIT licence: mods/elona/locale/LICENSE),
-- src/mod/elona/locale/jp/damage.lua at commit dbe3eaa38fb8730bc74007bf9734a54376429490, unchanged.
local damage = {
   long_sword = {
      name = "長剣",
      verb = "切られた",
      verb_and = "切り払い"
   },
   short_sword = {
      name = "短剣",
      verb = "刺された",
      verb_and = "突き刺して"
   },
   axe = {
      name = "斧",
      verb = "切られた",
      verb_and = "切り払い"
   },
   blunt = {
      name = "鈍器",
      verb = "打たれた",
      verb_and = "打って"
   },
   polearm = {
      name = "槍",
      verb = "刺された",
      verb_and = "突き刺して"
   },
   stave = {
      name = "杖",
      verb = "打たれた",
      verb_and = "打って"
   },
   scythe = {
      name = "鎌",
      verb = "切られた",
      verb_and = "切り払い"
   },
   bow = {
      name = "弓",
      verb = "撃たれた",
      verb_and = "射撃し"
   },
   crossbow = {
      name = "クロスボウ",
      verb = "撃たれた",
      verb_and = "射撃し"
   },
   firearm = {
      name = "銃",
      verb = "撃たれた",
      verb_and = "射撃し"
   },
   throwing = {
      verb = "攻撃された",
      verb_and = "投げ"
   }
}

return {
   damage = {
      weapon = {
         elona = damage
      }
   }
}
