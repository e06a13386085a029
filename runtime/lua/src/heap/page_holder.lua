-- A mod that holds memory the Lua heap's pages keep (see lua/heap.rs): it makes whole pages of
-- strings in every size class from 40 to 512 bytes, keeps one string in each page and lets the
-- rest go, then asks for `more` bytes in 1 KiB strings. It uses a string a page and holds the
-- pages. Returns how many strings it kept.
local pages_per_class, more = ...
local kept, counter = {}, 100000000000
for class = 4, 63 do
    -- A string of n bytes is a block of 25 + n; the 12 digits of `counter` make each one new.
    local slot = (class + 1) * 8
    local pad, per_page = ('x'):rep(slot - 25 - 12), 16384 // slot
    local made = {}
    for i = 1, per_page * pages_per_class do
        counter = counter + 1
        made[i] = pad .. counter
    end
    for i = 1, #made, per_page do
        kept[#kept + 1] = made[i]
    end
end
collectgarbage()
for i = 1, more // 1024 do
    kept[#kept + 1] = ('y'):rep(1000) .. i
end
return #kept
