//! Prototype fields that code sets again after `data:add`:
//! `data["base.chara"]["elona.x"].max_hp = 50` in a later file (or later in the same one).
//!
//! `data[type][id]` is the very table given to `data:add`, so such a write changes what Lua
//! code reading the prototype sees (a map generator's `tile`), while the prototype's source
//! still says the old value: a form editing that value would report success and change
//! nothing the code reads. A field is overridden when its value in the Lua table differs from
//! the one `data:add` was given (kept by the registry); the overriding lines are found by
//! reading the loaded mods' files with the Lua lexer for an assignment to the field through
//! the prototype's id (`[...]["elona.x"].max_hp =`, `:ensure("elona.x").max_hp =`) or through
//! a local holding it (`local x = data["base.chara"]["elona.x"]` … `x.max_hp =`).

use full_moon::tokenizer::{Lexer, LexerResult, Symbol as LuaSymbol, TokenType};
use mlua::Lua;

use super::convert::from_lua;
use super::engine;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// A prototype field whose value the game reads is not the one its `data:add` gives.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct Overridden {
    /// The value the prototype's Lua table holds.
    pub live: Value,
    /// The value its `data:add` gave (nil if it gave none).
    pub given: Value,
    /// The lines that set it (`mods/elona/content/x.lua:40`), where they could be found.
    pub at: Vec<String>,
}

impl Overridden {
    fn describe(&self) -> String {
        let Overridden { live, given, at } = self;
        match at.as_slice() {
            [] => format!(
                "it is set again by code after its data:add (the game has {live}, its data:add {given}): edit it \
                 where that code sets it"
            ),
            [line] => format!("it is set again at {line} after its data:add (the game has {live}): edit it there"),
            [first, rest @ ..] => format!(
                "it is set again at {first} after its data:add (the game has {live}), and at {}: edit it there",
                rest.join(", ")
            ),
        }
    }
}

/// Whether code has set field `field` of prototype `id` (of `data_type`) again after its
/// `data:add`, and where. A value that is not plain data (a function) is never judged.
pub fn overridden(lua: &Lua, data_type: &str, id: &str, field: &str) -> Option<Overridden> {
    let mlua::Value::Table(entry) = super::data::prototype_table(lua, data_type, id).ok()? else { return None };
    let live = from_lua(lua, &entry.raw_get::<mlua::Value>(field).ok()?, field).ok()?;
    let engine = engine(lua);
    let origin = {
        let world = engine.world.borrow();
        let data_type = world.data.data_type(data_type).ok()?.id;
        let proto = world.data.proto(world.data.find(data_type, id).ok()?);
        let given = Symbol::lookup(field).and_then(|f| proto.given.get(f).cloned()).unwrap_or(Value::Nil);
        if given == live {
            return None;
        }
        (proto.origin.clone(), given)
    };
    let ((origin, given), mut files) = (origin, Vec::new());
    for source in engine.sources.borrow().values() {
        if let Some(path) = &source.path {
            files.push((source.name, path.clone()));
        }
    }
    files.sort();
    let mut at = Vec::new();
    for (name, path) in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let after = if name == origin.file { origin.line } else { 0 };
        at.extend(
            assignment_lines(nefia_game::source_edit::without_bom(&text).1, id, field)
                .into_iter()
                .filter(|&line| line > after)
                .map(|l| format!("{name}:{l}")),
        );
    }
    Some(Overridden { live, given, at })
}

/// A token of Lua that is not space or a comment, as the search reads it.
#[derive(Debug, PartialEq)]
enum Token {
    /// A string literal's text.
    Str(String),
    /// A name.
    Name(String),
    /// A keyword or punctuation.
    Punct(LuaSymbol),
    /// A number or anything else.
    Other,
}

/// The 1-based lines of `text` that assign field `field` of the prototype whose full id is
/// `id` (see the module documentation). A file that does not tokenize gives what was read
/// before the error.
pub fn assignment_lines(text: &str, id: &str, field: &str) -> Vec<u32> {
    let tokens = match Lexer::new(text, full_moon::LuaVersion::lua54()).collect() {
        LexerResult::Ok(tokens) | LexerResult::Recovered(tokens, _) => tokens,
        LexerResult::Fatal(_) => Vec::new(),
    };
    let tokens: Vec<(Token, u32)> = tokens
        .iter()
        .filter_map(|token| {
            let line = u32::try_from(token.start_position().line()).unwrap_or(u32::MAX);
            let kind = match token.token_type() {
                TokenType::Whitespace { .. }
                | TokenType::SingleLineComment { .. }
                | TokenType::MultiLineComment { .. }
                | TokenType::Shebang { .. }
                | TokenType::Eof => return None,
                TokenType::StringLiteral { literal, .. } => Token::Str(literal.to_string()),
                TokenType::Identifier { identifier } => Token::Name(identifier.to_string()),
                TokenType::Symbol { symbol } => Token::Punct(*symbol),
                _ => Token::Other,
            };
            Some((kind, line))
        })
        .collect();
    let at = |i: usize| tokens.get(i).map(|(token, _)| token);
    let punct = |i: usize, symbol: LuaSymbol| at(i) == Some(&Token::Punct(symbol));
    // The prototype's id closing an index or a call: `["elona.x"]`, `("elona.x")`.
    let names_prototype = |i: usize| {
        matches!(at(i), Some(Token::Str(s)) if s == id)
            && (punct(i + 1, LuaSymbol::RightBracket) || punct(i + 1, LuaSymbol::RightParen))
    };
    // `.field =` or `["field"] =` at `i`: the line of the field.
    let assigns_field = |i: usize| {
        let after = match (at(i), at(i + 1), at(i + 2)) {
            (Some(Token::Punct(LuaSymbol::Dot)), Some(Token::Name(name)), _) if name == field => i + 2,
            (
                Some(Token::Punct(LuaSymbol::LeftBracket)),
                Some(Token::Str(name)),
                Some(Token::Punct(LuaSymbol::RightBracket)),
            ) if name == field => i + 3,
            _ => return None,
        };
        punct(after, LuaSymbol::Equal).then(|| tokens[i + 1].1)
    };
    let in_chain = |token: &Token| match token {
        Token::Name(_) | Token::Str(_) => true,
        Token::Punct(symbol) => matches!(
            symbol,
            LuaSymbol::Dot
                | LuaSymbol::Colon
                | LuaSymbol::LeftBracket
                | LuaSymbol::RightBracket
                | LuaSymbol::LeftParen
                | LuaSymbol::RightParen
        ),
        Token::Other => false,
    };
    let mut aliases: Vec<&str> = Vec::new();
    let mut lines = Vec::new();
    for i in 0..tokens.len() {
        if names_prototype(i) {
            if let Some(line) = assigns_field(i + 2) {
                lines.push(line);
            }
            // `local x = <chain ending in the id>`: x holds the prototype.
            let chain_ends = !matches!(
                at(i + 2),
                Some(
                    Token::Punct(
                        LuaSymbol::Dot
                            | LuaSymbol::Colon
                            | LuaSymbol::LeftBracket
                            | LuaSymbol::LeftParen
                            | LuaSymbol::LeftBrace
                    ) | Token::Str(_)
                )
            );
            let start = (0..i).rev().find(|&j| !in_chain(&tokens[j].0)).unwrap_or(0);
            if chain_ends
                && start >= 2
                && punct(start, LuaSymbol::Equal)
                && punct(start - 2, LuaSymbol::Local)
                && let Some(Token::Name(alias)) = at(start - 1)
            {
                aliases.push(alias);
            }
        }
        if let Some(Token::Name(name)) = at(i)
            && aliases.contains(&name.as_str())
            && !(i > 0 && (punct(i - 1, LuaSymbol::Dot) || punct(i - 1, LuaSymbol::Colon)))
            && let Some(line) = assigns_field(i + 1)
        {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::assignment_lines;

    #[test]
    fn an_assignment_through_the_id_or_a_local_holding_the_prototype_is_found() {
        let text = r#"data:add { _type = "base.chara", _id = "x", max_hp = 10 }
data["base.chara"]["elona.x"].max_hp = 50
data["base.chara"]["elona.x"]["max_hp"] = 60
data["base.chara"]:ensure("elona.x").max_hp = 70
print(data["base.chara"]["elona.x"].max_hp == 50)
data["base.chara"]["elona.y"].max_hp = 80
data["base.chara"]["elona.x"].hp = 5
local x = data["base.chara"]["elona.x"]
x.max_hp = 90
local name = data["base.chara"]["elona.x"].name
name.max_hp = 1
other.x.max_hp = 2
-- data["base.chara"]["elona.x"].max_hp = 3
"#;
        assert_eq!(assignment_lines(text, "elona.x", "max_hp"), vec![2, 3, 4, 9]);
    }
}
