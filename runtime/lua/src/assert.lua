-- Assertions for Lua tests (the engine's own, and the end checks of a project's regression
-- recordings). Each raises an error pointing at the caller's line.

local Assert = {}

local function show(value)
   if type(value) == "string" then
      return string.format("%q", value)
   end
   return tostring(value)
end

local function fail(message, user_message)
   if user_message then
      message = user_message .. ": " .. message
   end
   error(message, 3)
end

function Assert.eq(actual, expected, message)
   if actual ~= expected then
      fail("expected " .. show(expected) .. ", got " .. show(actual), message)
   end
end

function Assert.ne(actual, unexpected, message)
   if actual == unexpected then
      fail("expected anything but " .. show(unexpected), message)
   end
end

function Assert.is_true(value, message)
   if value ~= true then
      fail("expected true, got " .. show(value), message)
   end
end

function Assert.is_false(value, message)
   if value ~= false then
      fail("expected false, got " .. show(value), message)
   end
end

function Assert.is_truthy(value, message)
   if not value then
      fail("expected a truthy value, got " .. show(value), message)
   end
end

function Assert.is_falsy(value, message)
   if value then
      fail("expected a falsy value (nil or false), got " .. show(value), message)
   end
end

function Assert.is_nil(value, message)
   if value ~= nil then
      fail("expected nil, got " .. show(value), message)
   end
end

function Assert.not_nil(value, message)
   if value == nil then
      fail("expected a value, got nil", message)
   end
end

local function dump(value, depth)
   if type(value) ~= "table" then
      return show(value)
   end
   if depth > 3 then
      return "{...}"
   end
   local keys = {}
   for k in pairs(value) do
      keys[#keys + 1] = k
   end
   table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
   local parts = {}
   for _, k in ipairs(keys) do
      parts[#parts + 1] = "[" .. show(k) .. "] = " .. dump(value[k], depth + 1)
   end
   return "{" .. table.concat(parts, ", ") .. "}"
end

--- Deep equality of tables (and plain equality of anything else).
function Assert.same(actual, expected, message)
   if not table.deepcompare(actual, expected, true) then
      fail("expected " .. dump(expected, 0) .. ", got " .. dump(actual, 0), message)
   end
end

-- Calls `fn`, which must raise an error whose message `matches` (described by `what`);
-- returns the message.
local function raised(fn, matches, what, message)
   local ok, err = pcall(fn)
   if ok then
      fail("expected an error " .. what .. ", but it succeeded", message)
   end
   err = tostring(err)
   if not matches(err) then
      fail("expected an error " .. what .. ", got " .. show(err), message)
   end
   return err
end

--- Asserts that `fn` raises an error whose message contains `fragment` (plain text).
--- Returns the message.
function Assert.throws(fn, fragment, message)
   local function contains(err) return fragment == nil or string.find(err, fragment, 1, true) ~= nil end
   return raised(fn, contains, "containing " .. show(fragment), message)
end

--- Asserts that `fn` raises an error whose message matches the Lua pattern `pattern`, as
--- OpenNefia's `Assert.throws_error` does. Returns the message.
function Assert.throws_error(fn, pattern, message)
   local function matching(err) return pattern == nil or string.find(err, pattern) ~= nil end
   return raised(fn, matching, "matching " .. show(pattern), message)
end

--- Asserts that `text` contains `fragment` (plain text).
function Assert.contains(text, fragment, message)
   if type(text) ~= "string" or not string.find(text, fragment, 1, true) then
      fail("expected " .. show(text) .. " to contain " .. show(fragment), message)
   end
end

--- Asserts that `text` matches the Lua pattern `pattern` (OpenNefia's `Assert.matches`).
function Assert.matches(text, pattern, message)
   if type(text) ~= "string" or not string.find(text, pattern) then
      fail("expected " .. show(text) .. " to match " .. show(pattern), message)
   end
end

_ENV.Assert = Assert
return Assert
