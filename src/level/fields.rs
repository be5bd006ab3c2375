//! One definition per level object (agent, mover, door): its struct, the level file's field
//! list with each field's docs, and how an editor shows and bounds each field.
//!
//! [`object_fields!`] takes a struct written as usual (doc comment and `serde` attributes per
//! field), plus, after each field's type, `=> ("label", widget)`. It emits the struct unchanged
//! and, on it, `FIELDS` (the name in the file, the label, the doc comment and the [`Widget`] of
//! every field, in file order) and `fields_mut` (the same with a typed mutable reference to each
//! value, [`FieldMut`]). The editor's object panels are generated from `fields_mut` (each
//! object kind's panel, `editor::kinds`, shown by `editor::ui::objects`), so a field added here
//! appears in the panel with its docs as the hover text and its range as the widget's bounds; a
//! field whose value has no generic widget ([`Widget::Custom`]: outlines, paths, regions, file
//! names) is drawn by the kind's own panel code.
//!
//! Must never depend on window, GPU, audio or input crates: this is plain data about data.
use glam::DVec2;

/// How an editor shows one field, and the bounds it keeps it in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Widget {
    /// A number from `min` to `max`, in `unit`, dragged by `speed` per pixel.
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Unit shown after the value (`"s"`, `"m"`), or `""`.
        unit: &'static str,
        /// Change per pixel dragged.
        speed: f64,
    },
    /// An optional number: a checkbox, and the number from `min` to `max` while it is set
    /// (`default` when it is first set).
    Optional {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Unit shown after the value.
        unit: &'static str,
        /// Change per pixel dragged.
        speed: f64,
        /// The value a newly set field gets.
        default: f64,
    },
    /// A yes or no.
    Flag,
    /// One of a list of names ([`Choice`]): radio buttons for up to three, else a drop-down.
    Choice,
    /// `1` or `-1`: right or left.
    Facing,
    /// A point, `(x, y)` in metres.
    Point,
    /// An optional stretch of x, `(left, right)` in metres: a checkbox and two numbers; a newly
    /// set one spans `half_width` each side of the point the panel gives.
    XRange {
        /// Half the width of a newly set range, m.
        half_width: f64,
    },
    /// A line of text (a sign's).
    Text,
    /// Drawn by the panel's own code (outlines, paths, regions, file names), or not at all.
    Custom,
}

/// A field's definition: its name in the level file, its label in the editor, its doc comment
/// (the level format's documentation) and its widget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldDef {
    /// Its name in the level file.
    pub name: &'static str,
    /// Its label in the editor.
    pub label: &'static str,
    /// Its doc comment, one line per `///` line.
    pub doc: &'static str,
    /// How the editor shows it.
    pub widget: Widget,
}

/// A value that is one of a fixed list of names (the level file's enums).
pub trait Choice {
    /// Every name, in the order an editor lists them.
    fn names(&self) -> &'static [&'static str];
    /// The index of the current value in [`Choice::names`].
    fn index(&self) -> usize;
    /// Sets the value at `i` of [`Choice::names`] (ignored past the end).
    fn set_index(&mut self, i: usize);
}

/// One field of one object, with a typed mutable reference to its value.
pub struct ObjectField<'a> {
    /// Its definition.
    pub def: &'static FieldDef,
    /// Its value.
    pub value: FieldMut<'a>,
}

/// A typed mutable reference to a field's value, as its [`Widget`] edits it.
pub enum FieldMut<'a> {
    /// [`Widget::Number`].
    Number(&'a mut f64),
    /// [`Widget::Optional`].
    Optional(&'a mut Option<f64>),
    /// [`Widget::Flag`].
    Flag(&'a mut bool),
    /// [`Widget::Choice`].
    Choice(&'a mut dyn Choice),
    /// [`Widget::Facing`].
    Facing(&'a mut f64),
    /// [`Widget::Point`].
    Point(&'a mut DVec2),
    /// [`Widget::XRange`].
    XRange(&'a mut Option<[f64; 2]>),
    /// [`Widget::Text`].
    Text(&'a mut String),
    /// [`Widget::Custom`]: no generic editing.
    Custom,
}

/// How a field's value becomes a [`FieldMut`] for its widget; a type with no generic widget
/// gives [`FieldMut::Custom`].
pub trait AsField {
    /// The value, for `widget` (a mismatch, a definition error, gives `Custom`).
    fn as_field(&mut self, widget: Widget) -> FieldMut<'_>;
}

impl AsField for f64 {
    fn as_field(&mut self, widget: Widget) -> FieldMut<'_> {
        match widget {
            Widget::Number { .. } => FieldMut::Number(self),
            Widget::Facing => FieldMut::Facing(self),
            _ => FieldMut::Custom,
        }
    }
}

impl AsField for Option<f64> {
    fn as_field(&mut self, _: Widget) -> FieldMut<'_> {
        FieldMut::Optional(self)
    }
}

impl AsField for bool {
    fn as_field(&mut self, _: Widget) -> FieldMut<'_> {
        FieldMut::Flag(self)
    }
}

impl AsField for DVec2 {
    fn as_field(&mut self, _: Widget) -> FieldMut<'_> {
        FieldMut::Point(self)
    }
}

impl AsField for Option<[f64; 2]> {
    fn as_field(&mut self, _: Widget) -> FieldMut<'_> {
        FieldMut::XRange(self)
    }
}

impl AsField for String {
    fn as_field(&mut self, widget: Widget) -> FieldMut<'_> {
        match widget {
            Widget::Text => FieldMut::Text(self),
            _ => FieldMut::Custom,
        }
    }
}

/// Types drawn by the panels' own code.
macro_rules! custom_fields {
    ($($ty:ty),*) => {
        $(impl AsField for $ty {
            fn as_field(&mut self, _: Widget) -> FieldMut<'_> {
                FieldMut::Custom
            }
        })*
    };
}
custom_fields!(
    Vec<DVec2>,
    Vec<Vec<DVec2>>,
    Option<String>,
    Option<crate::collision::Aabb>,
    crate::collision::Aabb,
    Option<crate::level::track::Track>,
    Vec<crate::level::track::TrackKey>,
    Vec<String>
);

/// Enums of the level file: every variant with its name, as a [`Choice`] and an [`AsField`].
macro_rules! choices {
    ($($ty:ty => [$($variant:expr => $name:expr),+ $(,)?];)*) => {
        $(
            impl $crate::level::fields::Choice for $ty {
                fn names(&self) -> &'static [&'static str] {
                    &[$($name),+]
                }
                fn index(&self) -> usize {
                    [$($variant),+].iter().position(|v| v == self).unwrap_or(0)
                }
                fn set_index(&mut self, i: usize) {
                    if let Some(&v) = [$($variant),+].get(i) {
                        *self = v;
                    }
                }
            }
            impl $crate::level::fields::AsField for $ty {
                fn as_field(
                    &mut self,
                    _: $crate::level::fields::Widget,
                ) -> $crate::level::fields::FieldMut<'_> {
                    $crate::level::fields::FieldMut::Choice(self)
                }
            }
        )*
    };
}
pub(crate) use choices;

/// Defines a level object's struct and its field list (see the module docs).
macro_rules! object_fields {
    (
        $(#[$smeta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:expr])+
                $(#[serde($($serde:tt)*)])?
                pub $field:ident : $ty:ty => ($label:expr, $widget:expr),
            )*
        }
    ) => {
        $(#[$smeta])*
        pub struct $name {
            $(
                $(#[doc = $doc])+
                $(#[serde($($serde)*)])?
                pub $field: $ty,
            )*
        }

        impl $name {
            /// Every field, in the level file's order: its name there, its label in the editor,
            /// its doc comment and its widget.
            pub const FIELDS: &'static [$crate::level::fields::FieldDef] = &[$(
                $crate::level::fields::FieldDef {
                    name: stringify!($field),
                    label: $label,
                    doc: concat!($($doc, "\n"),+),
                    widget: $widget,
                },
            )*];

            /// Every field of this object with a typed mutable reference to its value (the
            /// editor's panel edits a copy through these).
            pub fn fields_mut(&mut self) -> Vec<$crate::level::fields::ObjectField<'_>> {
                use $crate::level::fields::AsField;
                let mut defs = Self::FIELDS.iter();
                vec![$({
                    let def = defs.next().expect("one definition per field");
                    $crate::level::fields::ObjectField {
                        def,
                        value: self.$field.as_field(def.widget),
                    }
                },)*]
            }
        }
    };
}
pub(crate) use object_fields;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{
        AgentKind, LevelAgent, LevelDoor, LevelMover, LevelSign, MoverMode, Track, TrackKey,
    };

    /// Every field the level file writes has a definition, in the file's order, and every
    /// definition's doc is the field's doc comment.
    #[test]
    fn the_field_lists_follow_the_level_files_fields() {
        let names = |defs: &[FieldDef]| defs.iter().map(|d| d.name).collect::<Vec<_>>();
        assert_eq!(
            names(LevelAgent::FIELDS),
            ["kind", "size", "spawn", "facing", "character", "patrol"]
        );
        assert_eq!(
            names(LevelMover::FIELDS),
            [
                "pieces",
                "track",
                "path",
                "period",
                "mode",
                "ease",
                "one_way",
                "spin",
                "swing",
                "pivot",
                "start",
                "start_on",
                "stop_on",
                "reverse_on",
                "return_on",
                "restart_on"
            ]
        );
        assert_eq!(
            names(LevelDoor::FIELDS),
            [
                "points",
                "open",
                "switch",
                "close_after",
                "open_on",
                "close_on",
                "toggle_on"
            ]
        );
        assert_eq!(names(LevelSign::FIELDS), ["at", "text"]);
        assert_eq!(names(Track::FIELDS), ["keys", "repeat", "delay"]);
        assert_eq!(
            names(TrackKey::FIELDS),
            ["offset", "angle", "hold", "time", "speed", "ease"]
        );
        for d in LevelAgent::FIELDS
            .iter()
            .chain(LevelMover::FIELDS)
            .chain(LevelDoor::FIELDS)
            .chain(LevelSign::FIELDS)
            .chain(Track::FIELDS)
            .chain(TrackKey::FIELDS)
        {
            assert!(!d.doc.trim().is_empty(), "{} has no doc", d.name);
            assert!(!d.label.is_empty(), "{} has no label", d.name);
        }
    }

    /// Editing through `fields_mut` changes the object's field, and a choice round-trips
    /// through its index.
    #[test]
    fn fields_mut_edits_the_object() {
        let mut m = LevelMover {
            pieces: vec![],
            path: vec![DVec2::ZERO, DVec2::X],
            period: 3.0,
            mode: MoverMode::PingPong,
            ..Default::default()
        };
        for f in m.fields_mut() {
            match (f.def.name, f.value) {
                ("period", FieldMut::Number(v)) => *v = 5.0,
                ("mode", FieldMut::Choice(c)) => {
                    assert_eq!(c.names(), ["ping-pong", "loop"]);
                    c.set_index(1);
                }
                ("spin", FieldMut::Number(v)) => *v = 1.5,
                ("pivot", FieldMut::Point(p)) => *p = DVec2::new(0.5, -0.25),
                ("pieces" | "track" | "path", FieldMut::Custom)
                | (
                    "start_on" | "stop_on" | "reverse_on" | "return_on" | "restart_on",
                    FieldMut::Custom,
                )
                | ("ease" | "start", FieldMut::Choice(_))
                | ("swing", FieldMut::Number(_))
                | ("one_way", FieldMut::Flag(_)) => {}
                (name, _) => panic!("{name}: unexpected widget"),
            }
        }
        assert_eq!((m.period, m.mode), (5.0, MoverMode::Loop));
        let mut sign = LevelSign {
            at: DVec2::ZERO,
            text: "{jump}".into(),
        };
        for f in sign.fields_mut() {
            match (f.def.name, f.value) {
                ("text", FieldMut::Text(t)) => t.push_str(" jumps"),
                ("at", FieldMut::Point(p)) => p.x = 2.0,
                (name, _) => panic!("{name}: unexpected widget"),
            }
        }
        assert_eq!((sign.at.x, sign.text.as_str()), (2.0, "{jump} jumps"));
        assert_eq!((m.spin, m.pivot), (1.5, DVec2::new(0.5, -0.25)));
        let mut k = AgentKind::Crawler;
        for i in 0..k.names().len() {
            k.set_index(i);
            assert_eq!(k.index(), i);
            assert_eq!(k.names()[i], k.name());
        }
    }
}
