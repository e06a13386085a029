-- UI layers, widgets and messages, headless.

function test_query_without_a_queued_answer_is_canceled()
   local choice, canceled = Prompt:new({ "Yes", "No" }):query()
   Assert.is_nil(choice)
   Assert.is_true(canceled)
end

function test_query_takes_queued_answers_in_order()
   Gui.push_ui_result({ index = 2 })
   Gui.push_ui_result("Aria")
   local choice, canceled = Prompt:new({ "Yes", "No" }):query()
   Assert.is_false(canceled)
   Assert.eq(choice.index, 2)
   Assert.eq(choice.text, "No")
   local name = TextInput:new({ prompt = "Your name?" }):query()
   Assert.eq(name, "Aria")
end

function test_the_seeds_prompt_example_runs_headless()
   Gui.push_ui_result({ index = 1 })
   local prompt = Prompt:new({ "Yes", "No" })
   local choice, canceled = prompt:query()
   if canceled then return end
   if choice.index == 1 then
      Gui.mes("You picked 'Yes'.")
   end
   Assert.same(Gui.messages(1), { "You picked 'Yes'." })
end

function test_list_menus_and_custom_layers_answer_from_the_queue()
   Gui.push_ui_result({ index = 3 })
   local choice = ListMenu:new({ title = "Pick", items = { "a", "b", "c" } }):query()
   Assert.eq(choice.text, "c")
   Gui.push_ui_result(42)
   local layer = UiLayer:new({ name = "custom", draw = function() end })
   Assert.eq(layer:query(), 42)
end

function test_layers_need_their_data()
   Assert.throws(function() ListMenu:new({ title = "x" }):query() end, "needs a list of items")
   Assert.throws(function() Prompt:new("nope") end, "made from a table")
end

function test_widgets_are_added_and_removed_by_id()
   Assert.throws(function() Gui.add_widget("broken", {}) end, "needs a draw(self, d) function")
   Gui.add_widget("test.counter", { draw = function(self, d) d:text(0, 0, "hi") end })
   local found = false
   for _, id in ipairs(Gui.widgets()) do
      if id == "test.counter" then found = true end
   end
   Assert.is_true(found)
   Assert.is_true(Gui.remove_widget("test.counter"))
   Assert.is_false(Gui.remove_widget("test.counter"))
end

function test_messages_and_log_keep_history()
   for i = 1, 12 do Gui.mes("message " .. i) end
   local last = Gui.messages(3)
   Assert.same(last, { "message 10", "message 11", "message 12" })
   Log.warn("something", 42)
   local recent = Log.recent(1)
   Assert.eq(recent[1].level, "warn")
   Assert.eq(recent[1].text, "something 42")
end
