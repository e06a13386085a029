//! Property tests: random sequences of object operations keep every position index
//! consistent and every uid unique.

use nefia_runtime::game::location::{EquipFrom, Holder};
use nefia_runtime::{MapId, ObjectKind, Uid, World};
use nefia_tests::TestGame;
use proptest::prelude::*;

/// One operation; object and map operands are indices into the live lists, taken modulo
/// their length when applied.
#[derive(Debug, Clone)]
enum Op {
    Create { kind: usize, map: usize, x: i32, y: i32 },
    SetPos { object: usize, x: i32, y: i32 },
    TakeIntoMap { object: usize, map: usize, x: i32, y: i32 },
    TakeIntoInventory { object: usize, holder: usize },
    Equip { object: usize, holder: usize },
    RemoveOwnership { object: usize },
    Clone { object: usize },
    Sweep { keep_every: usize },
}

fn op() -> impl Strategy<Value = Op> {
    let coordinate = -2..14i32;
    prop_oneof![
        3 => (0..4usize, 0..3usize, coordinate.clone(), coordinate.clone()).prop_map(|(kind, map, x, y)| Op::Create { kind, map, x, y }),
        3 => (any::<usize>(), coordinate.clone(), coordinate.clone()).prop_map(|(object, x, y)| Op::SetPos { object, x, y }),
        2 => (any::<usize>(), 0..3usize, coordinate.clone(), coordinate).prop_map(|(object, map, x, y)| Op::TakeIntoMap { object, map, x, y }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(object, holder)| Op::TakeIntoInventory { object, holder }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(object, holder)| Op::Equip { object, holder }),
        1 => any::<usize>().prop_map(|object| Op::RemoveOwnership { object }),
        1 => any::<usize>().prop_map(|object| Op::Clone { object }),
        1 => (1..5usize).prop_map(|keep_every| Op::Sweep { keep_every }),
    ]
}

const PROTOTYPES: [(ObjectKind, &str); 4] = [
    (ObjectKind::Chara, "elona.putit"),
    (ObjectKind::Item, "elona.dagger"),
    (ObjectKind::Item, "elona.bag"),
    (ObjectKind::Feat, "elona.door"),
];

fn apply(world: &mut World, maps: &[MapId], op: &Op) {
    let live: Vec<Uid> = {
        let mut uids: Vec<Uid> = world.all_objects().map(|o| o.uid).collect();
        uids.sort();
        uids
    };
    let pick = |i: usize| (!live.is_empty()).then(|| live[i % live.len()]);
    // Refusals are fine: the point is that nothing an operation does, or refuses to do,
    // breaks the bookkeeping.
    match *op {
        Op::Create { kind, map, x, y } => {
            let (kind, id) = PROTOTYPES[kind];
            let uid = world.create(kind, id).unwrap();
            let _ = world.take_object(Holder::Map(maps[map]), uid, x, y);
        }
        Op::SetPos { object, x, y } => {
            if let Some(uid) = pick(object) {
                let _ = world.set_pos(uid, x, y);
            }
        }
        Op::TakeIntoMap { object, map, x, y } => {
            if let Some(uid) = pick(object) {
                let _ = world.take_object(Holder::Map(maps[map]), uid, x, y);
            }
        }
        Op::TakeIntoInventory { object, holder } => {
            if let (Some(uid), Some(holder)) = (pick(object), pick(holder)) {
                let _ = world.take_object(Holder::Object(holder), uid, 0, 0);
            }
        }
        Op::Equip { object, holder } => {
            if let (Some(uid), Some(holder)) = (pick(object), pick(holder)) {
                let _ = world.equip(holder, uid, None, EquipFrom::Inventory);
            }
        }
        Op::RemoveOwnership { object } => {
            if let Some(uid) = pick(object) {
                world.remove_ownership(uid).unwrap();
            }
        }
        Op::Clone { object } => {
            if let Some(uid) = pick(object) {
                world.clone_object(uid).unwrap();
            }
        }
        Op::Sweep { keep_every } => world.sweep(|uid| (uid.0 as usize).is_multiple_of(keep_every)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn random_operations_keep_locations_consistent(ops in prop::collection::vec(op(), 10_000)) {
        let game = TestGame::new();
        let mut world = game.runtime.world_mut();
        let maps: Vec<MapId> = (0..3).map(|i| world.create_map(12 - i, 12, None).unwrap()).collect();
        let mut uids_seen = 0;
        for (i, op) in ops.iter().enumerate() {
            apply(&mut world, &maps, op);
            if i % 250 == 0 {
                prop_assert_eq!(world.check_invariants(), Ok(()), "after op {} ({:?})", i, op);
            }
            let next = world.next_uid().0;
            prop_assert!(next >= uids_seen, "the uid counter never goes back");
            uids_seen = next;
        }
        prop_assert_eq!(world.check_invariants(), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any world the engine builds saves and loads back to an equal world, through the text
    /// of a save file too.
    #[test]
    fn any_world_saves_and_loads_back_to_an_equal_world(
        ops in prop::collection::vec(op(), 0..400),
        temp in prop::collection::vec((any::<usize>(), -50i64..50), 0..20),
        player in any::<usize>(),
    ) {
        let game = TestGame::new();
        {
            let mut world = game.runtime.world_mut();
            let maps: Vec<MapId> = (0..3).map(|i| world.create_map(12 - i, 12, None).unwrap()).collect();
            for op in &ops {
                apply(&mut world, &maps, op);
            }
            let placed: Vec<Uid> = {
                let mut uids: Vec<Uid> = world.all_objects().filter(|o| o.location().is_some()).map(|o| o.uid).collect();
                uids.sort();
                uids
            };
            for (object, value) in &temp {
                if let Some(&uid) = placed.get(object % placed.len().max(1)) {
                    let origin = nefia_runtime::Origin::tool("test");
                    let field = nefia_runtime::Symbol::intern("dv");
                    let _ = world.mod_temp(uid, field, nefia_runtime::Value::Int(*value), nefia_runtime::ModMethod::Add, origin);
                }
            }
            let charas: Vec<Uid> = placed.iter().copied().filter(|&u| world.object(u).unwrap().kind == ObjectKind::Chara).collect();
            if let Some(&hero) = charas.get(player % charas.len().max(1)) {
                world.set_player(hero).unwrap();
            }
        }
        let first = {
            let tables = nefia_runtime::lua::save::save_tables(game.runtime.lua()).unwrap();
            game.runtime.world().save_game(tables)
        };
        let path = std::path::Path::new("round_trip.ron");
        let text = nefia_runtime::game::files::to_ron(path, &first).unwrap();
        let parsed: nefia_runtime::game::save::SaveGame = nefia_runtime::game::files::parse_ron(path, &text).unwrap();
        prop_assert_eq!(&parsed, &first, "the text reads back as written");
        let hash = game.runtime.state_hash().unwrap();
        game.runtime.world_mut().load_game(&parsed).unwrap();
        prop_assert_eq!(game.runtime.state_hash().unwrap(), hash, "the loaded state hashes the same");
        prop_assert_eq!(game.runtime.world().check_invariants(), Ok(()));
        let second = {
            let tables = nefia_runtime::lua::save::save_tables(game.runtime.lua()).unwrap();
            game.runtime.world().save_game(tables)
        };
        prop_assert_eq!(second, first);
    }
}
