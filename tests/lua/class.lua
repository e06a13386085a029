-- OpenNefia's `class` library: interfaces with required fields and methods, classes that
-- implement them, delegation, and the questions code asks (`is_an`, `implements`).

local IDrawable = class.interface("IDrawable", { x = "number", glyph = { default = "?" } })
function IDrawable:describe()
   return ("%s at %d"):format(self.glyph, self.x)
end

local IWidget = class.interface("IWidget", {}, IDrawable)

local Label = class.class("Label", IWidget)
function Label:init(x, text)
   self.x = x
   self.text = text
end
function Label:shout()
   return self.text:upper()
end

function test_a_class_instance_runs_its_init_and_finds_methods_in_its_interfaces()
   local label = Label:new(3, "hi")
   Assert.eq(label:shout(), "HI")
   Assert.eq(label.glyph, "?", "a required field's default is filled in")
   Assert.eq(label:describe(), "? at 3", "a parent interface's method")
   Assert.eq(tostring(label), "instance of 'Label'")
   Assert.eq(tostring(Label), "Class 'Label'")
   Assert.eq(tostring(IWidget), "Interface 'IWidget'")
   -- A method added to an interface later reaches instances made before.
   function IDrawable:width()
      return 1
   end
   Assert.eq(label:width(), 1)
end

function test_is_an_implements_and_the_predicates()
   local label = Label:new(1, "a")
   Assert.is_true(class.is_an(Label, label))
   Assert.is_true(class.is_an(IWidget, label))
   Assert.is_true(class.is_an(IDrawable, label), "through the parent")
   Assert.is_true(class.is_an(IDrawable, { x = 2, glyph = "@" }), "a table with the required fields")
   Assert.is_false(class.is_an(IDrawable, { glyph = "@" }))
   Assert.is_false(class.is_an(Label, { x = 1 }))
   Assert.is_false(class.is_an(Label, nil))
   Assert.is_true(class.implements(IDrawable, Label))
   Assert.is_true(class.uses_interface(Label, IWidget))
   Assert.is_false(class.uses_interface(Label, IDrawable), "only the ones it names")
   Assert.is_true(class.is_class(Label))
   Assert.is_false(class.is_class(IWidget))
   Assert.is_true(class.is_interface(IWidget))
   Assert.is_true(class.is_class_instance(label))
   Assert.is_false(class.is_class_instance({}))
   Assert.throws(function() class.assert_is_an(IDrawable, { glyph = 1 }) end, "x (number)")
   Assert.throws(function() class.is_an("IDrawable", label) end, "a class or an interface")
end

function test_new_checks_the_interfaces_and_is_called_with_a_colon()
   local Broken = class.class("Broken", IDrawable)
   Assert.throws(function() Broken:new() end, "lacks what Interface 'IDrawable' requires:\n    x (number)")
   Assert.throws(function() Label.new(1, "a") end, "call it with a colon, Label:new(...)")
   Assert.throws(function() class.class("Bad", { "IDrawable" }) end, "interface 1 of Bad is not an interface")
end

function test_delegate_forwards_methods_to_a_field()
   local Stack = class.class("Stack")
   function Stack:init()
      self.items = {}
   end
   function Stack:push(v)
      self.items[#self.items + 1] = v
      return #self.items
   end
   local Holder = class.class("Holder")
   Holder:delegate("stack", { "push" })
   function Holder:init()
      self.stack = Stack:new()
   end
   local holder = Holder:new()
   Assert.eq(holder:push("a"), 1)
   Assert.eq(holder:push("b"), 2)
   holder.stack = nil
   Assert.throws(function() holder:push("c") end, "forwards to the field 'stack', which is nil")
end

function test_the_makers_name_what_was_wrong()
   Assert.throws(function() class.interface(42) end, "the name is a string such as \"IMyLayer\", not a number")
   Assert.throws(function() class.class(nil) end, "the name is a string such as \"MyLayer\", not a nil")
   Assert.throws(function() class.interface("IBad", {}, { 5 }) end, "parent 1 of IBad is not an interface but 5")
end
