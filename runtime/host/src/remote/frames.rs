//! Frame updates for a subscribed client, as deltas: what the client was last sent is kept
//! (the snapshot's `Arc`s, so unchanged chunks are known by identity), and a frame carries
//! only the chunks, chunk parts and fields that changed since.

use std::sync::Arc;

use serde_json::{Map, Value as Json, json};

use super::convert::state_to_json;
use nefia_protocol::view::{ChunkView, MapView, ObjectView, ShadowCell, Snapshot, TileStyle};

/// What one client was last sent.
#[derive(Default)]
pub struct FrameDeltas {
    /// The map view sent last (its chunks are what the client has).
    map: Option<Arc<MapView>>,
    /// The game's state as sent last (turn, player, pause…).
    status: Option<Json>,
}

impl FrameDeltas {
    /// The frame to send for `snapshot`: everything the first time, then only what changed;
    /// None if nothing did. `output` is what was printed since the last frame.
    pub fn next(&mut self, snapshot: &Snapshot, output: Vec<String>) -> Option<Json> {
        let status = state_to_json(snapshot);
        let mut frame = Map::new();
        if self.status.as_ref() != Some(&status) {
            frame.insert("status".into(), status.clone());
            self.status = Some(status);
        }
        if !output.is_empty() {
            frame.insert("output".into(), json!(output));
        }
        self.map_delta(snapshot.map.as_ref(), &mut frame);
        if frame.is_empty() {
            return None;
        }
        frame.insert("serial".into(), json!(snapshot.serial));
        Some(Json::Object(frame))
    }

    /// Adds what changed on the current map to `frame`: the map itself when it is another
    /// one (or another size), its tile styles when they changed, and each chunk part
    /// (tiles, objects, shadow) the client does not have.
    fn map_delta(&mut self, map: Option<&Arc<MapView>>, frame: &mut Map<String, Json>) {
        let previous = self.map.take();
        let Some(map) = map else {
            if previous.is_some() {
                frame.insert("map".into(), Json::Null);
            }
            return;
        };
        self.map = Some(map.clone());
        if previous.as_ref().is_some_and(|p| Arc::ptr_eq(p, map)) {
            return;
        }
        // Another map, or the same one resized: the client starts over.
        let previous = previous.filter(|p| p.id == map.id && p.chunk_grid == map.chunk_grid);
        if previous.is_none() {
            frame.insert(
                "map".into(),
                json!({
                    "id": map.id.0,
                    "name": map.name,
                    "width": map.width,
                    "height": map.height,
                    "chunk_grid": [map.chunk_grid.0, map.chunk_grid.1],
                    "chunk_size": nefia_game::map::CHUNK_SIZE,
                }),
            );
        }
        if !previous.as_ref().is_some_and(|p| same(&p.tile_styles, &map.tile_styles)) {
            frame.insert("tile_styles".into(), Json::Array(map.tile_styles.iter().map(style_to_json).collect()));
        }
        let chunks: Vec<Json> = map
            .chunks
            .iter()
            .enumerate()
            .filter_map(|(index, chunk)| chunk_delta(previous.as_ref().and_then(|p| p.chunks.get(index)), chunk))
            .collect();
        if !chunks.is_empty() {
            frame.insert("chunks".into(), Json::Array(chunks));
        }
    }
}

/// True if `a` and `b` hold the same content (the same `Arc` when it was reused).
fn same<T: PartialEq>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// The parts of `chunk` that differ from `old` (all of it when there is no old one), or None.
fn chunk_delta(old: Option<&ChunkView>, chunk: &ChunkView) -> Option<Json> {
    let mut delta = Map::new();
    if !old.is_some_and(|o| same(&o.tiles, &chunk.tiles)) {
        delta.insert("tiles".into(), json!(*chunk.tiles));
    }
    if !old.is_some_and(|o| same(&o.objects, &chunk.objects)) {
        delta.insert("objects".into(), Json::Array(chunk.objects.iter().map(object_to_json).collect()));
    }
    let same_shadow = match (old.map(|o| &o.shadow), &chunk.shadow) {
        (Some(Some(a)), Some(b)) => same(a, b),
        (Some(None), None) => true,
        _ => false,
    };
    if !same_shadow {
        delta.insert("shadow".into(), chunk.shadow.as_deref().map_or(Json::Null, |cells| shadow_to_json(cells)));
    }
    if delta.is_empty() {
        return None;
    }
    delta.insert("cx".into(), json!(chunk.cx));
    delta.insert("cy".into(), json!(chunk.cy));
    Some(Json::Object(delta))
}

fn style_to_json(style: &TileStyle) -> Json {
    json!({
        "id": style.id.as_str(),
        "glyph": style.glyph,
        "fg": style.fg,
        "bg": style.bg,
        "image": style.art.as_ref().map(|art| art.sprites[0].sheet.as_str().to_owned()),
        "known": style.known,
    })
}

fn object_to_json(object: &ObjectView) -> Json {
    let mut json = json!({
        "uid": object.uid.0,
        "kind": object.kind,
        "x": object.x,
        "y": object.y,
        "glyph": object.glyph.as_str(),
        "color": object.color,
    });
    if let Some(art) = &object.art {
        json["image"] = json!(art.sprite(object.pick).sheet.as_str());
    }
    json
}

/// A chunk's shadow: one letter a cell (`v` in sight, `r` remembered, `u` never seen), and
/// for remembered cells (by index) the tile and objects remembered.
fn shadow_to_json(cells: &[ShadowCell]) -> Json {
    let mut letters = String::with_capacity(cells.len());
    let mut remembered = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        letters.push(match cell {
            ShadowCell::Visible => 'v',
            ShadowCell::Unknown => 'u',
            ShadowCell::Remembered { tile, objects } => {
                let objects: Vec<Json> =
                    objects.iter().map(|(kind, glyph, color)| json!([kind, glyph.as_str(), color])).collect();
                remembered.push(json!([index, tile, objects]));
                'r'
            }
        });
    }
    json!({ "cells": letters, "remembered": remembered })
}
