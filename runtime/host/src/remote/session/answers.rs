//! One function per method of the protocol, each registered on its line of
//! [`methods::METHODS`], which reads the request's params into the
//! method's params struct and hands it over: the host's commands sent and the answer made
//! from what came back.

use super::methods::{
    BaseParams, CellParams, CommandParams, DataTypeParams, DuplicateParams, EvalParams, Hello, InputParams,
    NewPrototypeParams, ObjectParams, PrototypeFieldParams, PrototypeParams, TempParams,
};
use super::name::Name;
use super::*;
use nefia_protocol::view::{DataTypeView, PrototypeView, Snapshot};

impl Session {
    /// `session.hello` once the session has begun.
    pub(in crate::remote) fn answer_hello(&mut self, _: Hello) -> Result<Json, RpcError> {
        Err(RpcError::Refused("the session has already begun".into()))
    }

    /// `rpc.discover`.
    pub(in crate::remote) fn answer_discover(&mut self, _: NoParams) -> Result<Json, RpcError> {
        Ok(methods::discover())
    }

    /// `game.state`.
    pub(in crate::remote) fn answer_state(&mut self, _: NoParams) -> Result<Json, RpcError> {
        Ok(state_to_json(&self.client.snapshot()))
    }

    /// `game.input`.
    pub(in crate::remote) fn answer_input(&mut self, InputParams { key }: InputParams) -> Result<Json, RpcError> {
        check_key(&key).map_err(|e| RpcError::InvalidParams(e.to_string()))?;
        let settled = self.settle(vec![Command::Input(Input::Key(key))], None)?;
        let mut result = state_to_json(&self.client.snapshot());
        result["output"] = json!(settled.output);
        result["refused"] = json!(settled.refused.first());
        Ok(result)
    }

    /// `lua.eval`.
    pub(in crate::remote) fn answer_eval(&mut self, EvalParams { code }: EvalParams) -> Result<Json, RpcError> {
        let id = next_id();
        let settled = self.settle(vec![Command::Repl(ReplCommand::Eval { id, code })], Some(id))?;
        self.outcome(id, settled)
    }

    /// `debug.continue`.
    pub(in crate::remote) fn answer_continue(&mut self, _: NoParams) -> Result<Json, RpcError> {
        let innermost = self.server.paused.lock().unwrap_or_else(|e| e.into_inner()).last().copied();
        let settled = self.settle(vec![Command::Debug(DebugCommand::Continue)], innermost)?;
        if let Some(refused) = settled.refused.first() {
            return Err(RpcError::Refused(refused.clone()));
        }
        match innermost {
            Some(id) => self.outcome(id, settled),
            // Paused by a watch or a break, not by an evaluation: nothing to answer.
            None => Ok(json!({ "output": settled.output, "values": [] })),
        }
    }

    /// `object.get`.
    pub(in crate::remote) fn answer_object_get(
        &mut self,
        ObjectParams { uid }: ObjectParams,
    ) -> Result<Json, RpcError> {
        self.object(Uid(uid))
    }

    /// `object.set_base`.
    pub(in crate::remote) fn answer_set_base(
        &mut self,
        BaseParams { uid, field, value }: BaseParams,
    ) -> Result<Json, RpcError> {
        self.edit(uid, field.into(), value, None)
    }

    /// `object.set_temp`.
    pub(in crate::remote) fn answer_set_temp(
        &mut self,
        TempParams { uid, field, value, method }: TempParams,
    ) -> Result<Json, RpcError> {
        self.edit(uid, field.into(), value, Some(method.as_deref().unwrap_or("set")))
    }

    /// `locations.list`.
    pub(in crate::remote) fn answer_locations(&mut self, _: NoParams) -> Result<Json, RpcError> {
        Ok(locations_to_json(&self.client.snapshot().locations))
    }

    /// `map.tiles`.
    pub(in crate::remote) fn answer_map_tiles(&mut self, _: NoParams) -> Result<Json, RpcError> {
        let snapshot = self.client.snapshot();
        let map = snapshot.map.as_ref().ok_or_else(|| RpcError::Refused("there is no current map".into()))?;
        Ok(tiles_to_json(map))
    }

    /// `map.explain_cell`.
    pub(in crate::remote) fn answer_explain_cell(
        &mut self,
        CellParams { map, x, y }: CellParams,
    ) -> Result<Json, RpcError> {
        let command = EditingCommand::ExplainCell { map: nefia_game::map::MapId(map), x, y };
        let settled = self.settle(vec![Command::Editing(command)], None)?;
        match settled.explained {
            Some(Ok(explanation)) => serde_json::to_value(explanation).map_err(|e| RpcError::Refused(e.to_string())),
            Some(Err(unexplained)) => Err(RpcError::InvalidParams(unexplained.to_string())),
            None => Err(RpcError::Refused(settled.refused.join("; "))),
        }
    }

    /// `history.undo`.
    pub(in crate::remote) fn answer_undo(&mut self, _: NoParams) -> Result<Json, RpcError> {
        self.history_after(Command::Editing(EditingCommand::Undo))
    }

    /// `history.redo`.
    pub(in crate::remote) fn answer_redo(&mut self, _: NoParams) -> Result<Json, RpcError> {
        self.history_after(Command::Editing(EditingCommand::Redo))
    }

    /// `frame.subscribe`.
    pub(in crate::remote) fn answer_subscribe(&mut self, _: NoParams) -> Result<Json, RpcError> {
        self.frames = Some(FrameDeltas::default());
        Ok(Json::Null)
    }

    /// `frame.unsubscribe`.
    pub(in crate::remote) fn answer_unsubscribe(&mut self, _: NoParams) -> Result<Json, RpcError> {
        self.frames = None;
        Ok(Json::Null)
    }

    /// `host.mirror`.
    pub(in crate::remote) fn answer_mirror(&mut self, _: NoParams) -> Result<Json, RpcError> {
        self.mirror = Some(MirrorFrames::default());
        Ok(Json::Null)
    }

    /// `host.command`.
    pub(in crate::remote) fn answer_host_command(
        &mut self,
        CommandParams { command }: CommandParams,
    ) -> Result<Json, RpcError> {
        match command {
            Command::Shutdown => {
                return Err(RpcError::Refused("an attached editor cannot shut the game down".into()));
            }
            // The Stop flag is the game's: raised here, it interrupts the running code.
            Command::Stop => self.client.stop(),
            // So is the Pause flag.
            Command::Debug(DebugCommand::Pause) => self.client.pause(),
            command => self.client.send(command),
        }
        Ok(Json::Null)
    }

    /// `data.types`.
    pub(in crate::remote) fn answer_data_types(&mut self, _: NoParams) -> Result<Json, RpcError> {
        Ok(data_types_to_json(&self.client.snapshot().mods.data))
    }

    /// `data.list`.
    pub(in crate::remote) fn answer_data_list(
        &mut self,
        DataTypeParams { data_type }: DataTypeParams,
    ) -> Result<Json, RpcError> {
        let snapshot = self.client.snapshot();
        let found = declared(&snapshot, &data_type)?;
        Ok(found.entries.iter().map(|e| Json::from(e.id.as_str())).collect())
    }

    /// `data.get`.
    pub(in crate::remote) fn answer_data_get(
        &mut self,
        PrototypeParams { data_type, id }: PrototypeParams,
    ) -> Result<Json, RpcError> {
        let snapshot = self.client.snapshot();
        let (found, proto) = prototype(&snapshot, &data_type, &id)?;
        Ok(prototype_to_json(found, proto))
    }

    /// `data.set_field`.
    pub(in crate::remote) fn answer_data_set_field(&mut self, given: PrototypeFieldParams) -> Result<Json, RpcError> {
        let PrototypeFieldParams { data_type, id, field, value } = given;
        prototype(&self.client.snapshot(), &data_type, &id)?;
        let value = match value {
            Json::Null => None,
            value => Some(json_to_value(&value)?),
        };
        let edit = Edit::PrototypeField { data_type: data_type.into(), id: id.into(), field: field.into(), value };
        self.history_after(Command::Editing(EditingCommand::Edit(edit)))
    }

    /// `data.duplicate`.
    pub(in crate::remote) fn answer_data_duplicate(&mut self, given: DuplicateParams) -> Result<Json, RpcError> {
        let DuplicateParams { data_type, id, new_id, file } = given;
        prototype(&self.client.snapshot(), &data_type, &id)?;
        let (data_type, id, new_id, file) = (data_type.into(), id.into(), new_id.into(), file.map(String::from));
        let edit = Edit::DuplicatePrototype { data_type, id, new_id, file };
        self.history_after(Command::Editing(EditingCommand::Edit(edit)))
    }

    /// `data.new`.
    pub(in crate::remote) fn answer_data_new(&mut self, given: NewPrototypeParams) -> Result<Json, RpcError> {
        let NewPrototypeParams { data_type, new_id, file } = given;
        declared(&self.client.snapshot(), &data_type)?;
        let edit = Edit::NewPrototype { data_type: data_type.into(), new_id: new_id.into(), file: file.into() };
        self.history_after(Command::Editing(EditingCommand::Edit(edit)))
    }

    /// `data.delete`.
    pub(in crate::remote) fn answer_data_delete(
        &mut self,
        PrototypeParams { data_type, id }: PrototypeParams,
    ) -> Result<Json, RpcError> {
        prototype(&self.client.snapshot(), &data_type, &id)?;
        let edit = Edit::DeletePrototype { data_type: data_type.into(), id: id.into() };
        self.history_after(Command::Editing(EditingCommand::Edit(edit)))
    }

    /// `data.where_used`.
    pub(in crate::remote) fn answer_data_where_used(
        &mut self,
        PrototypeParams { data_type, id }: PrototypeParams,
    ) -> Result<Json, RpcError> {
        prototype(&self.client.snapshot(), &data_type, &id)?;
        let command = EditingCommand::WhereUsed { data_type: data_type.into(), id: id.into() };
        let settled = self.settle(vec![Command::Editing(command)], None)?;
        Ok(settled.usages.unwrap_or_default().iter().map(usage_to_json).collect())
    }
}

/// Data type `data_type` as the snapshot declares it; one that is not declared is invalid
/// params naming it.
fn declared<'s>(snapshot: &'s Snapshot, data_type: &Name) -> Result<&'s DataTypeView, RpcError> {
    let found = snapshot.mods.data.iter().find(|t| t.id.as_str() == data_type.as_str());
    found.ok_or_else(|| {
        RpcError::InvalidParams(format!("no data type '{data_type}' is declared (data.types lists them)"))
    })
}

/// Prototype `id` of `data_type` as the snapshot has it; an unknown type or id is invalid
/// params naming it.
fn prototype<'s>(
    snapshot: &'s Snapshot,
    data_type: &Name,
    id: &Name,
) -> Result<(&'s DataTypeView, &'s PrototypeView), RpcError> {
    let found = declared(snapshot, data_type)?;
    let proto = found.entries.iter().find(|e| e.id.as_str() == id.as_str());
    let proto = proto.ok_or_else(|| {
        RpcError::InvalidParams(format!("{data_type} has no prototype '{id}' (data.list lists its ids)"))
    })?;
    Ok((found, proto))
}
