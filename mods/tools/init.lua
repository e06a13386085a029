-- Developer tools, laid out as in OpenNefia: the widget's code in api/gui/LogWidget.lua, its
-- registration in exec/widgets.lua.
require("exec.widgets")
