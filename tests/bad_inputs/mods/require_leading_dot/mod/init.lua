require(".etc.passwd")
