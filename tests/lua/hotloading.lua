-- Hotloading from Lua as OpenNefia's tests do it: source text given to a module path with
-- env.load_transient_path, required, then replaced with hotload.hotload.

function test_transient_code_is_required_and_hotloaded_in_place()
   env.load_transient_path("mod.elona.transient_greeter", "elona", "return { greet = function() return 'hello' end }")
   local greeter = require("mod.elona.transient_greeter")
   Assert.eq(greeter.greet(), "hello")

   env.load_transient_path("mod.elona.transient_greeter", "elona", "return { greet = function() return 'bye' end }")
   local again = hotload.hotload("mod.elona.transient_greeter").module
   Assert.eq(again.greet(), "bye")
   Assert.eq(greeter.greet(), "bye", "holders of the module see the new code")
   Assert.eq(require("mod.elona.transient_greeter"), greeter)
end

function test_a_broken_hotload_is_an_error_naming_the_line_and_the_old_code_stays()
   env.load_transient_path("transient_counter", "elona", "return { n = 1 }")
   local counter = hotload.hotload("mod.elona.transient_counter").module
   Assert.eq(counter.n, 1, "a module not loaded yet is loaded")
   env.load_transient_path("transient_counter", "elona", "return {\n n = ")
   Assert.throws(function() hotload.hotload("mod.elona.transient_counter") end, "transient_counter.lua:2")
   Assert.eq(require("mod.elona.transient_counter").n, 1)
   env.unload_transient_paths()
   Assert.throws(function() hotload.hotload("mod.elona.transient_counter") end, "has no file for it")
   Assert.throws(function() hotload.hotload("mod.nobody.x") end, "mod 'nobody' is not loaded")
   Assert.throws(function() env.load_transient_path("../x", "elona", "") end, "is not a module name")
end
