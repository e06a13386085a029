//! Property tests: random sequences of object operations keep every position index
//! consistent and every uid unique, and the change log the invariants of each object read
//! names every object that changed, with the fields that did.

use nefia_game::location::{EquipFrom, Holder};
use nefia_game::{MapId, ObjectKind, Uid, World};
use nefia_tests::TestGame;
use proptest::prelude::*;

/// One operation; object and map operands are indices into the live lists, taken modulo
/// their length when applied.
#[derive(Debug, Clone)]
enum Op {
    Create {
        kind: usize,
        map: usize,
        x: i32,
        y: i32,
    },
    SetPos {
        object: usize,
        x: i32,
        y: i32,
    },
    TakeIntoMap {
        object: usize,
        map: usize,
        x: i32,
        y: i32,
    },
    TakeIntoInventory {
        object: usize,
        holder: usize,
    },
    Equip {
        object: usize,
        holder: usize,
    },
    RemoveOwnership {
        object: usize,
    },
    Clone {
        object: usize,
    },
    Sweep {
        keep_every: usize,
    },
    /// A write of field `FIELDS[field]`, as `WRITES[how]` writes it.
    Write {
        object: usize,
        field: usize,
        how: usize,
        value: i64,
    },
}

/// The fields [`Op::Write`] writes.
const FIELDS: [&str; 3] = ["hp", "dv", "name"];

/// The ways [`Op::Write`] writes: `obj.f = v`, `mod`, `mod_base`, `reset`, clearing every
/// temp value (a refresh's first half), going back to the prototype's value.
const WRITES: usize = 6;

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
        3 => (any::<usize>(), 0..FIELDS.len(), 0..WRITES, -3..3i64)
            .prop_map(|(object, field, how, value)| Op::Write { object, field, how, value }),
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
        Op::Write { object, field, how, value } => {
            use nefia_game::{ModMethod, Origin, Symbol, Value};
            let Some(uid) = pick(object) else { return };
            let (field, value) = (Symbol::intern(FIELDS[field]), Value::Int(value));
            let _ = match how {
                0 => world.set_base(uid, field, value),
                1 => world.mod_temp(uid, field, value, ModMethod::Add, Origin::tool("test")),
                2 => world.mod_base(uid, field, value, ModMethod::Add),
                3 => world.reset(uid, field, value),
                4 => world.clear_temp(uid),
                _ => world.reset_to_prototype(uid, field),
            };
        }
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
                    let origin = nefia_game::Origin::tool("test");
                    let field = nefia_game::Symbol::intern("dv");
                    let _ = world.mod_temp(uid, field, nefia_game::Value::Int(*value), nefia_game::ModMethod::Add, origin);
                }
            }
            let charas: Vec<Uid> = placed.iter().copied().filter(|&u| world.object(u).unwrap().kind == ObjectKind::Chara).collect();
            if let Some(&hero) = charas.get(player % charas.len().max(1)) {
                world.set_player(hero).unwrap();
            }
        }
        let first = {
            let tables = nefia_lua::save::save_tables(game.runtime.lua()).unwrap();
            game.runtime.world().save_game(tables)
        };
        let path = std::path::Path::new("round_trip.ron");
        let text = nefia_game::files::to_ron(path, &first).unwrap();
        let parsed: nefia_game::save::SaveGame = nefia_game::files::parse_ron(path, &text).unwrap();
        prop_assert_eq!(&parsed, &first, "the text reads back as written");
        let hash = game.runtime.state_hash().unwrap();
        game.runtime.world_mut().load_game(&parsed).unwrap();
        prop_assert_eq!(game.runtime.state_hash().unwrap(), hash, "the loaded state hashes the same");
        prop_assert_eq!(game.runtime.world().check_invariants(), Ok(()));
        let second = {
            let tables = nefia_lua::save::save_tables(game.runtime.lua()).unwrap();
            game.runtime.world().save_game(tables)
        };
        prop_assert_eq!(second, first);
    }
}

/// What the change log must notice of an object: where it is and what its fields hold.
#[derive(Clone, PartialEq)]
struct Seen {
    id: nefia_game::Symbol,
    place: (Option<nefia_game::location::Location>, i32, i32),
    fields: nefia_game::moddable::Moddable,
}

fn seen(world: &World) -> std::collections::BTreeMap<Uid, Seen> {
    world
        .all_objects()
        .map(|o| (o.uid, Seen { id: o.id, place: (o.location(), o.x, o.y), fields: o.fields.clone() }))
        .collect()
}

/// The fields whose base or temp value differs between `a` and `b`.
fn fields_changed(a: &nefia_game::moddable::Moddable, b: &nefia_game::moddable::Moddable) -> Vec<nefia_game::Symbol> {
    let mut names: Vec<nefia_game::Symbol> = Vec::new();
    for (name, _) in a.base.iter().chain(b.base.iter()) {
        if a.base.get(name) != b.base.get(name) {
            names.push(name);
        }
    }
    for (name, _) in a.temp.iter().chain(b.temp.iter()) {
        if a.temp.get(name).map(|t| &t.value) != b.temp.get(name).map(|t| &t.value) {
            names.push(name);
        }
    }
    names
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// After any operations, every object made, moved or written since the log was last
    /// taken is in it, with each changed field (and x, y for a move on its map): an
    /// invariant of each object that looks only at the log misses nothing; and the
    /// bookkeeping check of what changed finds a consistent world consistent.
    #[test]
    fn the_change_log_names_every_object_that_changed_with_its_fields(
        setup in prop::collection::vec(op(), 0..300),
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let game = TestGame::new();
        let mut world = game.runtime.world_mut();
        let maps: Vec<MapId> = (0..3).map(|i| world.create_map(12 - i, 12, None).unwrap()).collect();
        for op in &setup {
            apply(&mut world, &maps, op);
        }
        world.log_changes(true);
        prop_assert_eq!(world.take_changes(), None, "turned on, the first check looks at everything");
        let before = seen(&world);
        for op in &ops {
            apply(&mut world, &maps, op);
        }
        let after = seen(&world);
        world.begin_check();
        prop_assert_eq!(world.check_bookkeeping(), Ok(()), "the check of what changed finds nothing wrong");
        let Some(changes) = world.checking().cloned() else {
            return Err(TestCaseError::fail("the log was on: only what changed"));
        };
        world.end_check();
        let changed = &changes.objects;
        let (x, y) = (nefia_game::Symbol::intern("x"), nefia_game::Symbol::intern("y"));
        for (uid, now) in &after {
            let logged = changed.get(uid);
            let Some(was) = before.get(uid) else {
                prop_assert!(logged.is_some_and(|c| c.touches(&[x]) && c.touches(&[nefia_game::Symbol::intern("hp")])), "uid {} was made: {:?}", uid, logged);
                continue;
            };
            if was.id != now.id || was.place.0 != now.place.0 {
                prop_assert_eq!(logged, Some(&nefia_game::world::Changed::Whole), "uid {} changed prototype or location", uid);
            }
            if (was.place.1, was.place.2) != (now.place.1, now.place.2) {
                prop_assert!(logged.is_some_and(|c| c.touches(&[x]) && c.touches(&[y])), "uid {} moved: {:?}", uid, logged);
            }
            for field in fields_changed(&was.fields, &now.fields) {
                prop_assert!(logged.is_some_and(|c| c.touches(&[field])), "uid {}'s {} changed: {:?}", uid, field, logged);
            }
        }
        // A load puts everything back to be looked at.
        let save = world.save_game(Default::default());
        world.load_game(&save).unwrap();
        prop_assert_eq!(world.take_changes(), None);
        prop_assert!(world.logs_changes(), "still on after a load");
    }
}

/// With the change log on, as `nefia fuzz` and the editor's toggle have it, an invariant of
/// each character that reads `hp` checks no one after characters only moved, the one whose
/// hp was written after that, the one made, and everyone again after a load or after the
/// prototypes changed (a hotload).
#[test]
fn with_the_log_on_an_invariant_of_each_object_checks_only_what_changed() {
    let game = TestGame::new();
    let as_mod = |code: &str| {
        let file = tempfile::Builder::new().suffix(".lua").tempfile().expect("a file");
        std::fs::write(file.path(), code).expect("written");
        game.runtime.run_file_as(file.path(), "test", &[]).unwrap_or_else(|f| panic!("{f}"))
    };
    // The mod's environment, where its check notes the uids it was called with.
    let env = as_mod(
        "data:add { _type = 'base.invariant', _id = 'counted', each = 'base.chara', fields = { 'hp' },
                    check = function(c) checked[#checked + 1] = c.uid return true end }",
    );
    game.exec("a, b = Chara.create('elona.putit', 1, 1), Chara.create('elona.putit', 5, 5)");
    let checked = |game: &TestGame| -> Vec<u64> {
        env.set("checked", game.runtime.lua().create_table().unwrap()).unwrap();
        game.exec("World.check_invariants()");
        env.get("checked").unwrap()
    };
    let uid = |name: &str| game.eval::<u64>(&format!("{name}.uid"));
    assert_eq!(checked(&game), vec![uid("a"), uid("b")], "the log off: everyone");
    game.runtime.world_mut().log_changes(true);
    assert_eq!(checked(&game).len(), 2, "just turned on: everyone");
    assert!(checked(&game).is_empty(), "nothing changed");
    game.exec("a:set_pos(2, 1) b:set_pos(6, 5) b.dv = 3");
    assert!(checked(&game).is_empty(), "they moved and b's dv changed: not what it reads");
    game.exec("b.hp = 2");
    assert_eq!(checked(&game), vec![uid("b")], "b's hp was written");
    game.exec("c = Chara.create('elona.putit', 8, 8)");
    assert_eq!(checked(&game), vec![uid("c")], "c was made");
    let save = game.runtime.world().save_game(Default::default());
    game.runtime.world_mut().load_game(&save).expect("it loads");
    assert_eq!(checked(&game).len(), 3, "after a load: everyone");
    assert!(checked(&game).is_empty());
    as_mod("data:add { _type = 'base.chara', _id = 'big_putit', max_hp = 60 }");
    assert_eq!(checked(&game).len(), 3, "after the prototypes changed: everyone");
}
