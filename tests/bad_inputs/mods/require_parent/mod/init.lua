require("..outside")
