-- OpenNefia's IItemEquipment (mod.elona.api.aspect.IItemEquipment): what a piece of
-- equipment gives. Nefia has no aspects yet, so its use is as a key of a prototype's data
-- extensions, as OpenNefia's prototypes write it:
--
--    _ext = { [IItemEquipment] = { hit_bonus = 4, damage_bonus = 8, equip_slots = { "elona.ranged" } } }
--
-- read back with data["base.item"]:ext(id, IItemEquipment).
return class.interface("IItemEquipment", {
   dv = "number",
   pv = "number",
   hit_bonus = "number",
   damage_bonus = "number",
   equip_slots = "table",
   pcc_part = { optional = true },
})
