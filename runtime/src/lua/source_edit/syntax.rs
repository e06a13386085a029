//! Reading a Lua file's `data:add` calls into byte spans of its text, with full_moon.
//!
//! Nothing here keeps the syntax tree: each call, its table and the table's fields become plain
//! byte ranges of the text (and the values of the fields written as literals), so the edits are
//! splices of the original text and everything they do not touch stays byte for byte.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use full_moon::ast::{
    Block, Call, Expression, Field, FunctionArgs, FunctionBody, FunctionCall, GenericFor, NumericFor, Prefix, Repeat,
    Stmt, Suffix, TableConstructor, UnOp, While,
};
use full_moon::node::Node;
use full_moon::tokenizer::{StringLiteralQuoteType, Symbol, TokenReference, TokenType};
use full_moon::visitors::Visitor;
use full_moon::{Error, LuaVersion};

use crate::game::value::{Key, Value};

/// One `data:add` call of the file.
#[derive(Debug)]
pub(super) struct DataAdd {
    /// The byte of `data`.
    pub start: usize,
    /// The line of `data`.
    pub line: u32,
    /// The line of the call's last token.
    pub end_line: u32,
    /// The whole statement, its `;` included, when the call is a statement of its own.
    pub statement: Option<Range<usize>>,
    /// The line break that ends the statement's last line, if only trivia follows it there.
    pub statement_break: Option<Range<usize>>,
    /// What the call is inside of that runs it a number of times other than once ("a for
    /// loop", "a function"), innermost first; `None` when it runs once as the file loads.
    pub enclosing: Option<&'static str>,
    /// Its table, or `None` when its argument is not a table constructor.
    pub table: Option<Table>,
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
    for call in &mut calls {
        if let Some((range, line_break)) = statements.get(&call.start) {
            call.statement = Some(range.clone());
            call.statement_break = line_break.clone();
        }
    }
    Ok(calls)
}

impl DataAdd {
    /// The value of the string literal field `name` of its table, if it has one.
    pub fn string_field(&self, name: &str) -> Option<&str> {
        self.table.as_ref()?.fields.iter().rev().find(|f| f.name.as_deref() == Some(name)).and_then(|f| {
            match &f.literal {
                Some(Value::Str(s)) => Some(&**s),
                _ => None,
            }
        })
    }
}

/// Walks the tree, noting each `data:add` call and what it is inside of.
#[derive(Default)]
struct Collector {
    calls: Vec<DataAdd>,
    /// Statements that are function calls, by their first byte: their span (with `;`) and the
    /// line break ending their last line.
    statements: BTreeMap<usize, (Range<usize>, Option<Range<usize>>)>,
    enclosing: Vec<&'static str>,
}

impl Visitor for Collector {
    fn visit_block(&mut self, block: &Block) {
        for (stmt, semicolon) in block.stmts_with_semicolon() {
            if let (Stmt::FunctionCall(call), Some(span)) = (stmt, span_of(stmt)) {
                let last = semicolon.as_ref().or_else(|| last_token(call));
                let end = semicolon.as_ref().map_or(span.end, |s| s.token().end_position().bytes());
                self.statements.insert(span.start, (span.start..end, last.and_then(line_break_after)));
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
        let Some(args) = data_add_args(call) else { return };
        let (Some(first), Some(last)) = (first_token(call), last_token(call)) else { return };
        let (start, end) = (first.token().start_position(), last.token().end_position());
        let table = match args {
            FunctionArgs::TableConstructor(table) => Some(&**table),
            FunctionArgs::Parentheses { arguments, .. } if arguments.len() == 1 => match arguments.iter().next() {
                Some(Expression::TableConstructor(table)) => Some(&**table),
                _ => None,
            },
            _ => None,
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
        });
    }
}

/// The arguments of `data:add(...)`, if `call` is that call.
fn data_add_args(call: &FunctionCall) -> Option<&FunctionArgs> {
    let Prefix::Name(name) = call.prefix() else { return None };
    let mut suffixes = call.suffixes();
    let (Some(Suffix::Call(Call::MethodCall(method))), None) = (suffixes.next(), suffixes.next()) else { return None };
    (is_identifier(name, "data") && is_identifier(method.name(), "add")).then(|| method.args())
}

fn is_identifier(token: &TokenReference, name: &str) -> bool {
    matches!(token.token_type(), TokenType::Identifier { identifier } if identifier.as_str() == name)
}

/// The spans of `table`'s braces and fields, or `None` if full_moon gave no position.
fn read_table(table: &TableConstructor) -> Option<Table> {
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
const MAX_DEPTH: usize = crate::game::value::MAX_TABLE_DEPTH;

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
