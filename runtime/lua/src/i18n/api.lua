-- OpenNefia's I18N (src/api/I18N.lua and src/internal/i18n/init.lua, MIT licence), the API's
-- `I18N`, as OpenNefia's behaves: `get`/`get_optional`/`get_array` read a key (`"ns:key"`, or
-- `"key"` for the `base` namespace), picking a list's value at random (with the world's
-- random numbers, so a replay picks the same) and calling a function value with the
-- arguments; `localize`/`localize_optional` read a prototype's `_` entry; a missing key reads
-- `<error: key>`; every answer goes through the `base.after_get_translation` event. Runs once,
-- given the API table, what Rust does for it (`native`, see i18n.rs) and the languages'
-- helpers (`envs`: en.lua, jp.lua). Returns the internal table Rust keeps.
local api, native, envs = ...

local I18N = {}
local state = {
   language_id = "base.english",
   language = "en",
   pseudo = false,
   -- By language code: keys by namespace, as OpenNefia's `i18n.db`.
   db = {},
   -- By language code: the `_` entries, by data type and id, as OpenNefia's `i18n.data`.
   data = {},
   env = {},
}
local internal = { state = state }

-- Accented look-alikes of the ASCII letters, for the pseudo-language.
local ACCENTED = {
   a = "á", b = "ƀ", c = "ç", d = "ď", e = "é", f = "ƒ", g = "ĝ", h = "ĥ", i = "í", j = "ĵ", k = "ķ", l = "ľ",
   m = "ɱ", n = "ñ", o = "ó", p = "þ", q = "ʠ", r = "ŕ", s = "š", t = "ţ", u = "ú", v = "ṽ", w = "ŵ", x = "ẋ",
   y = "ý", z = "ž", A = "Á", B = "Ɓ", C = "Ç", D = "Ď", E = "É", F = "Ƒ", G = "Ĝ", H = "Ĥ", I = "Í", J = "Ĵ",
   K = "Ķ", L = "Ľ", M = "Ṁ", N = "Ñ", O = "Ó", P = "Þ", Q = "Ǫ", R = "Ŕ", S = "Š", T = "Ţ", U = "Ú", V = "Ṽ",
   W = "Ŵ", X = "Ẋ", Y = "Ý", Z = "Ž",
}

-- `text` in the pseudo-language: accented, 40% longer and bracketed, to show where a
-- translation would not fit.
local function pseudo(text)
   if type(text) ~= "string" then
      return text
   end
   local length = utf8.len(text) or #text
   local accented = text:gsub("%a", ACCENTED)
   return "[" .. accented .. (" ~"):rep(math.ceil(length * 0.4 / 2)) .. "]"
end
internal.pseudo = pseudo

-- A list's value, picked with the world's random numbers.
local function choice(list)
   return list[math.random(#list)]
end

local reify_one
reify_one = function(db, item, key)
   if type(item) == "string" or type(item) == "function" then
      db[key] = item
   elseif type(item) == "table" then
      if item[1] then
         -- A list of options; one is chosen at random.
         db[key] = item
      else
         for k, v in pairs(item) do
            local next_key = key == "" and tostring(k) or key .. "." .. tostring(k)
            reify_one(db, v, next_key)
         end
      end
   else
      error(("%s: a locale value is a string, a function, a list or a table of keys, not %s"):format(key, type(item)))
   end
end

-- One loaded file's keys into `merged` (a namespace's) and its `_` entries into `localize`.
local function load_single_translation(loaded, merged, localize)
   local ok, err = pcall(reify_one, merged, loaded.result, "")
   if not ok then
      error(("%s: %s"):format(loaded.file, err), 0)
   end
   for k, v in pairs(loaded.result) do
      local _type = loaded.namespace .. "." .. tostring(k)
      if type(v) == "table" and type(v._) == "table" then
         for mod_id, entries in pairs(v._) do
            for name, entry in pairs(entries) do
               local _id = ("%s.%s"):format(mod_id, name)
               if native.is_prototype(_type, _id) then
                  localize[_type] = localize[_type] or {}
                  localize[_type][_id] = {}
                  reify_one(localize[_type][_id], entry, "")
               end
            end
         end
      end
   end
end

-- The helpers a locale file of language `code` sees as globals.
local function helpers_of(code)
   local function get(...) return I18N.get_optional(...) end
   local make = envs[code]
   local env = make and make({ get = get, choice = choice }) or {}
   env.get = get
   env.rnd = function(n) return math.random(n) - 1 end
   return env
end

-- Shows each prototype's localized fields (a `name`) to its objects.
local function localize_prototypes()
   native.clear_localized()
   for _type, ids in pairs(state.data[state.language] or {}) do
      for _id, fields in pairs(ids) do
         for field, value in pairs(fields) do
            if type(value) == "string" then
               native.localize_prototype(_type, _id, field, state.pseudo and pseudo(value) or value)
            end
         end
      end
   end
end

-- Loads the current language's files again (a project opened, a locale file saved). If a
-- file fails, what was loaded before stays.
function internal.reload()
   local code = state.language
   local env = helpers_of(code)
   local db, data = {}, {}
   for _, loaded in ipairs(native.load(code, env)) do
      db[loaded.namespace] = db[loaded.namespace] or {}
      load_single_translation(loaded, db[loaded.namespace], data)
   end
   state.env, state.db[code], state.data[code] = env, db, data
   state.has_event = native.is_prototype("base.event", "base.after_get_translation")
   localize_prototypes()
end

--- Switches the current language to the base.language `lang` ("base.japanese").
function I18N.switch_language(lang, force)
   if type(lang) ~= "string" then
      error("I18N.switch_language takes a base.language id, such as \"base.japanese\"", 2)
   end
   local code, is_pseudo = native.language(lang)
   if code == nil and lang ~= "base.english" then
      error(("unknown language '%s': no mod declares base.language (the base mod does)"):format(lang), 2)
   end
   state.language_id, state.language, state.pseudo = lang, code or "en", is_pseudo
   if state.db[state.language] == nil or force then
      internal.reload()
   else
      state.env = helpers_of(code)
      localize_prototypes()
   end
end
internal.switch_language = I18N.switch_language

--- The current language's code ("en", "jp").
function I18N.language()
   return state.language
end

--- The current language's id ("base.english").
function I18N.language_id()
   return state.language_id
end

function I18N.quote_character()
   return "「"
end

--- "" in a fullwidth language, else " ".
function I18N.space()
   if I18N.is_fullwidth() then
      return ""
   end
   return " "
end

--- True if the current language uses fullwidth characters.
function I18N.is_fullwidth()
   return I18N.language() == "jp"
end

--- `str` capitalized as the current language does (unchanged in Japanese).
function I18N.capitalize(text)
   local cap = state.env.capitalize
   if type(cap) ~= "function" then
      return text
   end
   return (cap(text))
end

local function get_namespace_and_key(key)
   if type(key) ~= "string" then
      return "base", tostring(key)
   end
   local pos = key:find(":")
   if pos == nil then
      return "base", key
   end
   return key:sub(1, pos - 1), key:sub(pos + 1)
end

-- A found entry as text: a list's pick, a function's answer.
local function answer(entry, where, ...)
   if type(entry) == "table" and entry[1] then
      entry = choice(entry)
   end
   if type(entry) == "string" then
      return entry
   elseif type(entry) == "function" then
      local ok, result = pcall(entry, ...)
      if not ok then
         return ("<error [%s]: %s>"):format(where, result)
      end
      return result
   end
   return nil
end

local function raw_get(full_key, ...)
   local namespace, key = get_namespace_and_key(full_key)
   local root = state.db[state.language]
   local ns = root and root[namespace]
   local entry = ns and ns[key]
   if not entry then
      return nil
   end
   return answer(entry, namespace .. ":" .. key, ...)
end

local function raw_localize(_type, _id, key, ...)
   local for_type = (state.data[state.language] or {})[_type]
   local fields = for_type and for_type[_id]
   if fields == nil then
      return nil
   end
   return answer(fields[key], ("%s:%s._%s"):format(_type, _id, key), ...)
end

-- The arguments as a formatter gets them: a localizable object's locale data, a key's text.
local function localized_args(...)
   local args = {}
   for i = 1, select("#", ...) do
      local arg = select(i, ...)
      if type(arg) == "table" and type(arg.produce_locale_data) == "function" then
         args[i] = arg:produce_locale_data()
      else
         args[i] = I18N.get_optional(arg) or arg
      end
   end
   return args
end

local function after(params, result)
   if state.has_event then
      result = api.Event.trigger("base.after_get_translation", params, result)
   end
   if state.pseudo then
      return pseudo(result)
   end
   return result
end

--- The text of key `text` formatted with the arguments, or nil if no language file has it.
function I18N.get_optional(text, ...)
   local args = localized_args(...)
   local result = raw_get(text, table.unpack(args, 1, select("#", ...)))
   return after({ language_id = state.language_id, kind = "get", id = text, args = args }, result)
end

--- The text of key `text` formatted with the arguments, or "<error: text>".
function I18N.get(text, ...)
   return I18N.get_optional(text, ...) or ("<error: %s>"):format(text)
end

--- Every value of key `full_key` as a list (one value: a list of one), or nil.
function I18N.get_array(full_key)
   local namespace, key = get_namespace_and_key(full_key)
   local root = state.db[state.language]
   local ns = root and root[namespace]
   local entry = ns and ns[key]
   if entry == nil then
      return nil
   end
   if type(entry) == "table" and entry[1] then
      return entry
   end
   return { entry }
end

--- Field `key` of prototype `_id` of `_type` in the current language (its `_` entry), or nil.
function I18N.localize_optional(_type, _id, key, ...)
   local args = localized_args(...)
   local result = raw_localize(_type, _id, key, table.unpack(args, 1, select("#", ...)))
   return after({ language_id = state.language_id, kind = "localize", _type = _type, _id = _id, args = args }, result)
end

--- Field `key` of prototype `_id` of `_type` in the current language, or "<error: ...>".
function I18N.localize(_type, _id, key, ...)
   return I18N.localize_optional(_type, _id, key, ...) or ("<error: %s:%s.%s>"):format(_type, _id, key)
end

--- How many keys `prefix._0.suffix`, `prefix._1.suffix`, ... there are in a row.
function I18N.get_choice_count(prefix, suffix)
   local i = 0
   suffix = suffix and ("." .. suffix) or ""
   while I18N.get_optional(prefix .. "._" .. i .. suffix) do
      i = i + 1
   end
   return i
end

--- Key `id`'s text (or `id` itself), quoted unless the language is fullwidth.
function I18N.quote_speech(id, ...)
   local text = I18N.get_optional(id, ...) or id
   if not I18N.is_fullwidth() then
      text = I18N.quote(text)
   end
   return text
end

--- `text` in double quotes.
function I18N.quote(text)
   return ("\"%s\""):format(text)
end

--- Whether `text` is quoted (「」 or "").
function I18N.is_quoted(text)
   return not not (text:match("「.*」") or text:match("\".*\""))
end

api.I18N = I18N
return internal
