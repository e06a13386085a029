//! The art of every prototype with an `image`, read once when the prototype is added (or
//! hotloaded) and kept with the data registry, and the themes' replacements for them: a map
//! view looks a tile's art up, it never reads an `image` value again.

use rustc_hash::FxHashMap;

use super::parse::Parsed;
use crate::symbol::Symbol;

/// The data type of themes: prototypes whose `overrides` give other prototypes' art.
pub const THEME_TYPE: &str = "base.theme";

/// A prototype: its data type and id.
type ProtoKey = (Symbol, Symbol);

/// What a theme gives one prototype: its data type, its id, and the art it draws instead.
pub type Replacement = (Symbol, Symbol, Parsed);

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
    pub fn set_theme(&mut self, theme: Symbol, overrides: Vec<Replacement>) {
        let overrides = overrides.into_iter().map(|(data_type, id, art)| ((data_type, id), art)).collect();
        self.themes.insert(theme, overrides);
    }

    /// Forgets prototype `id` of `data_type` (retired), and its replacements if it is a theme.
    pub fn remove(&mut self, data_type: Symbol, id: Symbol) {
        self.own.remove(&(data_type, id));
        if data_type.as_str() == THEME_TYPE {
            self.themes.remove(&id);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art::{Art, Sprite};

    fn art(sheet: &str) -> Parsed {
        Parsed { art: Art::single(Sprite::whole(Symbol::intern(sheet), 8, 8)), connects: None }
    }

    #[test]
    fn a_theme_replaces_its_prototypes_art_until_it_is_retired_and_only_then() {
        let (tile, theme) = (Symbol::intern("base.map_tile"), Symbol::intern(THEME_TYPE));
        let (wall, night) = (Symbol::intern("t.wall"), Symbol::intern("t.night"));
        let mut book = ArtBook::default();
        book.set(tile, wall, Some(art("wall.png")));
        book.set_theme(night, vec![(tile, wall, art("night.png"))]);
        let sheet = |book: &ArtBook, themes: &[Symbol]| book.get(tile, wall, themes).map(|p| p.art.sprites[0].sheet);
        assert_eq!(sheet(&book, &[night]), Some(Symbol::intern("night.png")));
        assert_eq!(sheet(&book, &[]), Some(Symbol::intern("wall.png")), "no theme active: its own");
        // A tile that happens to share the theme's id is retired: the theme stays.
        book.remove(tile, night);
        assert!(book.has_theme(night));
        book.remove(theme, night);
        assert!(!book.has_theme(night));
        assert_eq!(sheet(&book, &[night]), Some(Symbol::intern("wall.png")), "the theme retired: its own again");
    }
}
