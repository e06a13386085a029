Chara.create = function() end
