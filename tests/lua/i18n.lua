-- I18N, as OpenNefia's (src/api/I18N.lua) answers, with OpenNefia's own locale files of the
-- elona mod (mods/elona/locale/en and jp).

function test_keys_and_prototypes_answer_in_english_and_japanese()
   Assert.eq(I18N.language_id(), "base.english")
   Assert.eq(I18N.language(), "en")
   Assert.eq(I18N.get("damage.weapon.elona.long_sword.name"), "sword")
   Assert.eq(I18N.localize("base.chara", "elona.putit", "name"), "putit")
   Assert.eq(I18N.get("chara._.elona.putit.name"), "putit")
   I18N.switch_language("base.japanese")
   Assert.eq(I18N.language_id(), "base.japanese")
   Assert.eq(I18N.language(), "jp")
   Assert.eq(I18N.localize("base.chara", "elona.putit", "name"), "プチ")
   Assert.eq(I18N.get("damage.weapon.elona.long_sword.name"), "長剣")
   I18N.switch_language("base.english")
   Assert.eq(I18N.localize("base.chara", "elona.putit", "name"), "putit")
end

function test_require_gives_the_global()
   Assert.eq(require("api.I18N"), I18N)
end

function test_a_missing_key_reads_as_an_error_and_optional_as_nil()
   Assert.eq(I18N.get("no.such.key"), "<error: no.such.key>")
   Assert.is_nil(I18N.get_optional("no.such.key"))
   Assert.eq(I18N.localize("base.chara", "elona.nobody", "name"), "<error: base.chara:elona.nobody.name>")
   Assert.is_nil(I18N.localize_optional("base.chara", "elona.putit", "nothing"))
end

function test_function_values_get_the_arguments()
   Assert.eq(I18N.localize("base.item", "elona.gold_piece", "name"), "gold piece")
   Assert.eq(I18N.get("aspect._.elona.IItemMonsterBall.level", "ball", 3), "ball Level 3(Empty)")
   I18N.switch_language("base.japanese")
   Assert.eq(I18N.get("aspect._.elona.IItemMonsterBall.level", "ボール", 3), "ボール Lv 3 (空)")
   I18N.switch_language("base.english")
end

function test_language_helpers()
   Assert.eq(I18N.capitalize("putit"), "Putit")
   Assert.eq(I18N.space(), " ")
   Assert.is_false(I18N.is_fullwidth())
   Assert.eq(I18N.quote("hi"), "\"hi\"")
   I18N.switch_language("base.japanese")
   Assert.eq(I18N.capitalize("putit"), "putit")
   Assert.eq(I18N.space(), "")
   Assert.is_true(I18N.is_fullwidth())
   I18N.switch_language("base.english")
end

function test_unknown_language_is_an_error_naming_the_languages()
   local ok, err = pcall(I18N.switch_language, "base.klingon")
   Assert.is_false(ok)
   Assert.contains(tostring(err), "unknown language 'base.klingon'")
   Assert.contains(tostring(err), "base.japanese")
end

function test_after_get_translation_can_change_the_answer()
   Event.register("base.after_get_translation", "shout", function(_, params, result)
      if params.kind == "get" and params.id == "damage.weapon.elona.axe.name" then
         return result:upper()
      end
   end)
   Assert.eq(I18N.get("damage.weapon.elona.axe.name"), "AXE")
   Assert.eq(I18N.get("damage.weapon.elona.bow.name"), "bow")
end

function test_a_character_made_in_japanese_is_named_in_japanese()
   I18N.switch_language("base.japanese")
   local putit = Chara.create("elona.putit", 1, 1)
   Assert.eq(putit.name, "プチ")
   I18N.switch_language("base.english")
   Assert.eq(putit.name, "putit")
   Assert.eq(data["base.chara"]["elona.putit"].name, "putit")
end

function test_the_pseudo_language_is_accented_longer_and_bracketed()
   I18N.switch_language("base.pseudo")
   local text = I18N.get("damage.weapon.elona.long_sword.name")
   Assert.eq(text:sub(1, 1), "[")
   Assert.eq(text:sub(-1), "]")
   Assert.is_true(utf8.len(text) >= math.ceil(#"sword" * 1.4) + 2, text)
   Assert.is_nil(text:find("sword", 1, true), "accented: " .. text)
   I18N.switch_language("base.english")
end

function test_choice_count_and_arrays()
   local count = I18N.get_choice_count("item._.elona.academic_table.desc", "text")
   Assert.eq(count, 0)
   I18N.switch_language("base.japanese")
   Assert.eq(I18N.get_choice_count("item._.elona.academic_table.desc", "text"), 1)
   I18N.switch_language("base.english")
   Assert.eq(#I18N.get_array("damage.weapon.elona.bow.name"), 1)
end
