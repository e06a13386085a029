-- Languages (OpenNefia's base.language, src/mod/base/data/language.lua): what I18N.switch_language
-- takes. A language's locale files are each mod's locale/<language_code>/*.lua.
data:add_type {
   name = "language",
   fields = {
      { name = "language_code", type = types.string, default = "en", doc = "The folder of its locale files: locale/<language_code>/ in each mod." },
      { name = "pseudo", type = types.boolean, default = false, doc = "Shows its text accented, 40% longer and bracketed, to find text that would not fit a longer translation." },
   },
}

data:add { _type = "base.language", _id = "english", language_code = "en" }
data:add { _type = "base.language", _id = "japanese", language_code = "jp" }
-- English made accented, longer and bracketed: what text that does not fit looks like.
data:add { _type = "base.language", _id = "pseudo", language_code = "en", pseudo = true }

data:add {
   _type = "base.event",
   _id = "after_get_translation",
   doc = "I18N.get or I18N.localize answered (the result, nil if the key is missing): return text to answer instead. params: language_id, kind (\"get\" or \"localize\"), id (a get's key) or _type and _id (a localize's prototype), args.",
   params = { { "language_id", "string" }, { "kind", "string" }, { "id", "string?" }, { "_type", "string?" }, { "_id", "string?" }, { "args", "any[]" } },
}
