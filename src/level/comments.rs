//! Finding the comments of a RON file: a lexer pass over the text, not a pattern search.
//!
//! The editor writes a level from its document, so whatever a person wrote in the file besides the
//! data (comments) is not in what it writes. Before it replaces a file, it asks this module whether
//! the file holds any, and asks the user first (`editor::session`, `README.md`).
//!
//! The pass follows RON's lexical rules as far as comments depend on them:
//! - `// ...` runs to the end of the line;
//! - `/* ... */` may nest (`/* a /* b */ still a comment */`), as in RON and Rust; an unclosed one
//!   runs to the end of the file;
//! - nothing inside a string is a comment: `"..."` with backslash escapes (`\"`, `\\`), raw strings
//!   `r"..."`, `r#"..."#` (any number of `#`), byte strings `b"..."` / `br#"..."#`, and character
//!   literals (`'"'`, `'\''`, `'/'`).
//!
//! Plain `std`; no RON parsing (a file that does not parse still has its comments found).

/// One comment in a RON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Byte range in the text, delimiters included (`//` to the end of the line, without the line
    /// break; `/*` to the matching `*/`).
    pub range: std::ops::Range<usize>,
    /// The 1-based line it starts on.
    pub line: usize,
    /// `/* */` (true) or `//` (false).
    pub block: bool,
}

/// Every comment of `text`, in order.
pub fn find_comments(text: &str) -> Vec<Comment> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    // Whether the previous byte continues an identifier (so `r"` in `bar"` is not a raw string).
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| i + n);
                let end = if end > i && b[end - 1] == b'\r' && end < b.len() {
                    end - 1
                } else {
                    end
                };
                out.push(Comment {
                    range: i..end,
                    line,
                    block: false,
                });
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (start, start_line) = (i, line);
                let mut depth = 1;
                i += 2;
                while i < b.len() && depth > 0 {
                    match (b[i], b.get(i + 1)) {
                        (b'/', Some(b'*')) => {
                            depth += 1;
                            i += 2;
                        }
                        (b'*', Some(b'/')) => {
                            depth -= 1;
                            i += 2;
                        }
                        (b'\n', _) => {
                            line += 1;
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
                out.push(Comment {
                    range: start..i.min(b.len()),
                    line: start_line,
                    block: true,
                });
            }
            b'"' => i = skip_string(b, i + 1, &mut line),
            b'\'' => i = skip_char(b, i + 1, &mut line),
            b'r' | b'b' if i == 0 || !ident(b[i - 1]) => {
                // `r"`, `r#"`, `b"`, `br"`, `br#"`: a (raw) string; anything else an identifier.
                let mut j = i + 1;
                if c == b'b' && b.get(j) == Some(&b'r') {
                    j += 1;
                }
                let raw = c == b'r' || j == i + 2;
                let hashes = if raw {
                    b[j..].iter().take_while(|&&c| c == b'#').count()
                } else {
                    0
                };
                if b.get(j + hashes) == Some(&b'"') {
                    i = if raw {
                        skip_raw_string(b, j + hashes + 1, hashes, &mut line)
                    } else {
                        skip_string(b, j + 1, &mut line)
                    };
                } else if c == b'b' && b.get(j) == Some(&b'\'') {
                    i = skip_char(b, j + 1, &mut line);
                } else {
                    // The rest of the identifier.
                    i += 1;
                    while i < b.len() && ident(b[i]) {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether `text` holds at least one comment.
pub fn has_comments(text: &str) -> bool {
    !find_comments(text).is_empty()
}

/// Past the closing quote of a string whose body starts at `i` (escapes skipped).
fn skip_string(b: &[u8], mut i: usize, line: &mut usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if b.get(i + 1) == Some(&b'\n') {
                    *line += 1;
                }
                i += 2;
            }
            b'"' => return i + 1,
            b'\n' => {
                *line += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// Past the `"` followed by `hashes` `#` that closes a raw string whose body starts at `i`.
fn skip_raw_string(b: &[u8], mut i: usize, hashes: usize, line: &mut usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'"' if b[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes =>
            {
                return i + 1 + hashes;
            }
            b'\n' => *line += 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Past a character literal whose body starts at `i` (`'a'`, `'\''`, `'\u{1F600}'`, `'é'`).
fn skip_char(b: &[u8], mut i: usize, line: &mut usize) -> usize {
    if b.get(i) == Some(&b'\\') {
        i += 2;
    } else if i < b.len() {
        // One character, of however many UTF-8 bytes.
        if b[i] == b'\n' {
            *line += 1;
        }
        i += 1;
        while i < b.len() && (b[i] & 0xC0) == 0x80 {
            i += 1;
        }
    }
    // Up to the closing quote (escapes such as `\u{...}` are longer than one byte).
    while i < b.len() && b[i] != b'\'' && b[i] != b'\n' {
        i += 1;
    }
    if b.get(i) == Some(&b'\'') {
        i + 1
    } else {
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        find_comments(src)
            .into_iter()
            .map(|c| &src[c.range])
            .collect()
    }

    #[test]
    fn line_and_block_comments_with_their_lines() {
        let src = "// head\n(\n  a: 1, // tail\n  /* b */ b: 2,\n)\n";
        let c = find_comments(src);
        assert_eq!(texts(src), vec!["// head", "// tail", "/* b */"]);
        assert_eq!(
            c.iter().map(|c| (c.line, c.block)).collect::<Vec<_>>(),
            vec![(1, false), (3, false), (4, true)]
        );
    }

    #[test]
    fn block_comments_nest() {
        let src = "(a: /* outer /* inner */ still outer */ 1, b: 2) /* x */";
        assert_eq!(
            texts(src),
            vec!["/* outer /* inner */ still outer */", "/* x */"]
        );
        // A `*/` closes one level only: the text after the inner close is still a comment.
        let src = "/* a /* b */ c */ (x: 1)";
        assert_eq!(texts(src), vec!["/* a /* b */ c */"]);
        // Lines are counted inside block comments.
        let src = "/* 1\n2\n*/\n// 4";
        assert_eq!(find_comments(src)[1].line, 4);
    }

    #[test]
    fn an_unclosed_block_comment_runs_to_the_end() {
        let src = "(a: 1) /* open /* nested */ ...";
        assert_eq!(texts(src), vec!["/* open /* nested */ ..."]);
    }

    #[test]
    fn nothing_inside_a_string_or_char_is_a_comment() {
        for src in [
            r#"(name: "a // b")"#,
            r#"(name: "a /* b */ c")"#,
            r#"(name: "quote \" // still in the string")"#,
            r#"(name: "backslash \\", other: "//")"#,
            r##"(name: r#"raw " // "#)"##,
            r#"(name: r"raw // no escapes \")"#,
            r#"(name: b"bytes // x", c: '"', d: '/', e: '\'', f: "/*")"#,
            r###"(name: br##"a "# // b"##)"###,
            "(name: \"multi\nline // x\")",
            "(c: '\\u{2F}', s: \"//\")",
            "(c: 'é', s: \"/**/\")",
            "(url: \"http://example.com\")",
        ] {
            assert_eq!(find_comments(src), vec![], "{src}");
            assert!(!has_comments(src));
        }
        // ...but a comment right after one is found.
        let src = r##"(name: "a\"b" /* c */, d: 'x', // e
            raw: r#"q"#)"##;
        assert_eq!(texts(src), vec!["/* c */", "// e"]);
    }

    #[test]
    fn identifiers_ending_in_r_or_b_are_not_string_prefixes() {
        // `bar "` is an identifier then a string; `b` and `r` inside words are letters.
        let src = "(bar: \"//\", rb: 1, br: 2) // tail";
        assert_eq!(texts(src), vec!["// tail"]);
    }

    #[test]
    fn a_division_slash_or_lone_star_is_not_a_comment() {
        assert_eq!(find_comments("(a: 1, b: \"*/\") / * x"), vec![]);
    }

    #[test]
    fn crlf_line_comments_end_before_the_carriage_return() {
        let src = "// a\r\n(x: 1)\r\n";
        assert_eq!(texts(src), vec!["// a"]);
    }

    #[test]
    fn the_shipped_levels_hold_comments_and_saved_levels_none() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join("levels/default.ron")).unwrap();
        let c = find_comments(&text);
        assert!(c.len() > 5, "{c:?}");
        assert_eq!(c[0].line, 1);
        let level = crate::level::parse_level(std::path::Path::new("d.ron"), &text).unwrap();
        let saved = crate::level::level_to_ron(std::path::Path::new("d.ron"), &level).unwrap();
        assert!(!has_comments(&saved), "the editor's own output has none");
    }

    /// Blanks every comment found (keeping line breaks, so error positions stay).
    fn strip(text: &str) -> String {
        let mut out = text.to_string();
        for c in find_comments(text).into_iter().rev() {
            let blank: String = text[c.range.clone()]
                .chars()
                .map(|ch| if ch == '\n' { '\n' } else { ' ' })
                .collect();
            out.replace_range(c.range, &blank);
        }
        out
    }

    #[test]
    fn removing_what_it_finds_leaves_the_same_level() {
        // What the lexer calls a comment is exactly what RON skips: the level parses the same
        // without it, and nothing is left that looks like a comment start.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = std::path::Path::new("d.ron");
        let mut files = vec![root.join("levels/default.ron")];
        for e in std::fs::read_dir(root.join("levels/test")).unwrap() {
            files.push(e.unwrap().path());
        }
        for name in files {
            let text = std::fs::read_to_string(&name).unwrap();
            assert!(has_comments(&text), "{}", name.display());
            let stripped = strip(&text);
            assert_eq!(
                crate::level::parse_level(path, &stripped).unwrap(),
                crate::level::parse_level(path, &text).unwrap(),
                "{}",
                name.display()
            );
            assert!(
                !stripped.contains("//") && !stripped.contains("/*"),
                "{}",
                name.display()
            );
        }
        // Strings the serializer writes (escaped quotes and backslashes, comment markers) are data.
        let level = crate::level::Level::empty("a \"quoted\" // name /* with */ \\ slashes \\");
        let text = crate::level::level_to_ron(path, &level).unwrap();
        assert_eq!(find_comments(&text), vec![], "{text}");
        let commented = format!("/* a /* nested */ note */\n// line\n{text}");
        let stripped = strip(&commented);
        assert_eq!(crate::level::parse_level(path, &stripped).unwrap(), level);
        assert_eq!(find_comments(&commented).len(), 2);
    }
}
