-- The English language's helpers a locale file sees as globals (name, he, his, s, is, you, ...):
-- OpenNefia's src/internal/i18n/env/en.lua (https://github.com/Ruin0x11/OpenNefia, MIT licence,
-- commit dbe3eaa38fb8730bc74007bf9734a54376429490), answering as it does: it is given I18N's
-- `get` and the world's random `choice` instead of requiring them, and its pronouns (he, his,
-- him, himself) share one body.
local i18n = ...

local en = {}

function en.you()
   return i18n.get("chara.you")
end

function en.name(obj, ignore_sight)
   -- >>>>>>>> shade2/init.hsp:4082 	#defcfunc name int tc ..
   if type(obj) == "table" then
      if obj.is_player then
         return en.you()
      end

      if not obj.is_visible and not ignore_sight then
         return i18n.get("chara.something")
      end

      local name = obj.name or i18n.get("chara.something")
      local first = name:sub(1, 1)

      -- HACK should be a property instead, like `has_own_name = true/"random"`
      if first == "\"" or first == "<" or first == "{" then
         return name
      elseif not obj.has_own_name then
         return "the " .. name
      else
         return name
      end
   end
   -- <<<<<<<< shade2/init.hsp:4090 	return cnName(tc) ..

   return i18n.get("chara.something")
end

function en.basename(obj)
   if type(obj) == "table" then
      return obj.basename or obj.name or i18n.get("chara.something")
   end

   return i18n.get("chara.something")
end

function en.itemname(obj)
   if type(obj) == "table" then
      return obj.name or i18n.get("chara.something")
   end

   return i18n.get("chara.something")
end

en.itembasename = en.basename

function en.ordinal(n)
   if n % 10 == 1 and n ~= 11 then
      return tostring(n) .. "st"
   elseif n % 10 == 2 and n ~= 12 then
      return tostring(n) .. "nd"
   elseif n % 10 == 3 and n ~= 13 then
      return tostring(n) .. "rd"
   else
      return tostring(n) .. "th"
   end
end

function en.s(obj, need_e)
   if type(obj) == "number" then
      if obj > 1 then
         return ""
      else
         return "s"
      end
   elseif type(obj) == "table" then
      if obj.amount then
         if obj.amount > 1 then
            return ""
         else
            return "s"
         end
      end

      if obj.is_player then
         return ""
      elseif need_e then
         return "es"
      else
         return "s"
      end
   end

   return "s"
end

function en.is(obj)
   if type(obj) == "number" then
      if obj > 1 then
         return "are"
      end
   elseif type(obj) == "table" then
      if obj.amount then
         if obj.amount > 1 then
            return ""
         else
            return "is"
         end
      end

      if obj.is_player then
         return "are"
      end
   end

   return "is"
end

function en.have(obj)
   if type(obj) == "table" then
      if obj.is_player then
         return "have"
      end
   end

   return "has"
end

function en.does(obj)
   local n = obj
   if type(obj) == "table" then
      if obj.amount then
         n = obj.amount
      elseif obj.is_player then
         return "do"
      end
   end

   if n == 1 then
      return "do"
   end

   return "does"
end

-- A pronoun helper (he, his, him): `words` are its word for a male, a female (`female_seen`
-- when sight is not ignored, if it differs), anything else and the player.
local function pronoun(words)
   local female_seen = words.female_seen or words.female
   return function(obj, ignore_sight)
      if type(obj) ~= "table" then
         return words.it
      end

      if ignore_sight then
         if obj.gender == "male" then
            return words.male
         elseif obj.gender == "female" then
            return words.female
         else
            return words.it
         end
      end

      if not obj.is_visible then
         return words.it
      end

      if obj.is_player then
         return words.you
      elseif obj.gender == "male" then
         return words.male
      elseif obj.gender == "female" then
         return female_seen
      end

      return words.it
   end
end

en.he = pronoun { male = "he", female = "she", it = "it", you = "you" }
en.his = pronoun { male = "his", female = "hers", female_seen = "her", it = "its", you = "your" }
en.him = pronoun { male = "him", female = "her", it = "it", you = "you" }

function en.his_owned(obj)
   if type(obj) == "table" then
      if obj.is_player then
         return "r"
      end
   end

   return "'s"
end

local reflexive = pronoun { male = "himself", female = "herself", it = "itself", you = "yourself" }

-- Sight is never ignored.
function en.himself(obj)
   return reflexive(obj)
end

function en.trim_job(name_with_job)
   return string.gsub(name_with_job, " .*", "") .. " "
end

function en.name_nojob(obj)
   return en.trim_job(en.name(obj))
end

function en.capitalize(str)
   if str == "" then
      return str
   end

   return str:gsub("^%l", string.upper)
end

function en.plural(count, suffix)
   suffix = suffix or "s"
   return count == 1 and "" or suffix

end

return en
