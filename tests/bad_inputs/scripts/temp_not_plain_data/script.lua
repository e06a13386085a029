Chara.player().temp.fov = print
