//! What every signal target shares in the editor (a door, a mover: any kind with
//! [`ObjectKind::signal_fields_mut`](super::ObjectKind::signal_fields_mut)): the action a signal
//! field names ([`action`], from the field's name alone, so a new target's fields need no table
//! here) and the rows of its panel that list its links, change a link's action and remove one
//! ([`links_panel`]).
//!
//! Must never depend on a kind, the session or the UI: a kind's panel hands its fields in.
use super::PanelUi;

/// The action a signal field names: its name without `_on` (`open_on`: `open`; `start_on`:
/// `start`).
pub fn action(field: &str) -> &str {
    field.strip_suffix("_on").unwrap_or(field)
}

/// The rows of a target's links: one per signal name in each of `fields` (`(field, names)`, in
/// file order), with a button that moves it to the next field (the next action, round to the
/// first) and one that removes it. Changes `fields`; the kind's panel makes one edit of it.
pub fn links_panel(fields: Vec<(&'static str, &mut Vec<String>)>, ui: &mut dyn PanelUi) {
    let names: Vec<&'static str> = fields.iter().map(|(f, _)| *f).collect();
    let mut lists: Vec<&mut Vec<String>> = fields.into_iter().map(|(_, l)| l).collect();
    let mut change = None;
    let mut any = false;
    for (f, list) in lists.iter().enumerate() {
        for (n, name) in list.iter().enumerate() {
            any = true;
            let next = action(names[(f + 1) % names.len()]);
            let text = format!("`{name}`: {}", action(names[f]));
            let hover = format!(
                "signal `{name}` acts on it through {} (drawn as a line from its source); \
                 \"{next} instead\" moves it to {}",
                names[f],
                names[(f + 1) % names.len()]
            );
            let buttons = [format!("{next} instead"), "Unlink".to_string()];
            let buttons = [buttons[0].as_str(), buttons[1].as_str()];
            if let Some(b) = ui.row(Some(&text), &buttons, Some(&hover)) {
                change = Some((f, n, b == 0));
            }
        }
    }
    if !any {
        ui.text("signals: none (drag from a signal's handle onto it to link one)");
    }
    if let Some((f, n, to_next)) = change {
        let name = lists[f].remove(n);
        let g = (f + 1) % lists.len();
        if to_next && !lists[g].contains(&name) {
            lists[g].push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::*;
    use crate::level::fields::ObjectField;

    /// Clicks button `click` of row `row`, counting rows and texts.
    struct Click {
        row: usize,
        click: usize,
        rows: usize,
        texts: usize,
    }

    impl PanelUi for Click {
        fn fields(&mut self, _: &str, _: Vec<ObjectField<'_>>, _: DVec2) -> bool {
            false
        }
        fn text(&mut self, _: &str) {
            self.texts += 1;
        }
        fn row(&mut self, _: Option<&str>, _: &[&str], _: Option<&str>) -> Option<usize> {
            self.rows += 1;
            (self.rows - 1 == self.row).then_some(self.click)
        }
        fn point_row(&mut self, _: &str, _: bool, _: &mut DVec2) -> (bool, bool) {
            (false, false)
        }
    }

    fn lists() -> [Vec<String>; 3] {
        [vec!["a".into()], vec!["b".into(), "c".into()], vec![]]
    }

    fn run(row: usize, click: usize) -> ([Vec<String>; 3], usize) {
        let [mut x, mut y, mut z] = lists();
        let mut ui = Click {
            row,
            click,
            rows: 0,
            texts: 0,
        };
        links_panel(
            vec![
                ("open_on", &mut x),
                ("close_on", &mut y),
                ("toggle_on", &mut z),
            ],
            &mut ui,
        );
        ([x, y, z], ui.rows)
    }

    #[test]
    fn a_link_moves_to_the_next_action_or_is_removed() {
        let (l, rows) = run(1, 0);
        assert_eq!(rows, 3);
        assert_eq!(l, [vec!["a"], vec!["c"], vec!["b"]]);
        let (l, _) = run(2, 1);
        assert_eq!(l, [vec!["a"], vec!["b"], Vec::<&str>::new()]);
        let (l, _) = run(9, 0);
        assert_eq!(l, lists());
        assert_eq!(action("open_on"), "open");
        assert_eq!(action("restart_on"), "restart");
    }
}
