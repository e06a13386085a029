//! Reading a Lua file's `data:add` calls, and the entries of its `data:add_multi` lists, into
//! byte spans of its text, with full_moon.
//!
//! Nothing here keeps the syntax tree: each call, its table and the table's fields become plain
//! byte ranges of the text (and the values of the fields written as literals), so the edits are
//! splices of the original text and everything they do not touch stays byte for byte.
//!
//! OpenNefia adds most content with `data:add_multi(type, list)`, which adds each entry of the
//! list with `_type` set to `type`; the list is a table constructor in the call or, as its
//! `chara.lua` writes it, a `local` of the same block set to one before the call
//! (`local chara = { {...}, ... }` ... `data:add_multi("base.chara", chara)`) and not assigned
//! again in between. Each entry that is a table constructor is read as a prototype's table, as
//! a `data:add`'s is.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use full_moon::ast::{
    Block, Call, Expression, Field, FunctionArgs, FunctionBody, FunctionCall, GenericFor, NumericFor, Prefix, Repeat,
    Stmt, Suffix, TableConstructor, UnOp, Var, While,
};
use full_moon::node::Node;
use full_moon::tokenizer::{StringLiteralQuoteType, Symbol, TokenReference, TokenType};
use full_moon::visitors::Visitor;
use full_moon::{Error, LuaVersion};

use crate::value::{Key, Value};

/// One `data:add` call of the file, or one entry of a `data:add_multi` list: a prototype's
/// table and where it stands.
#[derive(Debug)]
pub(super) struct DataAdd {
    /// The byte of `data` (of the entry's first token, for an entry of a list).
    pub start: usize,
    /// The line of `data` (of the entry).
    pub line: u32,
    /// The line of the call's (the entry's) last token.
    pub end_line: u32,
    /// The whole statement, its `;` included, when the call is a statement of its own; for an
    /// entry of a list, the entry and the separator after it.
    pub statement: Option<Range<usize>>,
    /// The line break that ends the statement's (the entry's) last line, if only trivia follows
    /// it there.
    pub statement_break: Option<Range<usize>>,
    /// What the call is inside of that runs it a number of times other than once ("a for
    /// loop", "a function"), innermost first; `None` when it runs once as the file loads.
    pub enclosing: Option<&'static str>,
    /// Its table, or `None` when its argument (the entry) is not a table constructor.
    pub table: Option<Table>,
    /// For an entry of a `data:add_multi` list, the list's type and how the entry sits in it.
    pub listed: Option<Listed>,
}

/// How an entry of a `data:add_multi(type, list)` list sits in the list.
#[derive(Debug)]
pub(super) struct Listed {
    /// The call's `type`, when it is a string literal: the `_type` of every entry.
    pub data_type: Option<String>,
    /// The lines of the `data:add_multi` call, its first and its last.
    pub call_lines: (u32, u32),
    /// Which positional item of the list the entry is, from 1 (`ipairs`' index).
    pub position: usize,
    /// The entry itself, from its first byte to its last.
    pub entry: Range<usize>,
    /// The `,` or `;` after it in the list.
    pub separator: Option<Range<usize>>,
}

/// A table constructor: its braces and fields.
#[derive(Debug)]
pub(super) struct Table {
    /// The `{`.
    pub open: Range<usize>,
    /// The `}`.
    pub close: Range<usize>,
    /// Its fields in source order.
    pub fields: Vec<FieldSpan>,
}

/// A field of a table constructor.
#[derive(Debug)]
pub(super) struct FieldSpan {
    /// The key when it is a name or a string (`name = v`, `["name"] = v`); `None` for other
    /// keys and positional values.
    pub name: Option<String>,
    /// From the key's first byte (the value's, for a positional field) to the value's last.
    pub span: Range<usize>,
    /// Where the key ends (the value's start for a positional field).
    pub key_end: usize,
    /// The value expression.
    pub value: Range<usize>,
    /// The value when it is plain data written as literals; `None` for anything else.
    pub literal: Option<Value>,
    /// The quote of the value's first quoted string, if it has one.
    pub quote: Option<Quote>,
    /// Whether the value is a table constructor with fields on one line, and if so, whether a space
    /// follows its `{` (`{ 1, 2 }` rather than `{1, 2}`).
    pub one_line_table: Option<bool>,
    /// When the value is a table constructor, the first byte of each of its positional values
    /// (a list's items), in order.
    pub items: Vec<usize>,
    /// The `,` or `;` after it.
    pub separator: Option<Range<usize>>,
    /// The line break that ends its line, when only trivia follows the field (and its
    /// separator) on that line.
    pub line_break: Option<Range<usize>>,
}

/// How a string literal is quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quote {
    /// `"text"`
    Double,
    /// `'text'`
    Single,
}

/// Why the text cannot be read as Lua: the line and full_moon's message.
#[derive(Debug)]
pub(super) struct ParseFailure {
    /// The line of the first error.
    pub line: u32,
    /// What is wrong there.
    pub message: String,
}

/// Every `data:add` call in `text`, in source order.
pub(super) fn data_adds(text: &str) -> Result<Vec<DataAdd>, ParseFailure> {
    let ast = full_moon::parse_fallible(text, LuaVersion::lua54()).into_result().map_err(|errors| {
        let first = errors.first();
        ParseFailure {
            line: first.map_or(0, |e| line_of_position(e.range().0)),
            message: first.map_or_else(|| "unknown error".to_owned(), Error::to_string),
        }
    })?;
    let mut collector = Collector::default();
    collector.visit_ast(&ast);
    let Collector { mut calls, statements, .. } = collector;
    for call in calls.iter_mut().filter(|c| c.listed.is_none()) {
        if let Some((range, line_break)) = statements.get(&call.start) {
            call.statement = Some(range.clone());
            call.statement_break = line_break.clone();
        }
    }
    // The entries of a list kept in a local are met before the lists written in their call.
    calls.sort_by_key(|c| c.start);
    Ok(calls)
}

impl DataAdd {
    /// The value of the string literal field `name` of its table, if it has one; for an entry
    /// of a `data:add_multi` list, `_type` is the call's (OpenNefia's `add_multi` sets it).
    pub fn string_field(&self, name: &str) -> Option<&str> {
        if let (Some(listed), "_type") = (&self.listed, name) {
            return listed.data_type.as_deref();
        }
        self.table.as_ref()?.fields.iter().rev().find(|f| f.name.as_deref() == Some(name)).and_then(|f| {
            match &f.literal {
                Some(Value::Str(s)) => Some(&**s),
                _ => None,
            }
        })
    }
}

/// Walks the tree, noting each `data:add` call, each entry of a `data:add_multi` list, and
/// what they are inside of.
#[derive(Default)]
struct Collector {
    calls: Vec<DataAdd>,
    /// Statements that are function calls, by their first byte: their span (with `;`) and the
    /// line break ending their last line.
    statements: BTreeMap<usize, (Range<usize>, Option<Range<usize>>)>,
    enclosing: Vec<&'static str>,
    /// The first bytes of the `data:add_multi` calls whose list, a local, was read with its block.
    lists_read: HashSet<usize>,
}

impl Visitor for Collector {
    fn visit_block(&mut self, block: &Block) {
        // The locals of this block set to a table constructor, by name, until assigned again.
        let mut lists: HashMap<String, &TableConstructor> = HashMap::new();
        for (stmt, semicolon) in block.stmts_with_semicolon() {
            match stmt {
                Stmt::LocalAssignment(local) => {
                    let names: Vec<String> = local.names().iter().map(|n| n.token().to_string()).collect();
                    let mut values = local.expressions().iter();
                    for name in &names {
                        lists.remove(name);
                    }
                    if let ([name], Some(Expression::TableConstructor(table)), None) =
                        (&names[..], values.next(), values.next())
                    {
                        lists.insert(name.clone(), &**table);
                    }
                }
                Stmt::Assignment(assignment) => {
                    for var in assignment.variables().iter() {
                        if let Var::Name(name) = var {
                            lists.remove(&name.token().to_string());
                        }
                    }
                }
                _ => {}
            }
            if let (Stmt::FunctionCall(call), Some(span)) = (stmt, span_of(stmt)) {
                let last = semicolon.as_ref().or_else(|| last_token(call));
                let end = semicolon.as_ref().map_or(span.end, |s| s.token().end_position().bytes());
                self.statements.insert(span.start, (span.start..end, last.and_then(line_break_after)));
                if let Some(DataCall::AddMulti { data_type, list: Expression::Var(Var::Name(name)) }) = data_call(call)
                    && let Some(table) = lists.get(&name.token().to_string())
                {
                    self.lists_read.insert(span.start);
                    self.read_list(call, data_type, table);
                }
            }
        }
    }

    fn visit_function_body(&mut self, _: &FunctionBody) {
        self.enclosing.push("a function");
    }
    fn visit_function_body_end(&mut self, _: &FunctionBody) {
        self.enclosing.pop();
    }
    fn visit_numeric_for(&mut self, _: &NumericFor) {
        self.enclosing.push("a for loop");
    }
    fn visit_numeric_for_end(&mut self, _: &NumericFor) {
        self.enclosing.pop();
    }
    fn visit_generic_for(&mut self, _: &GenericFor) {
        self.enclosing.push("a for loop");
    }
    fn visit_generic_for_end(&mut self, _: &GenericFor) {
        self.enclosing.pop();
    }
    fn visit_while(&mut self, _: &While) {
        self.enclosing.push("a while loop");
    }
    fn visit_while_end(&mut self, _: &While) {
        self.enclosing.pop();
    }
    fn visit_repeat(&mut self, _: &Repeat) {
        self.enclosing.push("a repeat loop");
    }
    fn visit_repeat_end(&mut self, _: &Repeat) {
        self.enclosing.pop();
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        let (Some(first), Some(last)) = (first_token(call), last_token(call)) else { return };
        let (start, end) = (first.token().start_position(), last.token().end_position());
        let table = match data_call(call) {
            Some(DataCall::Add(table)) => table,
            Some(DataCall::AddMulti { data_type, list: Expression::TableConstructor(list) }) => {
                return self.read_list(call, data_type, list);
            }
            // A list the file does not write out here (the local was read with its block).
            Some(DataCall::AddMulti { .. }) if !self.lists_read.contains(&start.bytes()) => None,
            Some(DataCall::AddMulti { .. }) | None => return,
        };
        self.calls.push(DataAdd {
            start: start.bytes(),
            line: line_of_position(start),
            end_line: line_of_position(end),
            // Set by `data_adds` once every statement is known.
            statement: None,
            statement_break: None,
            enclosing: self.enclosing.last().copied(),
            table: table.and_then(read_table),
            listed: None,
        });
    }
}

impl Collector {
    /// Notes each positional entry of `list`, the list of `data:add_multi` call `call`.
    fn read_list(&mut self, call: &FunctionCall, data_type: Option<String>, list: &TableConstructor) {
        let (Some(first), Some(last)) = (first_token(call), last_token(call)) else { return };
        let call_lines =
            (line_of_position(first.token().start_position()), line_of_position(last.token().end_position()));
        let enclosing = self.enclosing.last().copied();
        let entries = list.fields().pairs().filter_map(|pair| match pair.value() {
            Field::NoKey(entry) => Some((entry, pair.punctuation())),
            _ => None,
        });
        for (index, (entry, separator)) in entries.enumerate() {
            let (Some(span), Some(first), Some(last)) = (span_of(entry), first_token(entry), last_token(entry)) else {
                continue;
            };
            let after = separator.unwrap_or(last);
            self.calls.push(DataAdd {
                start: span.start,
                line: line_of_position(first.token().start_position()),
                end_line: line_of_position(last.token().end_position()),
                statement: Some(span.start..token_span(after).end),
                statement_break: line_break_after(after),
                enclosing,
                table: match entry {
                    Expression::TableConstructor(table) => read_table(table),
                    _ => None,
                },
                listed: Some(Listed {
                    data_type: data_type.clone(),
                    call_lines,
                    position: index + 1,
                    entry: span,
                    separator: separator.map(token_span),
                }),
            });
        }
    }
}

/// A call of `data`'s that adds prototypes.
enum DataCall<'a> {
    /// `data:add { ... }` or `data:add(...)`: its table, when its one argument is a table
    /// constructor.
    Add(Option<&'a TableConstructor>),
    /// `data:add_multi(type, list)`: the type when it is a string literal, and the list.
    AddMulti { data_type: Option<String>, list: &'a Expression },
}

/// What `call` adds, if it is `data:add` or `data:add_multi`.
fn data_call(call: &FunctionCall) -> Option<DataCall<'_>> {
    let Prefix::Name(name) = call.prefix() else { return None };
    let mut suffixes = call.suffixes();
    let (Some(Suffix::Call(Call::MethodCall(method))), None) = (suffixes.next(), suffixes.next()) else { return None };
    if !is_identifier(name, "data") {
        return None;
    }
    let arguments = match method.args() {
        FunctionArgs::Parentheses { arguments, .. } => Some(arguments),
        _ => None,
    };
    if is_identifier(method.name(), "add") {
        return Some(DataCall::Add(match method.args() {
            FunctionArgs::TableConstructor(table) => Some(&**table),
            _ => match arguments.filter(|a| a.len() == 1).and_then(|a| a.iter().next()) {
                Some(Expression::TableConstructor(table)) => Some(&**table),
                _ => None,
            },
        }));
    }
    if !is_identifier(method.name(), "add_multi") {
        return None;
    }
    let mut arguments = arguments?.iter();
    let (Some(data_type), Some(list), None) = (arguments.next(), arguments.next(), arguments.next()) else {
        return None;
    };
    let data_type = match literal(data_type, 0) {
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    Some(DataCall::AddMulti { data_type, list })
}

fn is_identifier(token: &TokenReference, name: &str) -> bool {
    matches!(token.token_type(), TokenType::Identifier { identifier } if identifier.as_str() == name)
}

/// The spans of `table`'s braces and fields, or `None` if full_moon gave no position.
pub(super) fn read_table(table: &TableConstructor) -> Option<Table> {
    let (open, close) = table.braces().tokens();
    let mut fields = Vec::new();
    for pair in table.fields().pairs() {
        let (field, separator) = (pair.value(), pair.punctuation());
        let (name, key, value) = match field {
            Field::NameKey { key, value, .. } => (Some(key.token().to_string()), token_span(key), value.as_ref()),
            Field::ExpressionKey { brackets, key, value, .. } => {
                let name = match literal(key, 0) {
                    Some(Value::Str(s)) => Some(s.to_string()),
                    _ => None,
                };
                let (open, close) = brackets.tokens();
                (name, token_span(open).start..token_span(close).end, value.as_ref())
            }
            Field::NoKey(value) => {
                let start = span_of(value)?.start;
                (None, start..start, value)
            }
            _ => return None,
        };
        let value_span = span_of(value)?;
        let last = separator.or_else(|| last_token(value));
        fields.push(FieldSpan {
            name,
            span: key.start..value_span.end,
            key_end: key.end,
            value: value_span,
            literal: literal(value, 0),
            quote: value
                .tokens()
                .filter_map(|t| match t.token_type() {
                    TokenType::StringLiteral { quote_type: StringLiteralQuoteType::Double, .. } => {
                        Some((t, Quote::Double))
                    }
                    TokenType::StringLiteral { quote_type: StringLiteralQuoteType::Single, .. } => {
                        Some((t, Quote::Single))
                    }
                    _ => None,
                })
                .min_by_key(|(t, _)| t.token().start_position().bytes())
                .map(|(_, quote)| quote),
            one_line_table: match value {
                // `{}` tells nothing of the spacing.
                Expression::TableConstructor(inner) if !inner.fields().is_empty() => {
                    let (open, close) = inner.braces().tokens();
                    (open.token().start_position().line() == close.token().start_position().line())
                        .then(|| open.trailing_trivia().next().is_some())
                }
                _ => None,
            },
            items: match value {
                Expression::TableConstructor(inner) => inner
                    .fields()
                    .iter()
                    .filter_map(|item| match item {
                        Field::NoKey(item) => span_of(item).map(|span| span.start),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            },
            separator: separator.map(token_span),
            line_break: last.and_then(line_break_after),
        });
    }
    Some(Table { open: token_span(open), close: token_span(close), fields })
}

/// The first token of `node` in the text (its tokens do not come in text order: a table's
/// braces come before its fields).
fn first_token(node: &impl Node) -> Option<&TokenReference> {
    node.tokens().min_by_key(|t| t.token().start_position().bytes())
}

/// The last token of `node` in the text.
fn last_token(node: &impl Node) -> Option<&TokenReference> {
    node.tokens().max_by_key(|t| t.token().end_position().bytes())
}

/// The bytes of `token` itself, without its trivia.
fn token_span(token: &TokenReference) -> Range<usize> {
    token.token().start_position().bytes()..token.token().end_position().bytes()
}

/// The bytes from `node`'s first token to its last, by the tokens' positions: full_moon's own
/// range of a node ends early when it ends with brackets (`t[1]`).
fn span_of(node: &impl Node) -> Option<Range<usize>> {
    Some(first_token(node)?.token().start_position().bytes()..last_token(node)?.token().end_position().bytes())
}

fn line_of_position(position: full_moon::tokenizer::Position) -> u32 {
    u32::try_from(position.line()).unwrap_or(u32::MAX)
}

/// The line break in `token`'s trailing trivia: the trivia after a token runs to the end of
/// its line when only whitespace and comments follow it there.
fn line_break_after(token: &TokenReference) -> Option<Range<usize>> {
    let last = token.trailing_trivia().last()?;
    let TokenType::Whitespace { characters } = last.token_type() else { return None };
    let at = characters.find(['\r', '\n'])?;
    let start = last.start_position().bytes();
    Some(start + at..start + characters.len())
}

/// How deep [`literal`] reads nested tables before calling a value not plain.
const MAX_DEPTH: usize = crate::value::MAX_TABLE_DEPTH;

/// The value of `expr` when it is plain data written as literals (numbers, strings, booleans,
/// tables of them; `nil` alone); `None` for anything computed.
pub(super) fn literal(expr: &Expression, depth: usize) -> Option<Value> {
    match expr {
        Expression::Number(token) => match token.token_type() {
            TokenType::Number { text } => number(text),
            _ => None,
        },
        Expression::String(token) => match token.token_type() {
            TokenType::StringLiteral { literal, quote_type, .. } => {
                string(literal, *quote_type).map(|s| Value::str(&s))
            }
            _ => None,
        },
        Expression::Symbol(token) => match token.token_type() {
            TokenType::Symbol { symbol: Symbol::True } => Some(Value::Bool(true)),
            TokenType::Symbol { symbol: Symbol::False } => Some(Value::Bool(false)),
            TokenType::Symbol { symbol: Symbol::Nil } if depth == 0 => Some(Value::Nil),
            _ => None,
        },
        Expression::UnaryOperator { unop: UnOp::Minus(_), expression } => match literal(expression, depth + 1)? {
            Value::Int(i) => Some(Value::Int(i.wrapping_neg())),
            Value::Float(x) => Some(Value::Float(-x)),
            _ => None,
        },
        Expression::Parentheses { expression, .. } => literal(expression, depth),
        Expression::TableConstructor(table) if depth < MAX_DEPTH => table_literal(table, depth + 1),
        _ => None,
    }
}

/// A table constructor of plain values as Lua reads it: a list when its keys are 1..n.
fn table_literal(table: &TableConstructor, depth: usize) -> Option<Value> {
    let mut entries = BTreeMap::new();
    let mut position = 0;
    for field in table.fields() {
        let (key, value) = match field {
            Field::NameKey { key, value, .. } => (Key::Str(Arc::from(key.token().to_string())), value.as_ref()),
            Field::ExpressionKey { key, value, .. } => match literal(key, depth)? {
                Value::Str(s) => (Key::Str(s), value.as_ref()),
                Value::Int(i) => (Key::Int(i), value.as_ref()),
                Value::Float(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => (Key::Int(x as i64), value.as_ref()),
                _ => return None,
            },
            Field::NoKey(value) => {
                position += 1;
                (Key::Int(position), value)
            }
            _ => return None,
        };
        let value = literal(value, depth)?;
        // A key given twice, or a nil, leaves what Lua makes of the table to its evaluation order.
        if value == Value::Nil || entries.insert(key, value).is_some() {
            return None;
        }
    }
    let is_list = entries.keys().enumerate().all(|(i, key)| *key == Key::Int(i as i64 + 1));
    Some(if is_list { Value::list(entries.into_values().collect()) } else { Value::Map(Arc::new(entries)) })
}

/// A number token as Lua 5.4 reads it: decimal integers that overflow become floats,
/// hexadecimal ones wrap; hexadecimal floats are not read.
fn number(text: &str) -> Option<Value> {
    if let Some(digits) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let mut n: u64 = 0;
        for c in digits.chars() {
            n = n.wrapping_mul(16).wrapping_add(u64::from(c.to_digit(16)?));
        }
        return Some(Value::Int(n as i64));
    }
    if !text.contains(['.', 'e', 'E'])
        && let Ok(i) = text.parse::<i64>()
    {
        return Some(Value::Int(i));
    }
    text.parse::<f64>().ok().map(Value::Float)
}

/// The string a literal's body (between its quotes or brackets) stands for, if it is UTF-8.
fn string(body: &str, quote: StringLiteralQuoteType) -> Option<String> {
    if quote == StringLiteralQuoteType::Brackets {
        let body = body.replace("\r\n", "\n").replace('\r', "\n");
        return Some(body.strip_prefix('\n').unwrap_or(&body).to_owned());
    }
    let mut bytes = Vec::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buffer = [0; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
            continue;
        }
        let escaped = chars.next()?;
        match escaped {
            'a' => bytes.push(7),
            'b' => bytes.push(8),
            'f' => bytes.push(12),
            'n' | '\n' => bytes.push(b'\n'),
            'r' => bytes.push(b'\r'),
            't' => bytes.push(b'\t'),
            'v' => bytes.push(11),
            '\\' | '"' | '\'' => bytes.push(escaped as u8),
            '\r' => {
                chars.next_if_eq(&'\n');
                bytes.push(b'\n');
            }
            'z' => while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {},
            'x' => {
                let high = chars.next()?.to_digit(16)?;
                let low = chars.next()?.to_digit(16)?;
                bytes.push((high * 16 + low) as u8);
            }
            'u' => {
                chars.next_if_eq(&'{')?;
                let mut code: u32 = 0;
                while let Some(digit) = chars.next_if(|c| *c != '}') {
                    code = code.checked_mul(16)?.checked_add(digit.to_digit(16)?)?;
                }
                chars.next_if_eq(&'}')?;
                let mut buffer = [0; 4];
                bytes.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut buffer).as_bytes());
            }
            '0'..='9' => {
                let mut code = escaped.to_digit(10)?;
                for _ in 0..2 {
                    match chars.next_if(char::is_ascii_digit) {
                        Some(digit) => code = code * 10 + digit.to_digit(10)?,
                        None => break,
                    }
                }
                bytes.push(u8::try_from(code).ok()?);
            }
            _ => return None,
        }
    }
    String::from_utf8(bytes).ok()
}
