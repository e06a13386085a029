//! Handles remember the slot their object is stored at; a slot taken over by another object
//! after the first was freed is never mistaken for it.

use nefia_tests::TestGame;

#[test]
fn a_handle_whose_object_was_freed_does_not_reach_the_object_now_in_its_slot() {
    let game = TestGame::new();
    game.exec(
        "old = Chara.create('elona.putit', 1, 1) old.hp = 7 assert(old:calc('hp') == 7) assert(old.equip) \
         old:remove_ownership()",
    );
    // The editor (or a sweep) frees the object while the script still holds its handle.
    let old_uid: u64 = game.eval("old.uid");
    game.runtime.world_mut().sweep(|_| false);
    assert!(!game.runtime.world().exists(nefia_game::Uid(old_uid)));
    game.exec("new = Chara.create('elona.putit', 2, 2) new.hp = 99 assert(new:calc('hp') == 99)");
    let (old_slot, new_slot): (Option<u32>, Option<u32>) = game.eval("rawget(old, 2), rawget(new, 2)");
    assert!(old_slot.is_some(), "the old handle learned its slot");
    assert_eq!(new_slot, old_slot, "the new object took the freed slot (else this test proves nothing)");
    for code in ["return old:calc('hp')", "return old.hp", "old:mod('hp', 1, 'add')", "return old.equip"] {
        let answer = format!("{:?}", game.runtime.eval(code));
        assert!(answer.contains("no longer exists"), "{code}: {answer}");
    }
    assert_eq!(game.eval::<i64>("new:calc('hp')"), 99, "the new object is untouched");
}
