//! The signatures of `types`, OpenNefia's type checkers (`types.lua`).

use super::{Signature, sig};

/// The signatures of `types`' functions (its checkers themselves are tables).
pub const TYPES: &[Signature] = &[
    sig(
        "types.check",
        "value: any, checker: table, verbose?: boolean",
        "boolean, string?",
        "true, or false and OpenNefia's message: what is wrong and where.",
    ),
    sig("types.is_type_checker", "value: any", "boolean, string?", "Whether `value` is one of types' checkers."),
    sig(
        "types.wrap",
        "checker: table",
        "fun(value: any): boolean, string?",
        "A function checking its argument with `checker`.",
    ),
    sig(
        "types.wrap_strict",
        "checker: table",
        "fun(value: any): boolean",
        "A function raising OpenNefia's message unless its argument passes `checker`.",
    ),
    sig("types.optional", "checker: table", "table", "Nil, or what `checker` accepts."),
    sig("types.list", "checker: table", "table", "A sequence of what `checker` accepts."),
    sig("types.map", "key: table, value: table", "table", "A table from keys to values of the two checkers."),
    sig("types.set", "checker: table", "table", "A table whose keys `checker` accepts, each true."),
    sig("types.keys", "checker: table", "table", "A table whose keys `checker` accepts."),
    sig("types.values", "checker: table", "table", "A table whose values `checker` accepts."),
    sig(
        "types.fields",
        "fields: table<string, table>, array_part?: table",
        "table",
        "A table whose named fields the checkers accept.",
    ),
    sig(
        "types.fields_strict",
        "fields: table<string, table>",
        "table",
        "`fields`, refusing keys it does not name and missing required ones.",
    ),
    sig("types.tuple", "checkers: table[]", "table", "A table whose values by position the checkers accept."),
    sig("types.some", "...: table", "table", "What any one of the checkers accepts."),
    sig("types.all", "...: table", "table", "What every one of the checkers accepts."),
    sig("types.literal", "...: any", "table", "One of the values given."),
    sig("types.enum", "enum: table", "table", "A value of an enum made by Enum.new."),
    sig(
        "types.data_id",
        "data_type: string",
        "table",
        "The id of a prototype of `data_type` (`data_id(\"base.chara\")`).",
    ),
    sig("types.data_entry", "data_type: string", "table", "A prototype table of `data_type`."),
    sig("types.map_object", "data_type: string", "table", "A map object of `data_type`, or any with \"any\"."),
    sig("types.callback", "...: any", "table", "A function."),
    sig("types.class", "class: table", "table", "An instance of `class`."),
    sig("types.interface", "interface: table", "table", "An instance of a class implementing `interface`."),
    sig("types.gt", "checker: table, bound: number", "table", "What `checker` accepts above `bound`."),
    sig("types.gteq", "checker: table, bound: number", "table", "What `checker` accepts at or above `bound`."),
    sig("types.lt", "checker: table, bound: number", "table", "What `checker` accepts below `bound`."),
    sig("types.lteq", "checker: table, bound: number", "table", "What `checker` accepts at or below `bound`."),
    sig(
        "types.range",
        "checker: table, min: number, max: number",
        "table",
        "What `checker` accepts from `min` to `max`.",
    ),
    sig("types.positive", "checker: table", "table", "What `checker` accepts at or above 0."),
    sig("types.negative", "checker: table", "table", "What `checker` accepts below 0."),
];
