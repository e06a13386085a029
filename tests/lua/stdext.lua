-- OpenNefia's standard-library extensions, called as its code calls them.

function test_string_extensions_work_as_methods_too()
   Assert.same(("a,b"):split(","), { "a", "b" })
   Assert.same(string.split("a,,b", ","), { "a", "", "b" })
   Assert.same(string.split("", ","), { "" })
   Assert.same(string.split("a,", ","), { "a", "" })
   Assert.same(string.split("one\ntwo"), { "one", "two" }, "a newline by default")
   Assert.same(string.split("a.b-c", ".-"), { "a", "b", "c" }, "any one of the characters, none magic")
   Assert.eq(("elona.putit"):has_prefix("elona."), 1)
   Assert.eq(("elona.putit"):has_prefix("base."), nil)
   Assert.eq(("elona.putit"):has_suffix("putit"), 7)
   Assert.eq((("elona.putit"):strip_prefix("elona.")), "putit")
   Assert.eq(select(2, ("elona.putit"):strip_prefix("base.")), 0)
   Assert.eq((("file.lua"):strip_suffix(".lua")), "file")
   Assert.eq(("  x y \t"):strip_whitespace(), "x y")
   Assert.eq(string.nonempty(""), false)
   Assert.eq(string.nonempty("a"), true)
   local lines = {}
   for line in ("a\nb"):lines() do lines[#lines + 1] = line end
   Assert.same(lines, { "a", "b" })
end

function test_table_extensions()
   local a = table.merge({ x = 1, y = 2 }, { y = 3, z = 4 })
   Assert.same(a, { x = 1, y = 3, z = 4 })
   Assert.same(table.merge_missing({ x = 1 }, { x = 2, y = 2 }), { x = 1, y = 2 })
   Assert.same(table.merge_existing({ x = 1 }, { x = 2, y = 2 }), { x = 2 })
   Assert.same(table.imerge({ 1 }, { 2, 3 }), { 1, 2, 3 })
   Assert.eq(table.count({ 1, 2, x = 3 }), 3)
   local keys = table.keys({ a = 1, b = 2 })
   table.sort(keys)
   Assert.same(keys, { "a", "b" })
   Assert.same(table.set({ "a", "b" }), { a = true, b = true })
   local nested = { list = { 1, 2 }, name = "n" }
   nested.self = nested
   local copy = table.deepcopy(nested)
   Assert.ne(copy.list, nested.list, "a copy all the way down")
   Assert.eq(copy.self, copy, "cycles stay cycles")
   Assert.eq(table.deepcompare(copy, nested), true)
   copy.list[2] = 3
   Assert.eq(table.deepcompare(copy, nested), false)
   Assert.eq(table.deepcompare({ 1.0 }, { 1.05 }, false, 0.1), true, "within eps")
   Assert.same(table.flatten({ { 1 }, { 2, 3 } }), { 1, 2, 3 })
   Assert.eq(table.maybe({ a = { b = 5 } }, "a", "b"), 5)
   Assert.eq(table.maybe({ a = {} }, "a", "b", "c"), nil)
   local list = { 1, 2, 3, 2 }
   Assert.eq(table.iremove_value(list, 2), 2)
   Assert.same(list, { 1, 3, 2 })
   Assert.same(table.remove_by({ 1, 2, 3, 4 }, function(v) return v % 2 == 0 end), { 1, 3 })
   Assert.same(table.remove_indices({ "a", "b", "c", "d" }, { 2, 4 }), { "a", "c" })
   Assert.same(table.of("x", 3), { "x", "x", "x" })
   Assert.same(table.of(function(i) return i * i end, 3), { 1, 4, 9 })
   Assert.eq(table.has_value({ "a" }, "a"), true)
   local held = { 1 }
   table.replace_with(held, { 5, 6 })
   Assert.same(held, { 5, 6 })
end

function test_math_extensions()
   Assert.eq(math.clamp(5, 1, 3), 3)
   Assert.eq(math.clamp(-1, 0, 3), 0)
   Assert.eq(math.percent(200, 15), 30)
   Assert.eq(math.percent_inc(200, 10), 220)
   Assert.eq(math.percent_dec(200, 10), 180)
   Assert.same({ math.sign(-3), math.sign(0), math.sign(2) }, { -1, 0, 1 })
end

function test_the_standard_tables_stay_read_only_to_mods()
   Assert.eq(type(string.split), "function", "the extension is there to protect")
   Assert.throws(function() string.split = nil end, "read-only")
   Assert.throws(function() table.merge = print end, "read-only")
   Assert.eq(type(string.split), "function", "and is still there")
end
