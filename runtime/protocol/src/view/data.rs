//! The Data pane's view of the registry: every data type, its declared fields and its
//! prototypes.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::checks::PrototypeProblem;
use nefia_game::art::Art;
use nefia_game::data::DataRegistry;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// A prototype in the Data pane.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct PrototypeView {
    /// Its full id.
    pub id: Symbol,
    /// Its fields (defaults applied), by name.
    pub fields: Vec<(Symbol, Value)>,
    /// The fields it sets itself (the others show their type's default).
    pub given: Vec<Symbol>,
    /// Where it was added (`mods/elona/content/charas.lua:16`).
    pub origin: String,
    /// The source of each field that holds a function (a callback, a generator), by name.
    pub functions: Vec<(Symbol, FunctionSource)>,
    /// The rules of its data type it breaks (its type's validators).
    pub problems: Vec<PrototypeProblem>,
}

/// Where a function a prototype holds is written, and its text, for the Data pane to show
/// read-only and open in a code editor.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FunctionSource {
    /// `file:line` of its first line, the file as messages name it.
    pub at: String,
    /// The file on disk, if it is one.
    pub path: Option<std::path::PathBuf>,
    /// Its first line.
    pub line: u32,
    /// Its text, from `function` to `end`.
    pub text: String,
}

/// A field a data type declares, as the Data pane's form shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FieldView {
    /// Its name.
    pub name: Symbol,
    /// Its type's shape: the widget that edits it.
    pub ty: nefia_game::field_type::FieldType,
    /// Its type as OpenNefia names it (`int >= 0`).
    pub type_name: String,
    /// What a prototype that does not set it has.
    pub default: Value,
    /// What it is for.
    pub doc: String,
}

/// A data type in the Data pane.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct DataTypeView {
    /// Its id.
    pub id: Symbol,
    /// The fields it declares, in declaration order.
    pub fields: Vec<FieldView>,
    /// Its entries in registration order.
    pub entries: Vec<PrototypeView>,
}

/// The Data pane: every data type, its declared fields and its entries.
pub fn data_view(data: &DataRegistry) -> Vec<DataTypeView> {
    data.types()
        .iter()
        .map(|data_type| DataTypeView {
            id: data_type.id,
            fields: data_type
                .fields
                .iter()
                .map(|field| FieldView {
                    name: field.name,
                    ty: field.ty.clone(),
                    type_name: field.type_name.clone(),
                    default: field.default.clone(),
                    doc: field.doc.clone(),
                })
                .collect(),
            entries: data
                .entries(data_type.id.as_str())
                .map(|proto| PrototypeView {
                    id: proto.id,
                    fields: proto.fields.sorted_by_name().into_iter().map(|(k, v)| (k, v.clone())).collect(),
                    given: proto.given.sorted_by_name().into_iter().map(|(k, _)| k).collect(),
                    origin: proto.origin.to_string(),
                    functions: Vec::new(),
                    problems: Vec::new(),
                })
                .collect(),
        })
        .collect()
}

/// What each prototype's `image` draws under the active themes, by data type and id (one
/// that is not here draws its glyph): the palette's and the Data pane's previews. Apart from
/// the data view, so switching themes makes only this again.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct PrototypeArt(FxHashMap<Symbol, FxHashMap<Symbol, Arc<Art>>>);

impl PrototypeArt {
    /// The art of every prototype of `data` with an image, under `themes`.
    pub fn of(data: &DataRegistry, themes: &[Symbol]) -> PrototypeArt {
        let mut art: FxHashMap<Symbol, FxHashMap<Symbol, Arc<Art>>> = FxHashMap::default();
        for data_type in data.types() {
            for proto in data.entries(data_type.id.as_str()) {
                if let Some(parsed) = data.art.get(data_type.id, proto.id, themes) {
                    art.entry(data_type.id).or_default().insert(proto.id, parsed.art.clone());
                }
            }
        }
        PrototypeArt(art)
    }

    /// What prototype `id` of `data_type` draws, if it has an image.
    pub fn get(&self, data_type: Symbol, id: Symbol) -> Option<&Arc<Art>> {
        self.0.get(&data_type)?.get(&id)
    }
}
