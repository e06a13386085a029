//! A change of a watched field, as the watchpoints and "when did this change?" report it ([`FieldChange`]).

use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// A change a collecting watch noted: the answer to "When did this change?".
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FieldChange {
    /// The game turn it happened on.
    pub turn: u64,
    /// The object.
    pub uid: Uid,
    /// The field.
    pub field: Symbol,
    /// Its value before.
    pub old: Value,
    /// Its value after.
    pub new: Value,
    /// What made it: `file:line` of the Lua line, or the operation's name.
    pub at: String,
}
