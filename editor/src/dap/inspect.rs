//! Reading a break: the stack, its scopes and variables (by reference, paged), setting a
//! variable, evaluation and completion in a frame, the loaded sources and their text.

use super::*;
use nefia_host::debugging::breakpoint_path;

impl<W: Write> Session<W> {
    pub(super) fn stack_trace(&mut self) -> Reply {
        let snapshot = self.host()?.snapshot();
        let line = |line: u32| if self.lines_from_1 { line } else { line.saturating_sub(1) };
        if let Some(pause) = &snapshot.debug.pause {
            let frames: Vec<Json> = pause
                .frames
                .iter()
                .enumerate()
                .map(|(index, frame)| {
                    let mut entry = json!({
                        "id": index + 1, "name": frame.function, "line": line(frame.line), "column": 0,
                    });
                    if let Some(path) = &frame.path {
                        entry["source"] = json!({ "name": frame.file, "path": breakpoint_path(path) });
                    } else {
                        entry["source"] = json!({ "name": frame.file, "presentationHint": "deemphasize" });
                    }
                    entry
                })
                .collect();
            let total = frames.len();
            return Ok(json!({ "stackFrames": frames, "totalFrames": total }));
        }
        if let Some(error) = &snapshot.debug.error {
            return Ok(
                json!({ "stackFrames": [{ "id": 1, "name": error.context, "line": 0, "column": 0 }], "totalFrames": 1 }),
            );
        }
        Err(Refusal("the game is not paused".into()))
    }

    /// A frame id (from 1) as a frame index.
    pub(super) fn frame(arguments: &Json, request: &str) -> Result<usize, Refusal> {
        let id = arguments
            .get("frameId")
            .and_then(Json::as_u64)
            .ok_or_else(|| Refusal(format!("{request}: `frameId` must be the id of a frame from stackTrace")))?;
        usize::try_from(id)
            .ok()
            .and_then(|id| id.checked_sub(1))
            .ok_or_else(|| Refusal(format!("{request}: there is no frame {id}")))
    }

    pub(super) fn scopes(&mut self, arguments: Json) -> Reply {
        let frame = Self::frame(&arguments, "scopes")?;
        let known = self.stopped.as_ref().is_some_and(|p| frame < p.frames.len());
        if !known {
            return Err(Refusal(format!("scopes: there is no frame {} now", frame + 1)));
        }
        let scopes: Vec<Json> = [(Scope::Locals, "Locals", "locals"), (Scope::Upvalues, "Upvalues", "registers"), (Scope::Globals, "Mod globals", "globals")]
            .into_iter()
            .map(|(scope, name, hint)| {
                let reference = self.reference(VariablePath { frame, scope, keys: Vec::new() }, None);
                json!({ "name": name, "presentationHint": hint, "variablesReference": reference, "expensive": scope == Scope::Globals })
            })
            .collect();
        Ok(json!({ "scopes": scopes }))
    }

    pub(super) fn reference(&mut self, path: VariablePath, uid: Option<Uid>) -> usize {
        self.references.push((path, uid));
        self.references.len()
    }

    pub(super) fn path(&self, arguments: &Json, request: &str) -> Result<VariablePath, Refusal> {
        self.referenced(arguments, request).map(|(path, _)| path)
    }

    /// The variable a request's `variablesReference` names, with its object if it is one.
    pub(super) fn referenced(&self, arguments: &Json, request: &str) -> Result<(VariablePath, Option<Uid>), Refusal> {
        let reference = arguments.get("variablesReference").and_then(Json::as_u64).ok_or_else(|| {
            Refusal(format!("{request}: `variablesReference` must be a number from scopes or variables"))
        })?;
        usize::try_from(reference)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .and_then(|index| self.references.get(index))
            .cloned()
            .ok_or_else(|| Refusal(format!("{request}: there is no variable {reference} now (the game went on since)")))
    }

    pub(super) fn variables(&mut self, arguments: Json) -> Reply {
        let path = self.path(&arguments, "variables")?;
        let number =
            |name: &str| arguments.get(name).and_then(Json::as_u64).and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        let (start, count) = (number("start"), number("count"));
        let answer = self.ask(DebugQuery::Variables { path: path.clone(), start, count })?;
        let DebugAnswer::Variables { variables, .. } = answer else { return Err(refusal(answer)) };
        let list: Vec<Json> = variables
            .into_iter()
            .map(|variable| {
                let reference = if variable.children > 0 {
                    let mut child = path.clone();
                    child.keys.push(variable.key.clone());
                    self.reference(child, variable.uid)
                } else {
                    0
                };
                let mut entry = json!({
                    "name": key_name(&variable.key), "value": variable.value, "type": variable.kind,
                    "variablesReference": reference,
                });
                if variable.kind == "table" {
                    entry["indexedVariables"] = json!(variable.children);
                }
                entry
            })
            .collect();
        Ok(json!({ "variables": list }))
    }

    pub(super) fn set_variable(&mut self, arguments: Json) -> Reply {
        let path = self.path(&arguments, "setVariable")?;
        #[derive(Deserialize)]
        struct Arguments {
            name: String,
            value: String,
        }
        let Arguments { name, value } = parse("setVariable", arguments)?;
        // Table items are shown as `[n]`.
        let index = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).and_then(|n| n.parse::<i64>().ok());
        let key = match index {
            Some(index) => Key::Index(index),
            None => Key::Name(name),
        };
        match self.ask(DebugQuery::SetVariable { path, key, value })? {
            DebugAnswer::Variable(variable) => Ok(json!({ "value": variable.value, "type": variable.kind })),
            other => Err(refusal(other)),
        }
    }

    pub(super) fn evaluate(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Arguments {
            expression: String,
            frame_id: Option<u64>,
        }
        let arguments: Arguments = parse("evaluate", arguments)?;
        let evaluation = if self.stopped.is_some() {
            let frame = arguments
                .frame_id
                .and_then(|id| usize::try_from(id).ok())
                .and_then(|id| id.checked_sub(1))
                .unwrap_or(0);
            match self.ask(DebugQuery::Evaluate { frame, code: arguments.expression })? {
                DebugAnswer::Evaluated(evaluation) => evaluation,
                other => return Err(refusal(other)),
            }
        } else {
            let id = self.id();
            self.host()?.send(Command::Repl(ReplCommand::Eval { id, code: arguments.expression }));
            self.wait(|event| match event {
                HostEvent::Evaluated { id: got, result } if *got == id => Some(result.clone()),
                _ => None,
            })?
        };
        match evaluation {
            Evaluation::Values(values) => Ok(json!({ "result": values.join("\t"), "variablesReference": 0 })),
            Evaluation::Error(failure) => Err(Refusal(failure.message)),
            Evaluation::Incomplete => Err(Refusal("the expression is not complete".into())),
            Evaluation::Continued => {
                self.stopped = None;
                Ok(json!({ "result": "continued", "variablesReference": 0 }))
            }
        }
    }

    pub(super) fn completions(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            text: String,
            column: usize,
        }
        let arguments: Arguments = parse("completions", arguments)?;
        let from = usize::from(self.lines_from_1);
        let cut = arguments.column.saturating_sub(from).min(arguments.text.chars().count());
        let text: String = arguments.text.chars().take(cut).collect();
        let id = self.id();
        self.host()?.send(Command::Repl(ReplCommand::Complete { id, text: text.clone() }));
        let candidates = self.wait(|event| match event {
            HostEvent::Completions { id: got, candidates } if *got == id => Some(candidates.clone()),
            _ => None,
        })?;
        let targets: Vec<Json> = candidates
            .iter()
            .map(|candidate| json!({ "label": candidate, "text": candidate, "start": from, "length": text.encode_utf16().count() }))
            .collect();
        Ok(json!({ "targets": targets }))
    }

    pub(super) fn loaded_sources(&mut self) -> Reply {
        match self.ask(DebugQuery::Sources)? {
            DebugAnswer::Sources(sources) => {
                let list: Vec<Json> =
                    sources.iter().map(|s| json!({ "name": s.name, "path": breakpoint_path(&s.path) })).collect();
                Ok(json!({ "sources": list }))
            }
            other => Err(refusal(other)),
        }
    }

    /// `source`: the text of a file by its path (code editors ask for the sources they do not
    /// have open, such as loaded files listed by loadedSources).
    pub(super) fn source(&mut self, arguments: Json) -> Reply {
        let path = arguments
            .pointer("/source/path")
            .and_then(Json::as_str)
            .ok_or_else(|| Refusal("source: give the source's path".into()))?;
        let size =
            std::fs::metadata(path).map_err(|error| Refusal(format!("source: cannot read {path}: {error}")))?.len();
        if size > wire::MAX_MESSAGE as u64 {
            return Err(Refusal(format!("source: {path} is {size} bytes, more than a source is")));
        }
        let text =
            std::fs::read_to_string(path).map_err(|error| Refusal(format!("source: cannot read {path}: {error}")))?;
        Ok(json!({ "content": text }))
    }
}

/// A variable's key as the Variables view names it.
pub(super) fn key_name(key: &Key) -> String {
    match key {
        Key::Name(name) => name.clone(),
        Key::Index(index) => format!("[{index}]"),
    }
}
