Map.open("../../etc/passwd")
