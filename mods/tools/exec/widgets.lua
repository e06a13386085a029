-- Puts the tools' widgets on the HUD.
local LogWidget = require("api.gui.LogWidget")

Gui.add_widget("tools.log", LogWidget.new(6))
