//! The signatures of `I18N`, OpenNefia's localization API (`i18n/api.lua`). A key is a
//! `nefia.locale_key`: the keys of the project's locale files as string literal types, so a
//! misspelled key is flagged where it is used.

use super::{Signature, sig};

/// The signatures of `I18N`'s functions.
pub const I18N: &[Signature] = &[
    sig(
        "I18N.get",
        "key: nefia.locale_key, ...: any",
        "string",
        "The text of `key` (\"ns:key\" outside base) formatted with the arguments, or \"<error: key>\".",
    ),
    sig(
        "I18N.get_optional",
        "key: nefia.locale_key, ...: any",
        "string?",
        "The text of `key`, or nil if no locale file has it.",
    ),
    sig(
        "I18N.get_array",
        "key: nefia.locale_key",
        "any[]?",
        "Every value of `key` as a list (one value: a list of one), or nil.",
    ),
    sig(
        "I18N.localize",
        "data_type: string, id: string, field: string, ...: any",
        "string",
        "Field `field` of prototype `id` in the current language (its `_` entry), or \"<error: ...>\".",
    ),
    sig(
        "I18N.localize_optional",
        "data_type: string, id: string, field: string, ...: any",
        "string?",
        "Field `field` of prototype `id` in the current language, or nil.",
    ),
    sig(
        "I18N.switch_language",
        "language: nefia.id.base.language, force?: boolean",
        "",
        "Switches to the base.language `language` (\"base.japanese\"); prototypes' localized names follow.",
    ),
    sig("I18N.language", "", "string", "The current language's code (\"en\", \"jp\")."),
    sig("I18N.language_id", "", "string", "The current language's id (\"base.english\")."),
    sig("I18N.is_fullwidth", "", "boolean", "True in a language of fullwidth characters (Japanese)."),
    sig("I18N.capitalize", "text: string", "string", "`text` capitalized as the current language does."),
    sig("I18N.space", "", "string", "\"\" in a fullwidth language, else \" \"."),
    sig("I18N.quote", "text: string", "string", "`text` in double quotes."),
    sig("I18N.quote_character", "", "string", "The opening quote of speech in Japanese, 「."),
    sig(
        "I18N.quote_speech",
        "key: string, ...: any",
        "string",
        "Key `key`'s text (or `key`), quoted unless fullwidth.",
    ),
    sig("I18N.is_quoted", "text: string", "boolean", "Whether `text` is quoted (「」 or \"\")."),
    sig(
        "I18N.get_choice_count",
        "prefix: string, suffix?: string",
        "integer",
        "How many keys `prefix._0.suffix`, `prefix._1.suffix`, ... there are in a row.",
    ),
];
