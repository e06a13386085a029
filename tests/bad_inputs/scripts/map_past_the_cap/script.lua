InstancedMap:new(5000, 5000)
