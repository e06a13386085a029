//! The editor's mirror of a game in another process: the whole [`Snapshot`] as deltas, so an
//! attached editor has every pane's data as the embedded one has it.
//!
//! A subscribed connection (`host.mirror`) is sent a `host.frame` notification whenever the
//! snapshot changed, carrying only the parts that did: each top-level field of the snapshot
//! that is not equal to what was sent last (its serde JSON), and for the map only the chunk
//! parts (tiles, objects, shadow) whose `Arc` is not the one sent last. The client keeps its
//! copy ([`Mirror`]) and puts each frame into it, keeping the `Arc`s of what did not change,
//! so the editor's renderer rebuilds only the chunks that did, as it does embedded.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json, json};

use nefia_protocol::view::{ArtChunk, ChunkView, MapView, ObjectView, ShadowCell, Snapshot};

/// Why a frame could not be put into the mirror.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    /// A part did not read as the snapshot's field of that name.
    #[error("the frame's part '{0}' is not what this editor reads: {1}")]
    Part(String, serde_json::Error),
    /// The frame names a part the snapshot does not have (another version of Nefia).
    #[error("the frame has a part '{0}' this editor does not know")]
    UnknownPart(String),
    /// The map delta names chunk parts the mirror does not have.
    #[error("the frame's map leaves out chunk parts this editor was never sent")]
    MissingChunk,
    /// The frame is not an object with a serial.
    #[error("the frame is not an object with a serial")]
    Malformed,
}

/// Writes, for each part of the snapshot a frame carries — a top-level field, or a field of a
/// subsystem's part, so that the Lua heap's size changing each frame does not send the
/// profiler's turns again — how a frame carries it and how the mirror takes it back, so the
/// two cannot disagree on the list.
macro_rules! snapshot_parts {
    ($($head:ident $(. $tail:ident)?),* $(,)?) => {
        /// The parts a frame carries, as they are named in it.
        #[cfg(test)]
        const PARTS: &[&str] = &[$(concat!(stringify!($head) $(, ".", stringify!($tail))?)),*];

        /// The parts of `now` that differ from `last` (every part when there is no last). Most
        /// large parts (the Locations tree, the profiler's turns, the mod rows) are `Arc`s the
        /// host shares while they do not change, with `Eq` contents, so `==` finds an unchanged
        /// one by identity without looking inside.
        fn changed_parts(last: Option<&Snapshot>, now: &Snapshot) -> Result<Map<String, Json>, serde_json::Error> {
            let mut parts = Map::new();
            $(
                if last.is_none_or(|last| last.$head$(.$tail)? != now.$head$(.$tail)?) {
                    let name = concat!(stringify!($head) $(, ".", stringify!($tail))?);
                    parts.insert(name.into(), serde_json::to_value(&now.$head$(.$tail)?)?);
                }
            )*
            Ok(parts)
        }

        /// Puts the parts a frame carries into `snapshot`.
        fn apply_parts(snapshot: &mut Snapshot, parts: Map<String, Json>) -> Result<(), MirrorError> {
            for (name, value) in parts {
                match name.as_str() {
                    $(concat!(stringify!($head) $(, ".", stringify!($tail))?) => {
                        snapshot.$head$(.$tail)? =
                            serde_json::from_value(value).map_err(|e| MirrorError::Part(name, e))?
                    })*
                    _ => return Err(MirrorError::UnknownPart(name)),
                }
            }
            Ok(())
        }
    };
}

snapshot_parts!(
    state,
    project,
    project_dir,
    problem,
    fault,
    turn,
    date,
    map_summaries,
    widgets,
    map_layers,
    layers,
    animating,
    locations,
    player,
    player_at,
    editing.selection,
    editing.selections_by_script,
    editing.inspected,
    editing.history,
    editing.recovery,
    editing.cell,
    play,
    debug.pause,
    debug.error,
    debug.report,
    debug.break_requested,
    debug.check_invariants,
    debug.invariants,
    debug.limits,
    debug.watches,
    debug.profile,
    mods.loaded,
    mods.rows,
    mods.asset_dirs,
    mods.data,
    mods.repainted,
    mods.active_themes,
    mods.art,
    mods.language,
    maps.files,
    maps.problems,
    preview,
);

/// The current map in a frame: its header (a [`MapView`] without chunks), and each chunk's
/// parts that changed since the map sent last (all of them when it is another map).
#[derive(Serialize, Deserialize)]
struct MapDelta {
    header: MapView,
    chunks: Vec<ChunkDelta>,
}

/// One chunk's parts in a frame; a part left out is the one the client has.
#[derive(Serialize, Deserialize)]
struct ChunkDelta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tiles: Option<Arc<Vec<u16>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    objects: Option<Arc<Vec<ObjectView>>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    shadow: Option<Option<Arc<Vec<ShadowCell>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    intent: Option<Option<Arc<Vec<u16>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    picks: Option<Option<Arc<Vec<u16>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    art: Option<Vec<ArtChunk>>,
}

/// An optional part that is there: `null` is "the chunk has none" (`Some(None)`), told apart
/// from a part left out, which is "keep the one you have" (`None`, by `default`).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(part: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(part).map(Some)
}

/// `part` unless it is the very one the client has.
fn unless_same<T>(part: &Arc<T>, had: Option<&Arc<T>>) -> Option<Arc<T>> {
    (!had.is_some_and(|had| Arc::ptr_eq(had, part))).then(|| part.clone())
}

/// An optional `part` (the part itself, or that there is none) unless it is what the client has.
fn unless_same_optional<T>(part: &Option<Arc<T>>, had: Option<&Option<Arc<T>>>) -> Option<Option<Arc<T>>> {
    let same = had.is_some_and(|had| match (had, part) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    });
    (!same).then(|| part.clone())
}

impl MapDelta {
    /// What to send of `map`, given that the client has `had`.
    fn between(had: Option<&MapView>, map: &MapView) -> MapDelta {
        // Another map, or the same one resized: every part is sent.
        let had = had.filter(|had| had.id == map.id && had.chunk_grid == map.chunk_grid);
        let chunks = map
            .chunks
            .iter()
            .enumerate()
            .map(|(index, chunk)| {
                let old = had.and_then(|had| had.chunks.get(index));
                ChunkDelta {
                    tiles: unless_same(&chunk.tiles, old.map(|o| &o.tiles)),
                    objects: unless_same(&chunk.objects, old.map(|o| &o.objects)),
                    shadow: unless_same_optional(&chunk.shadow, old.map(|o| &o.shadow)),
                    intent: unless_same_optional(&chunk.intent, old.map(|o| &o.intent)),
                    picks: unless_same_optional(&chunk.picks, old.map(|o| &o.picks)),
                    art: (old.map(|o| &o.art) != Some(&chunk.art)).then(|| chunk.art.clone()),
                }
            })
            .collect();
        MapDelta { header: MapView { chunks: Vec::new(), ..map.clone() }, chunks }
    }

    /// The map this delta makes of `had`, the map the client has.
    fn apply(self, had: Option<&MapView>) -> Result<MapView, MirrorError> {
        let MapDelta { mut header, chunks } = self;
        let (columns, _) = header.chunk_grid;
        let had = had.filter(|had| had.id == header.id && had.chunk_grid == header.chunk_grid);
        let mut built = Vec::with_capacity(chunks.len());
        for (index, delta) in chunks.into_iter().enumerate() {
            let old = had.and_then(|had| had.chunks.get(index));
            let position = i32::try_from(index).map_err(|_| MirrorError::MissingChunk)?;
            built.push(ChunkView {
                cx: position % columns.max(1),
                cy: position / columns.max(1),
                tiles: delta.tiles.or_else(|| old.map(|o| o.tiles.clone())).ok_or(MirrorError::MissingChunk)?,
                objects: delta.objects.or_else(|| old.map(|o| o.objects.clone())).ok_or(MirrorError::MissingChunk)?,
                shadow: match delta.shadow {
                    Some(shadow) => shadow,
                    None => old.ok_or(MirrorError::MissingChunk)?.shadow.clone(),
                },
                // A game that sends no intent (one made before it was drawn) has none.
                intent: match delta.intent {
                    Some(intent) => intent,
                    None => old.and_then(|o| o.intent.clone()),
                },
                picks: match delta.picks {
                    Some(picks) => picks,
                    None => old.and_then(|o| o.picks.clone()),
                },
                art: delta.art.or_else(|| old.map(|o| o.art.clone())).unwrap_or_default(),
            });
        }
        header.chunks = built;
        Ok(header)
    }
}

/// What one mirroring client was last sent.
#[derive(Default)]
pub struct MirrorFrames {
    last: Option<Arc<Snapshot>>,
}

impl MirrorFrames {
    /// The `host.frame` to send for `snapshot`: everything the first time, then only what
    /// changed; None if nothing did.
    pub fn next(&mut self, snapshot: &Arc<Snapshot>) -> Result<Option<Json>, serde_json::Error> {
        let last = self.last.replace(snapshot.clone());
        let last = last.as_deref();
        if last.is_some_and(|last| last.serial == snapshot.serial) {
            return Ok(None);
        }
        let parts = changed_parts(last, snapshot)?;
        let had = last.and_then(|last| last.map.as_deref());
        let map = match (&snapshot.map, last.map(|last| &last.map)) {
            (Some(map), Some(Some(old))) if Arc::ptr_eq(map, old) => None,
            (None, Some(None)) => None,
            (Some(map), _) => Some(serde_json::to_value(MapDelta::between(had, map))?),
            (None, _) => Some(Json::Null),
        };
        if parts.is_empty() && map.is_none() {
            return Ok(None);
        }
        let mut frame = json!({ "serial": snapshot.serial, "parts": parts });
        if let Some(map) = map {
            frame["map"] = map;
        }
        Ok(Some(frame))
    }
}

/// An attached editor's copy of the game's snapshot, kept up to date frame by frame.
pub struct Mirror {
    snapshot: Arc<Snapshot>,
}

impl Mirror {
    /// A mirror of nothing yet, for a game on project `project`.
    pub fn new(project: &str) -> Mirror {
        Mirror { snapshot: Arc::new(Snapshot::empty(project)) }
    }

    /// Puts a `host.frame`'s params into the mirror and returns the snapshot it makes. A
    /// frame that cannot be read changes nothing.
    pub fn apply(&mut self, frame: Json) -> Result<Arc<Snapshot>, MirrorError> {
        let Json::Object(mut frame) = frame else { return Err(MirrorError::Malformed) };
        let serial = frame.get("serial").and_then(Json::as_u64).ok_or(MirrorError::Malformed)?;
        let mut snapshot = Snapshot::clone(&self.snapshot);
        snapshot.serial = serial;
        if let Some(Json::Object(parts)) = frame.remove("parts") {
            apply_parts(&mut snapshot, parts)?;
        }
        match frame.remove("map") {
            None => {}
            Some(Json::Null) => snapshot.map = None,
            Some(delta) => {
                let delta: MapDelta = serde_json::from_value(delta).map_err(|e| MirrorError::Part("map".into(), e))?;
                snapshot.map = Some(Arc::new(delta.apply(self.snapshot.map.as_deref())?));
            }
        }
        self.snapshot = Arc::new(snapshot);
        Ok(self.snapshot.clone())
    }

    /// The snapshot as last put together.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.snapshot.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_snapshot_is_a_part_the_mirror_carries() {
        let json = serde_json::to_value(Snapshot::empty("p")).expect("a snapshot serialises");
        let mut fields = Vec::new();
        for (name, value) in json.as_object().expect("an object") {
            let split = PARTS.iter().any(|part| part.starts_with(&format!("{name}.")));
            match (value, split) {
                (Json::Object(inner), true) => fields.extend(inner.keys().map(|field| format!("{name}.{field}"))),
                _ if matches!(name.as_str(), "serial" | "map") => {}
                _ => fields.push(name.clone()),
            }
        }
        fields.sort_unstable();
        let mut parts: Vec<String> = PARTS.iter().map(|p| (*p).to_owned()).collect();
        parts.sort_unstable();
        assert_eq!(fields, parts, "a field added to Snapshot must be added to snapshot_parts!");
    }

    #[test]
    fn the_prototypes_art_reaches_an_attached_editor() {
        use nefia_game::Symbol;
        use nefia_game::art::{Art, Sprite};
        let art = Art::single(Sprite::whole(Symbol::intern("tiles/water.png"), 32, 32));
        let (tile, water) = (Symbol::intern("base.map_tile"), Symbol::intern("elona.water"));
        // Made as the host makes it needs a registry; its wire form is a map of maps.
        let wire = json!({ "base.map_tile": { "elona.water": serde_json::to_value(&art).expect("serialises") } });
        let mut snapshot = Snapshot::empty("p");
        snapshot.serial = 1;
        snapshot.mods.art = Arc::new(serde_json::from_value(wire).expect("the art's wire form"));
        let frame = MirrorFrames::default().next(&Arc::new(snapshot)).expect("serialises").expect("a frame");
        let mirrored = Mirror::new("p").apply(frame).expect("applies");
        assert_eq!(mirrored.mods.art.get(tile, water), Some(&art));
    }

    #[test]
    fn a_frame_carries_what_changed_and_the_mirror_keeps_the_rest() {
        let mut first = Snapshot::empty("p");
        first.serial = 1;
        first.turn = 4;
        let first = Arc::new(first);
        let mut frames = MirrorFrames::default();
        let mut mirror = Mirror::new("p");
        let frame = frames.next(&first).expect("serialises").expect("the first frame");
        assert_eq!(mirror.apply(frame).expect("applies").turn, 4);
        assert!(frames.next(&first).expect("serialises").is_none(), "nothing new, nothing sent");
        let mut second = Snapshot::clone(&first);
        second.serial = 2;
        second.date = "the 5th".into();
        let frame = frames.next(&Arc::new(second)).expect("serialises").expect("a frame");
        let parts = frame["parts"].as_object().expect("parts");
        assert_eq!(parts.keys().collect::<Vec<_>>(), ["date"], "only what changed");
        let mirrored = mirror.apply(frame).expect("applies");
        assert_eq!((mirrored.turn, mirrored.date.as_str(), mirrored.serial), (4, "the 5th", 2));
    }

    #[test]
    fn a_chunks_intent_is_sent_when_it_changes_and_kept_when_it_does_not() {
        let chunk = |intent: u16| ChunkView { intent: Some(Arc::new(vec![intent])), ..ChunkView::of_tiles(vec![0]) };
        let map = MapView::one_cell;
        let intent = |view: &MapView| view.chunks[0].intent.as_deref().cloned();
        // As the wire carries it: a chunk without intent or shadow is not a chunk left out.
        let wire = |delta: MapDelta| -> MapDelta {
            serde_json::from_value(serde_json::to_value(delta).expect("serialises")).expect("reads back")
        };
        let bare = map(ChunkView { intent: None, ..chunk(0) });
        let sent = wire(MapDelta::between(None, &bare)).apply(None).expect("a bare chunk applies");
        assert!(sent.chunks[0].intent.is_none() && sent.chunks[0].shadow.is_none());
        let first = map(chunk(1));
        let whole = wire(MapDelta::between(None, &first)).apply(None).expect("applies");
        assert_eq!(intent(&whole), Some(vec![1]));
        let quiet = MapDelta::between(Some(&first), &first);
        assert!(quiet.chunks[0].intent.is_none(), "the client has it: not sent");
        let kept = quiet.apply(Some(&whole)).expect("applies");
        assert_eq!(intent(&kept), Some(vec![1]), "kept from what the client had");
        let painted = map(chunk(2));
        let changed = MapDelta::between(Some(&first), &painted).apply(Some(&kept)).expect("applies");
        assert_eq!(intent(&changed), Some(vec![2]));
    }

    #[test]
    fn a_malformed_frame_changes_nothing() {
        let mut mirror = Mirror::new("p");
        assert!(matches!(mirror.apply(json!([1])), Err(MirrorError::Malformed)));
        let bad = json!({ "serial": 3, "parts": { "turn": "many" } });
        assert!(matches!(mirror.apply(bad), Err(MirrorError::Part(..))));
        let unknown = json!({ "serial": 3, "parts": { "weather": 1 } });
        assert!(matches!(mirror.apply(unknown), Err(MirrorError::UnknownPart(_))));
        let header =
            MapView { chunks: Vec::new(), intent_styles: None, ..MapView::one_cell(ChunkView::of_tiles(Vec::new())) };
        let orphan = json!({ "serial": 3, "map": { "header": serde_json::to_value(header).expect("serialises"), "chunks": [{}] } });
        assert!(matches!(mirror.apply(orphan), Err(MirrorError::MissingChunk)), "no chunk to keep");
        assert_eq!(mirror.snapshot().serial, 0, "the mirror is as it was");
    }
}
