//! Breakpoints: line breakpoints by file (sent again to a game launched later, moved with
//! their lines by a hotload), the error breaks, and data breakpoints on map objects' fields.

use super::*;

impl<W: Write> Session<W> {
    pub(super) fn set_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Source {
            path: Option<PathBuf>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Breakpoint {
            line: u32,
            condition: Option<String>,
            hit_condition: Option<String>,
            log_message: Option<String>,
        }
        #[derive(Deserialize)]
        struct Arguments {
            source: Source,
            breakpoints: Option<Vec<Breakpoint>>,
        }
        let arguments: Arguments = parse("setBreakpoints", arguments)?;
        let path = arguments.source.path.ok_or_else(|| Refusal("setBreakpoints: the source has no path".into()))?;
        let path = nefia_host::debugging::breakpoint_path(&path);
        let offset = u32::from(!self.lines_from_1);
        let list: Vec<LineBreakpoint> = arguments
            .breakpoints
            .unwrap_or_default()
            .into_iter()
            .map(|b| LineBreakpoint {
                line: b.line + offset,
                condition: b.condition,
                hit_condition: b.hit_condition,
                log_message: b.log_message,
            })
            .collect();
        let ids: Vec<i64> = list
            .iter()
            .map(|_| {
                self.next_breakpoint += 1;
                self.next_breakpoint
            })
            .collect();
        self.breakpoints.insert(path.clone(), ids.iter().copied().zip(list.iter().cloned()).collect());
        let answer = if self.host.is_some() { self.send_breakpoints(&path, list.clone()) } else { None };
        let exists = path.is_file();
        let message = match (exists, answer.as_ref().map(|(loaded, _)| *loaded)) {
            (false, _) => Some(format!("{} is not a file", path.display())),
            (true, Some(false)) | (true, None) => Some("not loaded yet: binds when the file loads".to_owned()),
            (true, Some(true)) => None,
        };
        // The game moves a breakpoint off a line that never runs by itself.
        let list: Vec<LineBreakpoint> = match answer {
            Some((_, lines)) if lines.len() == list.len() => {
                list.into_iter().zip(lines).map(|(b, line)| LineBreakpoint { line, ..b }).collect()
            }
            _ => list,
        };
        if let Some(kept) = self.breakpoints.get_mut(&path) {
            for ((_, kept), now) in kept.iter_mut().zip(&list) {
                kept.line = now.line;
            }
        }
        let breakpoints: Vec<Json> = list
            .iter()
            .zip(&ids)
            .map(|(b, id)| {
                let mut entry = json!({ "id": id, "verified": exists, "line": b.line - offset });
                if let Some(message) = &message {
                    entry["message"] = json!(message);
                }
                entry
            })
            .collect();
        Ok(json!({ "breakpoints": breakpoints }))
    }

    /// Sends a file's breakpoints to the game; whether the file is loaded there (None if the
    /// game did not answer).
    pub(super) fn send_breakpoints(
        &mut self,
        path: &Path,
        breakpoints: Vec<LineBreakpoint>,
    ) -> Option<(bool, Vec<u32>)> {
        match self.ask(DebugQuery::SetBreakpoints { path: path.to_owned(), breakpoints }) {
            Ok(DebugAnswer::Breakpoints { loaded, lines }) => Some((loaded, lines)),
            _ => None,
        }
    }

    pub(super) fn set_exception_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            filters: Vec<String>,
        }
        let arguments: Arguments = parse("setExceptionBreakpoints", arguments)?;
        if let Some(unknown) = arguments.filters.iter().find(|f| !matches!(f.as_str(), "uncaught" | "caught")) {
            return Err(Refusal(format!("no exception filter `{unknown}`: the filters are `uncaught` and `caught`")));
        }
        let on = |name: &str| arguments.filters.iter().any(|f| f == name);
        self.error_breaks = (on("uncaught"), on("caught"));
        self.send_error_breaks();
        Ok(json!({}))
    }

    pub(super) fn send_error_breaks(&self) {
        let (uncaught, caught) = self.error_breaks;
        if let Some(host) = &self.host {
            host.send(Command::Debug(DebugCommand::BreakOnErrors { uncaught, caught }));
        }
    }

    /// `dataBreakpointInfo`: a map object's field can be watched (as `Debug.watch` does).
    pub(super) fn data_breakpoint_info(&mut self, arguments: Json) -> Reply {
        let name = arguments.get("name").and_then(Json::as_str).unwrap_or_default().to_owned();
        let target = match self.referenced(&arguments, "dataBreakpointInfo") {
            Ok((_, Some(uid))) => Some(uid),
            _ => None,
        };
        Ok(match target {
            Some(uid) => json!({
                "dataId": format!("{uid}:{name}"),
                "description": format!("when {name} of object {uid} changes"),
                "accessTypes": ["write"],
                "canPersist": false,
            }),
            None => json!({ "dataId": null, "description": "only a map object's fields can be watched" }),
        })
    }

    /// `setDataBreakpoints`: replaces the watches made for data breakpoints.
    pub(super) fn set_data_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Breakpoint {
            data_id: String,
        }
        #[derive(Deserialize)]
        struct Arguments {
            breakpoints: Vec<Breakpoint>,
        }
        let arguments: Arguments = parse("setDataBreakpoints", arguments)?;
        let mut targets = Vec::new();
        for breakpoint in &arguments.breakpoints {
            let parsed = breakpoint
                .data_id
                .split_once(':')
                .and_then(|(uid, field)| Some((uid.parse::<u64>().ok()?, field.to_owned())));
            let Some((uid, field)) = parsed else {
                return Err(Refusal(format!(
                    "setDataBreakpoints: `{}` is not a data id from dataBreakpointInfo",
                    breakpoint.data_id
                )));
            };
            targets.push((breakpoint.data_id.clone(), Uid(uid), field));
        }
        for (_, id) in std::mem::take(&mut self.data_breakpoints) {
            self.host()?.send(Command::Debug(DebugCommand::Unwatch(id)));
        }
        for (_, uid, field) in &targets {
            self.host()?.send(Command::Debug(DebugCommand::Watch { uid: *uid, field: field.clone(), becomes: None }));
        }
        let id = self.id();
        self.host()?.send(Command::Sync { id });
        self.wait(|event| matches!(event, HostEvent::Synced { id: got } if *got == id).then_some(()))?;
        let watches = self.host()?.snapshot().debug.watches.clone();
        let mut verified = Vec::new();
        for (data_id, uid, field) in targets {
            let watch = watches.iter().rev().find(|w| w.uid == uid && w.field == field);
            if let Some(watch) = watch {
                self.data_breakpoints.push((data_id, watch.id));
            }
            verified.push(json!({ "verified": watch.is_some() }));
        }
        Ok(json!({ "breakpoints": verified }))
    }

    /// The game bound the breakpoints of `path`, set before it was there, to `lines` (moved
    /// off lines that never run): they are kept at those lines, and the client is told of each
    /// that moved.
    pub(super) fn breakpoints_bound(&mut self, path: &Path, lines: &[u32]) {
        if self.breakpoints.get(path).is_some_and(|list| list.len() == lines.len()) {
            self.rebind(path, |index, _| lines.get(index).copied());
        }
    }

    /// A hotload moved breakpoints with their lines: the client is told each one's new line.
    pub(super) fn breakpoints_moved(&mut self, reload: &nefia_protocol::reload::Reload) {
        let moved = |_, line| reload.breakpoints_moved.iter().find(|(from, _)| *from == line).map(|&(_, to)| to);
        self.rebind(&nefia_host::debugging::breakpoint_path(&reload.path), moved);
    }

    /// Moves each breakpoint of `path` to the line `new_line` gives it (by its place in the
    /// list and its line), and tells the client of each that moved.
    fn rebind(&mut self, path: &Path, new_line: impl Fn(usize, u32) -> Option<u32>) {
        let Some(list) = self.breakpoints.get_mut(path) else { return };
        let offset = u32::from(!self.lines_from_1);
        let mut changed = Vec::new();
        for (index, (id, breakpoint)) in list.iter_mut().enumerate() {
            if let Some(to) = new_line(index, breakpoint.line).filter(|to| *to != breakpoint.line) {
                breakpoint.line = to;
                changed.push(json!({ "id": *id, "verified": true, "line": to.saturating_sub(offset) }));
            }
        }
        for breakpoint in changed {
            self.event("breakpoint", json!({ "reason": "changed", "breakpoint": breakpoint }));
        }
    }
}
