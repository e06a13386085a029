//! Field of view: recursive shadowcasting over eight octants.
//!
//! The engine computes the player's sight from `calc("fov")`, so a temp value on `fov` (a
//! potion, a buff) changes what the player sees. Opaque tiles and opaque feats (closed
//! doors) block sight; the blocking cell itself is seen.

/// The cells seen from one origin.
#[derive(Clone, Debug)]
pub struct Sight {
    width: i32,
    height: i32,
    visible: Vec<bool>,
    lit: Vec<u32>,
    /// The cell sight was computed from, if any.
    pub origin: Option<(i32, i32)>,
    /// The radius used.
    pub radius: i32,
}

impl Sight {
    /// Nothing seen on a `width`×`height` map.
    pub fn new(width: i32, height: i32) -> Sight {
        Sight {
            width,
            height,
            visible: vec![false; (width * height) as usize],
            lit: Vec::new(),
            origin: None,
            radius: 0,
        }
    }

    /// True if the cell is seen now.
    pub fn is_visible(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height && self.visible[(y * self.width + x) as usize]
    }

    /// The seen cells as (x, y), in no particular order.
    pub fn visible_cells(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.lit.iter().map(|&i| (i as i32 % self.width, i as i32 / self.width))
    }

    /// The same sight without its per-cell grid, which [`Sight::unpacked`] rebuilds from
    /// the seen cells (for a kept state: a few hundred cells instead of the whole map).
    pub(super) fn packed(&self) -> Sight {
        Sight { visible: Vec::new(), lit: self.lit.clone(), ..*self }
    }

    /// A [`Sight::packed`] with its grid again.
    pub(super) fn unpacked(&self) -> Sight {
        let mut visible = vec![false; (self.width * self.height) as usize];
        for &i in &self.lit {
            visible[i as usize] = true;
        }
        Sight { visible, lit: self.lit.clone(), ..*self }
    }

    /// Forgets what is seen.
    pub fn clear(&mut self) {
        for &i in &self.lit {
            self.visible[i as usize] = false;
        }
        self.lit.clear();
        self.origin = None;
    }

    fn light(&mut self, x: i32, y: i32) {
        let i = (y * self.width + x) as usize;
        if !self.visible[i] {
            self.visible[i] = true;
            self.lit.push(i as u32);
        }
    }
}

/// Recomputes `sight` from (x, y) with `radius`; `is_opaque(x, y)` tells what blocks sight.
pub fn compute_sight(sight: &mut Sight, x: i32, y: i32, radius: i32, is_opaque: impl Fn(i32, i32) -> bool) {
    sight.clear();
    sight.origin = Some((x, y));
    sight.radius = radius;
    if !(x >= 0 && y >= 0 && x < sight.width && y < sight.height) {
        return;
    }
    sight.light(x, y);
    const OCTANTS: [(i32, i32, i32, i32); 8] = [
        (1, 0, 0, 1),
        (0, 1, 1, 0),
        (0, -1, 1, 0),
        (-1, 0, 0, 1),
        (-1, 0, 0, -1),
        (0, -1, -1, 0),
        (0, 1, -1, 0),
        (1, 0, 0, -1),
    ];
    let mut caster = Caster { sight, cx: x, cy: y, radius: radius.max(0), is_opaque };
    for (xx, xy, yx, yy) in OCTANTS {
        caster.cast(1, 1.0, 0.0, [xx, xy, yx, yy]);
    }
}

struct Caster<'a, F> {
    sight: &'a mut Sight,
    cx: i32,
    cy: i32,
    radius: i32,
    is_opaque: F,
}

impl<F: Fn(i32, i32) -> bool> Caster<'_, F> {
    fn cast(&mut self, row: i32, mut start: f32, end: f32, [xx, xy, yx, yy]: [i32; 4]) {
        if start < end {
            return;
        }
        let radius_sq = self.radius * self.radius + self.radius;
        let mut new_start = 0.0;
        for j in row..=self.radius {
            let dy = -j;
            let mut blocked = false;
            for dx in -j..=0 {
                let x = self.cx + dx * xx + dy * xy;
                let y = self.cy + dx * yx + dy * yy;
                let left = (dx as f32 - 0.5) / (dy as f32 + 0.5);
                let right = (dx as f32 + 0.5) / (dy as f32 - 0.5);
                if start < right {
                    continue;
                }
                if end > left {
                    break;
                }
                let in_bounds = x >= 0 && y >= 0 && x < self.sight.width && y < self.sight.height;
                if in_bounds && dx * dx + dy * dy <= radius_sq {
                    self.sight.light(x, y);
                }
                let opaque = !in_bounds || (self.is_opaque)(x, y);
                if blocked {
                    if opaque {
                        new_start = right;
                    } else {
                        blocked = false;
                        start = new_start;
                    }
                } else if opaque && j < self.radius {
                    blocked = true;
                    self.cast(j + 1, start, left, [xx, xy, yx, yy]);
                    new_start = right;
                }
            }
            if blocked {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_room_is_seen_within_radius() {
        let mut sight = Sight::new(21, 21);
        compute_sight(&mut sight, 10, 10, 5, |_, _| false);
        assert!(sight.is_visible(10, 10));
        assert!(sight.is_visible(15, 10));
        assert!(sight.is_visible(10, 5));
        assert!(!sight.is_visible(16, 10));
        assert!(!sight.is_visible(17, 17));
    }

    #[test]
    fn walls_block_sight_but_are_seen() {
        // A wall column at x = 12 from y = 0 to 20.
        let mut sight = Sight::new(21, 21);
        compute_sight(&mut sight, 10, 10, 8, |x, _| x == 12);
        assert!(sight.is_visible(12, 10), "the wall itself is seen");
        assert!(!sight.is_visible(13, 10), "nothing behind the wall");
        assert!(!sight.is_visible(15, 11));
    }
}
