//! The art of every prototype with an `image`, read once when the prototype is added (or
//! hotloaded) and kept with the data registry, and the themes' replacements for them: a map
//! view looks a tile's art up, it never reads an `image` value again.

use rustc_hash::FxHashMap;

use super::parse::Parsed;
use crate::symbol::Symbol;

/// A prototype: its data type and id.
type ProtoKey = (Symbol, Symbol);

/// Parsed art by prototype, and by theme.
#[derive(Clone, Debug, Default)]
pub struct ArtBook {
    own: FxHashMap<ProtoKey, Parsed>,
    themes: FxHashMap<Symbol, FxHashMap<ProtoKey, Parsed>>,
}

impl ArtBook {
    /// Keeps the art of prototype `id` of `data_type` (none: it has no `image`).
    pub fn set(&mut self, data_type: Symbol, id: Symbol, art: Option<Parsed>) {
        match art {
            Some(art) => self.own.insert((data_type, id), art),
            None => self.own.remove(&(data_type, id)),
        };
    }

    /// Keeps theme `theme`'s replacements: the art it gives each prototype (data type, id).
    pub fn set_theme(&mut self, theme: Symbol, overrides: Vec<(Symbol, Symbol, Parsed)>) {
        let overrides = overrides.into_iter().map(|(data_type, id, art)| ((data_type, id), art)).collect();
        self.themes.insert(theme, overrides);
    }

    /// Forgets prototype `id` of `data_type` (retired), and its replacements if it is a theme.
    pub fn remove(&mut self, data_type: Symbol, id: Symbol) {
        self.own.remove(&(data_type, id));
        self.themes.remove(&id);
    }

    /// Whether `theme` is a theme the book knows.
    pub fn has_theme(&self, theme: Symbol) -> bool {
        self.themes.contains_key(&theme)
    }

    /// The art prototype `id` of `data_type` draws under the active `themes` (the first that
    /// replaces it wins), else its own.
    pub fn get(&self, data_type: Symbol, id: Symbol, themes: &[Symbol]) -> Option<&Parsed> {
        self.themed(data_type, id, themes).or_else(|| self.own.get(&(data_type, id)))
    }

    /// The art the first of `themes` that replaces prototype `id` of `data_type` gives it.
    pub fn themed(&self, data_type: Symbol, id: Symbol, themes: &[Symbol]) -> Option<&Parsed> {
        themes.iter().find_map(|theme| self.themes.get(theme)?.get(&(data_type, id)))
    }
}
